#!/usr/bin/env bash
# The simulator's chart and scale, end to end: render the chart of the
# README's main command (go run ./examples/simulate) and of a stalled
# rollout to PNG with rsvg-convert (Debian's librsvg2-bin) and check each is
# a valid, non-empty PNG of the chart's size; check the Recreate story peaks
# at 3 pods; run the 100 000-replica rollout at pod fidelity to completion.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v rsvg-convert >/dev/null; then
  echo "== installing librsvg2-bin (rsvg-convert)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq librsvg2-bin >/dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/simulate" ./examples/simulate
passed=0 failed=0
pass() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

# check_png FILE: the PNG signature, an IHDR chunk, and the SVG's 1000×460.
check_png() {
  local f=$1
  [ -s "$f" ] || return 1
  [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || return 1
  [ "$(head -c 16 "$f" | tail -c 4)" = "IHDR" ] || return 1
  local w h
  w=$((16#$(head -c 20 "$f" | tail -c 4 | od -An -tx1 | tr -d ' \n')))
  h=$((16#$(head -c 24 "$f" | tail -c 4 | od -An -tx1 | tr -d ' \n')))
  [ "$w" -eq 1000 ] && [ "$h" -eq 460 ]
}

"$tmp/simulate" -svg "$tmp/main.svg" > "$tmp/main.out"
if rsvg-convert -o "$tmp/main.png" "$tmp/main.svg" && check_png "$tmp/main.png"; then
  pass "chart of the main command renders to a 1000×460 PNG ($(wc -c < "$tmp/main.png") bytes)"
else
  fail "chart of the main command does not render to a valid PNG"
fi

code=0
"$tmp/simulate" -replicas 10 -max-surge 3 -max-unavailable 2 -never-ready -svg "$tmp/stall.svg" > "$tmp/stall.out" || code=$?
if [ "$code" -eq 1 ] && grep -q "STALLED: no change since" "$tmp/stall.svg" &&
   rsvg-convert -o "$tmp/stall.png" "$tmp/stall.svg" && check_png "$tmp/stall.png"; then
  pass "stalled rollout exits 1 and its chart renders with the stall marked"
else
  fail "stalled rollout: exit $code or its chart does not render"
fi

if "$tmp/simulate" -strategy Recreate | grep -q "peak pods 3 (3 active)"; then
  pass "Recreate of 3 replicas peaks at 3 pods"
else
  fail "Recreate of 3 replicas does not report a peak of 3 pods"
fi

start=$(date +%s)
if "$tmp/simulate" -replicas 100000 -max-work 50000000 > "$tmp/100k.out" && grep -q "completed after" "$tmp/100k.out"; then
  pass "100 000 replicas at pod fidelity complete ($(( $(date +%s) - start ))s: $(grep 'completed after' "$tmp/100k.out" | sed 's/^summary: //'))"
else
  fail "100 000 replicas at pod fidelity do not complete"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
