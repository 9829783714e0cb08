#!/usr/bin/env bash
# Side-by-side benchmarks of rolloutplan against the real upstream code
# (k8s.io/kubernetes v1.36.3) on the same inputs: the Deployment,
# StatefulSet and DaemonSet controllers' syncs of recorded states, and
# more. Checks first that both give the same answers, then runs every
# benchmark in COUNT rounds (default 5; each round runs every benchmark
# once, so the two halves of a pair are measured close in time), the cost
# of a DaemonSet sync over 10 to 5 000 nodes, and prints the table:
# medians, spread, ratios and targets. BENCH selects benchmarks (a -bench
# pattern), BENCHTIME sets -benchtime. Exit status: 0 when every row meets
# its target, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")"
count=${COUNT:-5}
benchtime=${BENCHTIME:-1s}
out=$(mktemp)
bin=$(mktemp)
trap 'rm -f "$out" "$bin"' EXIT

echo "== sanity: upstream and rolloutplan agree"
go test -count=1 -run '^TestSanity' .

echo "== benchmarks ($count rounds, -benchtime $benchtime, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
go test -c -o "$bin" .
for round in $(seq 1 "$count"); do
  echo "-- round $round"
  "$bin" -test.run '^$' -test.bench "${BENCH:-.}" -test.benchtime "$benchtime" -test.count 1 | grep '^Benchmark' | tee -a "$out"
done

echo
echo "== DaemonSet sync over a node pool (plan/daemonset BenchmarkSyncNodes: a rolling update, ns/node flat when linear)"
(cd ../.. && go test -run '^$' -bench '^BenchmarkSyncNodes$' -benchtime "$benchtime" ./plan/daemonset/) | grep '^Benchmark'

echo
go run ./cmd/benchtable < "$out"
