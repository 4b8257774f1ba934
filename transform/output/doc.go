// Package output holds the output and history rules (SO301–SO306) and
// their invariants (SO420–SO425): large tool results reduced to their
// evidence or to a lossless columnar form, later duplicates replaced by
// references, hard overflow ceilings, the final-output sanitizer and
// head/tail history assembly. Whatever they shorten is archived first and
// named by an opaque handle that retrieve_output resolves.
package output
