#!/usr/bin/env bash
# The side-by-side benchmark module (examples/bench): only its sanity tests,
# that the real upstream code (k8s.io/kubernetes v1.36.3: the Deployment
# controller's sync, ComputeHash, FindNewReplicaSet) and rolloutplan give
# the same answers on the benchmark inputs and that the benchmarks measure
# what they say (a repeated sync gives the same answer, the simulation
# completes, the heap measurement counts what is kept), and the table
# tool's test. The timings themselves run with examples/bench/run.sh, not
# in CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
. .ci/lib/gotest.sh

out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
(cd examples/bench && go test -count=1 -run '^(TestSanity.*|TestTable)$' -v . ./cmd/...) > "$out" 2>&1 || status=$?
grep -E '^(--- |ok|FAIL|PASS)' "$out" || true
summarize "bench sanity" "$out" "$status"
