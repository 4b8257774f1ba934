package catalog

import "sync"

// VocabularyVersion names the fixed tag vocabulary; profiles and directories
// carry it so a changed vocabulary is never mixed with old cards.
const VocabularyVersion = "skillopt-tags/1"

// Unclassified is the bucket of skills whose card is missing or stale. It is
// not a vocabulary tag: cards cannot choose it.
const Unclassified = "unclassified"

// Tag is one entry of the vocabulary.
type Tag struct {
	Name string
	Doc  string // one line, shown in the tag directory
}

// Vocabulary is the fixed, versioned list of 38 tags for skill catalogs of
// software work. Order is the directory's order. Changing it requires a new
// VocabularyVersion.
var Vocabulary = []Tag{
	{"frontend", "web UI, browsers, CSS, components"},
	{"backend", "services, servers, business logic"},
	{"api", "HTTP/RPC APIs, clients, specs"},
	{"database", "SQL, schemas, migrations, queries"},
	{"data-engineering", "pipelines, ETL, data formats"},
	{"data-science", "analysis, statistics, notebooks, plots"},
	{"machine-learning", "training, models, evaluation"},
	{"llm-agents", "prompts, agents, MCP, skills"},
	{"devops", "operations, deploys, on-call"},
	{"cloud", "AWS, GCP, Azure services"},
	{"containers", "Docker, images, Kubernetes"},
	{"ci-cd", "build pipelines, release automation"},
	{"observability", "logs, metrics, traces, alerts"},
	{"security", "vulnerabilities, secrets, auth, audits"},
	{"testing", "unit, integration, e2e tests"},
	{"debugging", "failures, crashes, root causes"},
	{"performance", "profiling, speed, memory"},
	{"refactoring", "restructuring, cleanup, migrations"},
	{"code-review", "reviews, pull requests, standards"},
	{"git", "version control, history, branches"},
	{"documentation", "docs, READMEs, references"},
	{"writing", "prose, reports, communication"},
	{"design", "visual design, UX, art, themes"},
	{"mobile", "iOS, Android, mobile apps"},
	{"desktop", "desktop and native apps"},
	{"cli", "terminal tools and shells"},
	{"scripting", "automation scripts, glue code"},
	{"languages", "language-specific idioms, toolchains"},
	{"build", "compilers, packaging, dependencies"},
	{"infrastructure", "infrastructure as code, networks"},
	{"documents", "PDF, Word, spreadsheets, slides"},
	{"media", "images, audio, video, GIFs"},
	{"research", "literature, science, investigation"},
	{"planning", "tasks, projects, estimates"},
	{"business", "finance, legal, marketing, sales"},
	{"domain", "health, education, other fields"},
	{"discipline", "evidence, verification, safe judgment"},
	{"other", "topics outside this vocabulary"},
}

// tagIndex gives each tag's position in Vocabulary (unclassified last); it
// is built on first use.
var tagIndex = sync.OnceValue(func() map[string]int {
	m := make(map[string]int, len(Vocabulary)+1)
	for i, t := range Vocabulary {
		m[t.Name] = i
	}
	m[Unclassified] = len(Vocabulary)
	return m
})

// IsTag reports whether name is a vocabulary tag (unclassified is not).
func IsTag(name string) bool {
	i, ok := tagIndex()[name]
	return ok && i < len(Vocabulary)
}

func tagOrder(name string) int {
	if i, ok := tagIndex()[name]; ok {
		return i
	}
	return len(Vocabulary) + 1
}

// TagDoc returns the one-line description of a tag (or of unclassified).
func TagDoc(name string) string {
	if name == Unclassified {
		return "skills without a current card"
	}
	if i, ok := tagIndex()[name]; ok {
		return Vocabulary[i].Doc
	}
	return ""
}
