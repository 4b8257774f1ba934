# skillopt — build, test, benchmark.
GO      ?= go
BIN     ?= bin/skillopt
FUZZTIME ?= 20s

.PHONY: all build test test-long lint update bench fuzz-short clean

all: build

# Without the CLI library's man-page generator, whose Markdown tables are
# built at every start; CGO_ENABLED=0 keeps the binary static (loading the
# C library would cost more) should a dependency ever need cgo.
BUILDFLAGS ?= -tags urfave_cli_no_docs

build:
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -o $(BIN) ./cmd/skillopt

# vet + unit tests + CLI end-to-end scripts (testscript runs inside go test
# ./cmd/skillopt). No test asserts wall-clock time (timings are benchmarks);
# exhaustive differential runs check a fixed sample here (see test-long).
# Tests that need ../shared/corpus skip without it; .ci/run requires it.
test:
	@[ -d ../shared/corpus ] || echo "note: ../shared/corpus not found: the corpus tests skip (.ci/run fails without it)"
	$(GO) vet ./...
	$(GO) test ./...

# test, with the exhaustive differential runs in full (every corpus file
# against the reference tokenizer, every 3-character string, 100,000-skill
# captures).
test-long:
	$(GO) vet ./...
	SKILLOPT_LONG_TESTS=1 $(GO) test -timeout 30m ./...

# gofmt, go vet and staticcheck. gofmt is the one beside the go command;
# staticcheck is built at its pinned version by the go command (through the
# module proxy on a fresh machine). STATICCHECK=staticcheck uses an
# installed binary instead.
GOFMT       ?= $(shell $(GO) env GOROOT)/bin/gofmt
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint:
	@out=$$($(GOFMT) -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...

# Rewrites every golden and generated file from what the code produces
# now (rule case expectations, printer and command outputs, testscript
# files, docs/rules, the search baseline, internal/golden/packages.txt):
# one -update flag, defined once in internal/golden. Review the diff.
# In dependency order: the rule lists (every other test compiles against
# them), then the rule cases (the documentation's examples come from them),
# then the rest.
update:
	$(GO) test ./internal/archtest -run TestRuleListsGenerated -update
	$(GO) test ./internal/ruleset ./catalog/lint -update
	$(GO) test ./... -update

# Go benchmarks plus whole-process timings against a plain json.Unmarshal
# baseline; see internal/cmd/procbench.
bench:
	./internal/bench/run.sh

# Every fuzz target for $(FUZZTIME).
fuzz-short:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$f"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

clean:
	rm -rf bin
