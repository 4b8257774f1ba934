#!/usr/bin/env bash
# make bench: Go benchmarks of the hot paths, then whole-process timings of
# skillopt measure against a program that only json.Unmarshals the same file.
# The baseline runs its collector with skillopt's settings for one-pass
# commands (internal/gctune: GOGC 300 up to 8 MiB of input, 100 above, and a
# soft memory limit of 3 x input + 24 MiB), so the ratios compare the work
# done and not two collector settings.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${BENCH_OUT:-bin/bench}
mkdir -p "$out"
# Built as `make build` builds it (static, see the Makefile).
CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$out/skillopt" ./cmd/skillopt
go build -o "$out/jsonbaseline" ./internal/cmd/jsonbaseline
go build -o "$out/procbench" ./internal/cmd/procbench
go build -o "$out/synthgen" ./internal/cmd/synthgen
CGO_ENABLED=0 go build -o "$out/emptyprog" ./internal/cmd/emptyprog

echo "== Go benchmarks"
go test -run '^$' -bench 'IndexSegments|Parse' -benchmem -benchtime 20x ./capture | tee "$out/capture.txt"
go test -run '^$' -bench . -benchmem ./internal/tokens | tee "$out/tokens.txt"
go test -run '^$' -bench . -benchmem ./schemas | tee "$out/schemas.txt"
go test -run '^$' -bench Report10k -benchmem -benchtime 3x ./trace | tee "$out/trace.txt"
go test -run '^$' -bench ToolPlan200 -benchmem ./internal/bench/toolbench | tee "$out/toolplan.txt"
# The catalog rules alone (no engine environment: no validation guard)...
go test -run '^$' -bench 'WarmCompact|WarmPrefetch|PrefetchRule|FirstRequest' -benchmem -count 3 ./transform/catalogrules | tee "$out/catalog.txt"
# ...and the request transform prepares, guards included, on host-shaped
# captures with a new latest human text on every request (what bench
# catalog times).
go test -run '^$' -bench 'WarmCompact|WarmPrefetch|FirstRequest' -benchmem -benchtime 10x ./internal/bench/catalogbench | tee "$out/catalogbench.txt"
# measure --conversation over Pi sessions of 100, 500 and 2,000 turns:
# ns/turn, B/op and allocs/op per turn stay flat.
go test -run '^$' -bench ConversationTurns -benchmem -benchtime 3x ./measure | tee "$out/conversation.txt"
# skillopt record: a 200 KB request and a 1.8 MB event stream to a loopback
# upstream, direct and through the proxy (p50-ms: added latency is the
# difference; ttfe-p50-ms: time to the first event).
go test -run '^$' -bench Proxy -benchmem -benchtime 200x ./record | tee "$out/record.txt"

# The catalog benchmark: warm requests with the compact index and with the
# prefetch overlay, SO103's allocation, the first request, and start-up
# (skillopt --version against an empty Go program, alternately; a cold
# transform --rules SO101,SO103 of 355 skills).
echo "== bench catalog"
"$out/skillopt" bench catalog --sizes 355,2000,10000,100000 --format json --empty-program "$out/emptyprog" | tee "$out/catalog.json"

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
  "$out/procbench" -runs "$runs" -name "measure (default pipeline, o200k_base)" -- "$out/skillopt" measure "$cap" >>"$rows"
  "$out/procbench" -runs "$runs" -name "validate" -- "$out/skillopt" validate "$cap" >>"$rows"
  "$out/procbench" -compare "$rows"
  awk -v size="$(wc -c <"$cap")" 'BEGIN{FS="\"peak_rss_kib\":"} /measure --rules none --encoding none/ {split($2,a,"}"); printf "peak RSS of measure --rules none --encoding none: %.1f MiB; limit 3 x input + 20 MiB = %.1f MiB\n", a[1]/1024, (3*size)/1048576+20}' "$rows"
done

# The real 453-turn Pi session, whole process.
session=../shared/corpus/provider-examples/pi/pi-mono-fixture_session-v1_large-session.jsonl
if [ -f "$session" ]; then
  echo "== measure --conversation, $(basename "$session") ($(wc -c <"$session") bytes)"
  "$out/procbench" -runs 5 -name "measure --conversation" -- "$out/skillopt" measure --conversation "$session"
fi

# Many captures: 2,000 files (20 synthetic captures of 40 to 325 skills
# and 1 to 6 turns, five providers, copied 100 times) with one worker and
# with the default (GOMAXPROCS); the target on 2 cores is >= 1.7x. The
# outputs must be identical, and peak memory stays that of the workers.
echo "== many captures, --jobs 1 vs default"
many="$out/many"
rm -rf "$many" && mkdir -p "$many/src" "$many/caps"
provs=(anthropic openai-chat openai-responses gemini mistral)
for i in $(seq 0 19); do
  "$out/synthgen" -n $((40 + i * 15)) -provider "${provs[$((i % 5))]}" -seed "$i" -turns $((1 + i % 6)) -envelope record -o "$many/src/c$i.json"
