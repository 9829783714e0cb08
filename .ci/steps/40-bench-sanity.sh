#!/usr/bin/env bash
# The side-by-side benchmark module (examples/bench): only its sanity tests,
# that the real upstream code (k8s.io/kubernetes v1.36.3: the Deployment
# controller's sync, ComputeHash, FindNewReplicaSet) and rolloutplan give
# the same answers on the benchmark inputs, and the table tool's test. The
# timings themselves run with examples/bench/run.sh, not in CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
cd examples/bench
go test -count=1 -run '^(TestSanity.*|TestTable)$' -v . ./cmd/... 2>&1 | tee /tmp/rolloutplan-bench-sanity.out | grep -E '^(--- |ok|FAIL|PASS)' || true
passed=$(grep -c '^--- PASS' /tmp/rolloutplan-bench-sanity.out || true)
failed=$(grep -c '^--- FAIL' /tmp/rolloutplan-bench-sanity.out || true)
echo "bench sanity: $passed passed, $failed failed"
if [ "$failed" -ne 0 ] || grep -q '^FAIL' /tmp/rolloutplan-bench-sanity.out; then
  exit 1
fi
