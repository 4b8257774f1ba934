package searchbench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/skillopt/skillopt/internal/escape"
)

// WriteText prints the report for people; with cases, every query's rank
// under each ranker too.
func WriteText(w io.Writer, rep *Report, cases bool) error {
	fmt.Fprintf(w, "skill search: %d queries (%d tuning, %d held out) over %d skills in %s\n\n",
		rep.Queries, rep.Queries-rep.HeldOut, rep.HeldOut, rep.Skills, escape.Text(rep.Root))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "part\tranker\tqueries\tR@1\tR@3\tR@5\tMRR\tnDCG@10\tunlabelled@10\t")
	for _, m := range rep.Metrics {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.2f\t\n", m.Part, m.Ranker, m.Queries, m.R1, m.R3, m.R5, m.MRR, m.NDCG10, m.Unlabelled)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nexact names misspelled (one edit: names of 3+ letters; two edits: 6+):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "edits\tranker\tnames\ttop 1\ttop 5\t")
	for _, t := range rep.Typos {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.3f\t%.3f\t\n", t.Edits, t.Ranker, t.Names, t.Top1, t.Top5)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	p := rep.Pagination
	fmt.Fprintf(w, "\npagination (browse by query, %d per page; every skill ordered by it, %d per page):\n  %d of %d queries complete, %d with a repeated or stray card, %d missing a match, %d abstained\n",
		p.PageSize, p.TagPageSize, p.Complete, p.Queries, p.Duplicated, p.Missing, p.Abstained)
	if !cases {
		return nil
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "id\tpart\tranker\trank\tnDCG\tquery\ttop 3")
	for _, c := range rep.Cases {
		rank := "-"
		if c.Rank > 0 {
			rank = fmt.Sprint(c.Rank)
		}
		top := c.Results[:min(3, len(c.Results))]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f\t%s\t%s\n", c.ID, c.Part, c.Ranker, rank, c.NDCG10, escape.Text(c.Query), escape.Text(strings.Join(top, ", ")))
	}
	return tw.Flush()
}