done
for k in $(seq 0 99); do for i in $(seq 0 19); do cp "$many/src/c$i.json" "$many/caps/k$k-c$i.json"; done; done
rows="$out/jobs.jsonl"
: >"$rows"
for cmd in "validate" "measure --encoding none" "measure" "check"; do
  for jobs in 1 0; do
    "$out/procbench" -runs 3 -warmup 1 -name "$cmd --jobs $jobs" -- "$out/skillopt" $cmd --jobs "$jobs" --format jsonl "$many/caps" >>"$rows"
  done
  "$out/skillopt" $cmd --jobs 1 --format jsonl "$many/caps" >"$many/out-1.jsonl"
  "$out/skillopt" $cmd --format jsonl "$many/caps" >"$many/out-0.jsonl"
  cmp -s "$many/out-1.jsonl" "$many/out-0.jsonl" || { echo "$cmd: --jobs 1 and the default differ"; exit 1; }
done
# Throughput of the default over one worker, per command.
sed -E 's/.*"name":"([^"]*) --jobs ([01])".*"median_ms":([0-9.]+).*"peak_rss_kib":([0-9]+).*/\1|\2|\3|\4/' "$rows" | awk -F'|' '
  $2 == 1 {one[$1] = $3; rss1[$1] = $4; order[++n] = $1}
  $2 == 0 {dflt[$1] = $3; rss0[$1] = $4}
  END {for (i = 1; i <= n; i++) {c = order[i]; printf "%-24s --jobs 1 %8.0f ms %6.1f MiB   default %8.0f ms %6.1f MiB   %.2fx   %.3f ms/capture\n", c, one[c], rss1[c]/1024, dflt[c], rss0[c]/1024, one[c]/dflt[c], dflt[c]/2000}}'

# Peak resident memory over input size. Targets: string-heavy captures at most
# 3 x input + 30 MiB; dense numeric arrays at most 12 x input + 30 MiB.
memrow() { # NAME FACTOR FILE CMD...
  local name=$1 factor=$2 file=$3
  shift 3
  local size kib
  size=$(wc -c <"$file")
  kib=$("$out/procbench" -runs 3 -warmup 1 -name "$name" -- "$@" | sed -E 's/.*"peak_rss_kib":([0-9]+).*/\1/')
  awk -v n="$name" -v f="$factor" -v s="$size" -v k="$kib" 'BEGIN{
    mib=k/1024; lim=f*s/1048576+30; printf "%-52s input %7.1f MiB  peak RSS %7.1f MiB  (%5.1f x input)  limit %7.1f MiB  %s\n", n, s/1048576, mib, k*1024/s, lim, (mib<=lim?"ok":"OVER")}'
}
echo "== peak memory"
"$out/synthgen" -dense 10000000 -o "$out/dense-20MB.json"
memfiles=("3:$out/anthropic-10000.json" "3:$out/anthropic-100000.json" "12:$out/dense-20MB.json")
for pi in ../shared/corpus/captures/pi-0.73.1/pi-openai-responses-small-3.json; do
  [ -f "$pi" ] && memfiles+=("3:$pi")
done
for entry in "${memfiles[@]}"; do
  factor=${entry%%:*}
  file=${entry#*:}
  base=$(basename "$file")
  memrow "measure --rules none $base" "$factor" "$file" "$out/skillopt" measure --rules none "$file"
  memrow "validate $base" "$factor" "$file" "$out/skillopt" validate "$file"
  memrow "transform $base" "$factor" "$file" "$out/skillopt" transform -o "$out/transformed.json" "$file"
done

# Scaling: every command on every hostile shape (synth.Hostile) at N and 4N
# bytes; time and peak memory should both grow about 4x (TestScalingAllocations
# asserts the allocation ratio in make test). SCALING_BYTES sets N.
echo "== scaling (N = ${SCALING_BYTES:=1048576} bytes)"
printf '%-15s %-24s %10s %10s %6s %10s %10s %6s\n' shape command "ms N" "ms 4N" ratio "MiB N" "MiB 4N" ratio
scale_cmds=("measure" "measure --encoding none" "validate" "transform" "check" "diff" "diff --stat")
for shape in $("$out/synthgen" -list-hostile); do
  for n in "$SCALING_BYTES" $((4 * SCALING_BYTES)); do
    "$out/synthgen" -hostile "$shape" -bytes "$n" -o "$out/h-$shape-$n-a.json"
    "$out/synthgen" -hostile "$shape" -bytes "$n" -variant -o "$out/h-$shape-$n-b.json"
  done
  for cmd in "${scale_cmds[@]}"; do
    line=""
    for n in "$SCALING_BYTES" $((4 * SCALING_BYTES)); do
      a="$out/h-$shape-$n-a.json" b="$out/h-$shape-$n-b.json"
      case $cmd in
      diff*) args=($cmd "$a" "$b") ;;
      transform) args=(transform --no-archive -o "$out/h-out.json" "$a") ;;
      *) args=($cmd "$a") ;;
      esac
      r=$("$out/procbench" -runs 3 -warmup 1 -name x -- "$out/skillopt" "${args[@]}" || true)
      line="$line $(echo "$r" | sed -E 's/.*"median_ms":([0-9.]+).*"peak_rss_kib":([0-9]+).*/\1 \2/')"
    done
    echo "$shape|$cmd|$line" | awk -F'|' '{split($3,v," "); if (v[1]=="" || v[3]=="") {printf "%-15s %-24s failed\n", $1, $2; next}
      printf "%-15s %-24s %10.1f %10.1f %6.2f %10.1f %10.1f %6.2f\n", $1, $2, v[1], v[3], v[3]/v[1], v[2]/1024, v[4]/1024, v[4]/v[2]}'
  done
done
