#!/usr/bin/env bash
# make bench: Go benchmarks of the hot paths, then whole-process timings of
# skillopt measure against a program that only json.Unmarshals the same file.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${BENCH_OUT:-bin/bench}
mkdir -p "$out"
go build -o "$out/skillopt" ./cmd/skillopt
go build -o "$out/jsonbaseline" ./internal/cmd/jsonbaseline
go build -o "$out/procbench" ./internal/cmd/procbench
go build -o "$out/synthgen" ./internal/cmd/synthgen

echo "== Go benchmarks"
go test -run '^$' -bench 'IndexSegments|Parse' -benchmem -benchtime 20x ./capture | tee "$out/capture.txt"
go test -run '^$' -bench . -benchmem ./internal/tokens | tee "$out/tokens.txt"
go test -run '^$' -bench . -benchmem ./schemas | tee "$out/schemas.txt"

for n in 10000 100000; do
  cap="$out/anthropic-$n.json"
  "$out/synthgen" -n "$n" -provider anthropic -o "$cap"
  runs=15
  [ "$n" -ge 100000 ] && runs=5
  echo "== whole process, $n skills ($(wc -c <"$cap") bytes)"
  rows="$out/process-$n.jsonl"
  : >"$rows"
  "$out/procbench" -runs "$runs" -name baseline -- "$out/jsonbaseline" "$cap" >>"$rows"
  "$out/procbench" -runs "$runs" -name "measure --rules none --encoding none" -- "$out/skillopt" measure --rules none --encoding none "$cap" >>"$rows"
  "$out/procbench" -runs "$runs" -name "measure --rules none (o200k_base)" -- "$out/skillopt" measure --rules none --encoding o200k_base "$cap" >>"$rows"
  "$out/procbench" -runs "$runs" -name "measure, default pipeline, --encoding none" -- "$out/skillopt" measure --encoding none "$cap" >>"$rows"
  "$out/procbench" -runs "$runs" -name "validate" -- "$out/skillopt" validate "$cap" >>"$rows"
  "$out/procbench" -compare "$rows"
  awk -v size="$(wc -c <"$cap")" 'BEGIN{FS="\"peak_rss_kib\":"} /measure --rules none --encoding none/ {split($2,a,"}"); printf "peak RSS of measure --rules none --encoding none: %.1f MiB; limit 3 x input + 20 MiB = %.1f MiB\n", a[1]/1024, (3*size)/1048576+20}' "$rows"
done
