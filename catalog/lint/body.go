package lint

// Rules about the markdown body and its budgets.

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/skillopt/skillopt/internal/tokens"
	"github.com/skillopt/skillopt/rules"
)

// lineBudget are the options of SK040.
type lineBudget struct {
	MaxLines int `toml:"max_lines" doc:"line budget of a SKILL.md; 0 turns the check off"`
}

func (*lineBudget) Section() string { return "lint" }

func (o *lineBudget) Check() []rules.OptionError {
	if o.MaxLines < 0 {
		return []rules.OptionError{{Key: "max_lines", Msg: fmt.Sprintf("%d must not be negative", o.MaxLines)}}
	}
	return nil
}

var skillMDTooLong = &Rule{
	Rule: &rules.Rule{ID: "SK040", Name: "skill-md-too-long", Kind: rules.Lint, Severity: rules.Warning,
		Title:   "SKILL.md is longer than 500 lines",
		Why:     "The whole file is loaded when the skill activates, so detail that lives in reference files costs nothing until it is needed.",
		Since:   rules.FirstVersion,
		Options: &lineBudget{MaxLines: 500},
		Doc:     "SKILL.md is longer than 500 lines. The spec and Anthropic recommend keeping the main file under 500 lines and moving detail into reference files the skill links to, because the whole file is loaded on activation."},
	Skill: func(p *Pass, u *Skill) {
		limit := p.Options.(*lineBudget).MaxLines
		if u.notSkill || limit <= 0 {
			return
		}
		if n := u.doc.Lines(); n > limit {
			p.Report(rules.Warning, u.src.Path, limit+1, 1, "file has %s lines, over the %s-line budget: move detail into reference files", thousands(n), thousands(limit))
		}
	},
}

// tokenBudget are the options of SK041.
type tokenBudget struct {
	Encoding   string `toml:"encoding" doc:"tokenizer of the body token budget: \"o200k_base\" or \"cl100k_base\""`
	BodyTokens int    `toml:"body_tokens" doc:"body token budget of a SKILL.md; 0 turns the check off"`
}

func (*tokenBudget) Section() string { return "lint" }

func (o *tokenBudget) Check() []rules.OptionError {
	var errs []rules.OptionError
	switch o.Encoding {
	case "o200k_base", "cl100k_base":
	default:
		errs = append(errs, rules.OptionError{Key: "encoding", Msg: fmt.Sprintf("%q is not one of o200k_base, cl100k_base", o.Encoding)})
	}
	if o.BodyTokens < 0 {
		errs = append(errs, rules.OptionError{Key: "body_tokens", Msg: fmt.Sprintf("%d must not be negative", o.BodyTokens)})
	}
	return errs
}

var bodyTokenBudget = &Rule{
	Rule: &rules.Rule{ID: "SK041", Name: "body-token-budget", Kind: rules.Lint, Severity: rules.Warning,
		Title:   "The body is longer than 5,000 tokens",
		Why:     "The body is loaded whole into the context on activation; the spec recommends staying under 5,000 tokens and moving the rest into reference files.",
		Since:   rules.FirstVersion,
		Options: &tokenBudget{Encoding: "o200k_base", BodyTokens: 5000},
		Doc:     "The markdown body after the frontmatter is longer than 5,000 tokens, counted exactly with the configured OpenAI encoding (o200k_base by default). The spec recommends instructions under 5,000 tokens, since they are loaded whole into the context on activation."},
	Start: func(p *Pass) {
		if o := p.Options.(*tokenBudget); o.BodyTokens > 0 {
			p.run.tokens = newBodyTokens(p.run.cacheDir, o.Encoding)
		}
	},
	Skill: func(p *Pass, u *Skill) {
		o := p.Options.(*tokenBudget)
		budget := o.BodyTokens
		// A token is at least one byte: short bodies cannot be over.
		if u.notSkill || budget <= 0 || len(u.doc.Body) <= budget || p.run.tokens == nil {
			return
		}
		n, err := p.run.tokens.count(u.doc.Body)
		if err != nil {
			return
		}
		if n > budget {
			p.Report(rules.Warning, u.src.Path, u.doc.BodyLine, 1, "body is %s tokens (%s), over the %s-token budget", thousands(n), o.Encoding, thousands(budget))
		}
	},
}

// bodyTokens counts the tokens of skill bodies for one run, through the
// cache of counts kept between runs.
type bodyTokens struct {
	enc   string
	cache *tokenCache

	once    sync.Once
	counter *tokens.Counter
}

// newBodyTokens opens the cache of an encoding in cacheDir ("": none) and,
// when the cache is cold, starts loading the vocabulary while the tree is
// walked; with a warm cache it may not be needed at all.
func newBodyTokens(cacheDir, enc string) *bodyTokens {
	b := &bodyTokens{enc: enc, cache: openTokenCache(cacheDir, enc)}
	if !b.cache.warm() {
		if c := b.tokenizer(); c != nil {
			c.Preload()
		}
	}
	return b
}

func (b *bodyTokens) tokenizer() *tokens.Counter {
	b.once.Do(func() { b.counter, _ = tokens.New(b.enc) })
	return b.counter
}

// count returns the tokens of a body.
func (b *bodyTokens) count(body []byte) (int, error) {
	k := bodyKey(body)
	if n, ok := b.cache.get(k); ok {
		return n, nil
	}
	tc := b.tokenizer()
	if tc == nil {
		return 0, fmt.Errorf("no tokenizer for encoding %q", b.enc)
	}
	n := tc.Count(string(body))
	b.cache.put(k, n)
	return n, nil
}

// save keeps the counts for the next run; best effort, as counts are exact
// without it.
func (b *bodyTokens) save() {
	if b != nil {
		_ = b.cache.save()
	}
}

var bodyEmpty = &Rule{
	Rule: &rules.Rule{ID: "SK042", Name: "body-empty", Kind: rules.Lint, Severity: rules.Warning,
		Title: "The body is empty",
		Why:   "A skill without instructions gives the model nothing to follow once it activates it.",
		Since: rules.FirstVersion,
		Doc:   "Nothing but whitespace follows the frontmatter. A skill's body holds the instructions the model reads on activation; an empty one makes the skill a description only."},
	Skill: func(p *Pass, u *Skill) {
		if u.fm() && len(bytes.TrimSpace(u.doc.Body)) == 0 {
			p.Report(rules.Warning, u.src.Path, u.doc.CloseLine, 1, "the skill has no instructions after the frontmatter")
		}
	},
}
