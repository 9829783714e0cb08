#!/usr/bin/env bash
# Side-by-side benchmarks of rolloutplan against the real upstream code
# (k8s.io/kubernetes v1.36.3) on the same inputs. Checks first that both
# give the same answers, then runs every benchmark COUNT times (default 5)
# and prints the table: medians, spread, ratios and targets.
# Exit status: 0 when every row meets its target, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")"
count=${COUNT:-5}
benchtime=${BENCHTIME:-1s}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

echo "== sanity: upstream and rolloutplan agree"
go test -count=1 -run '^TestSanity' .

echo "== benchmarks (-count $count -benchtime $benchtime, GOMAXPROCS $(nproc))"
go test -run '^$' -bench "${BENCH:-.}" -count "$count" -benchtime "$benchtime" . | tee "$out"

echo
go run ./cmd/benchtable < "$out"
