#!/usr/bin/env bash
# End-to-end suite of examples/controller: builds (once, cached under
# $(go env GOPATH)/bin) etcd and kube-apiserver from the module proxy, then
# runs the controller module's tests, the end-to-end tests against the real
# server included, and the differential test of plan/enqueue against the
# upstream controller (module examples/controller/upstreamdiff). The suite
# fails, never skips, without the binaries.
set -euo pipefail
cd "$(dirname "$0")/../.."
. .ci/lib/gotest.sh

start=$SECONDS
assets=$(examples/controller/hack/build-apiserver.sh | tail -n 1)
echo "== e2e: binaries ready in $((SECONDS - start)) s ($assets)"

cd examples/controller
export ROLLOUTPLAN_E2E_ASSETS="$assets"
out=$(mktemp -t rolloutplan-e2e.XXXXXX)
trap 'rm -f "$out"' EXIT
status=0
go test -count=1 -timeout 20m -v ./... > "$out" 2>&1 || status=$?
# plan/enqueue against the real upstream controller's event handlers.
(cd upstreamdiff && go test -count=1 -v ./...) >> "$out" 2>&1 || status=$?
grep -E '^(=== RUN|--- (PASS|FAIL)|ok|FAIL|panic)|writes checked|invariants checked|events replayed|e2e:' "$out" | grep -v '^=== RUN' || true
summarize "e2e ($((SECONDS - start)) s in all)" "$out" "$status"
