# Sourced by the step scripts: the summary of a verbose `go test` run.
#
# summarize LABEL OUT STATUS prints "LABEL: N passed, N failed", counting the
# top-level tests of the `go test -v` output in file OUT, and returns 1 with
# the tail of OUT when STATUS (go test's exit status) is non-zero, a test
# failed or a test was skipped (a skipped test proves nothing).
summarize() {
  local label=$1 out=$2 status=$3 passed failed
  if grep -q -- '--- SKIP' "$out"; then
    echo "skipped tests:"; grep -- '--- SKIP' "$out"
    status=1
  fi
  passed=$(grep -c -- '^--- PASS' "$out" || true)
  failed=$(grep -c -- '^--- FAIL' "$out" || true)
  echo "$label: $passed passed, $failed failed"
  if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ]; then
    grep -v '^=== RUN' "$out" | tail -n 80
    return 1
  fi
}
