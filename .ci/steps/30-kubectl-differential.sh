#!/usr/bin/env bash
# The kubectl differential module (examples/kubectl): package plan/rollout
# against the real k8s.io/kubectl v0.36.3 rollout helpers, on the recorded
# views of the 200 public conformance states, on the 200 recorded
# StatefulSet states (as recorded and after their sync), and on 5000
# generated states per function. Fails on any difference, on any skipped
# test, and when a differential test checked fewer states than required.
set -euo pipefail
cd "$(dirname "$0")/../.."
. .ci/lib/gotest.sh

out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
(cd examples/kubectl && go test -count=1 -timeout 20m -v ./...) > "$out" 2>&1 || status=$?

grep -E '^\s+\S+_test\.go:[0-9]+: ([0-9]+ (states|recorded views)|\[rapid\] OK)' "$out" | sed 's/^ *//' || true
summarize "kubectl differential" "$out" "$status"
