#!/usr/bin/env bash
# tidy.sh runs `go mod tidy` in every nested module under examples/.
#
# go mod tidy ignores go.work, and the nested modules require the core (and
# the adapter) at the version they will be released with, which the module
# proxy does not hold yet. So this script gives each module, for the length
# of one tidy, the replace lines of the workspace it belongs to (the go.work
# found from its directory), and takes them out again: the go.mod files keep
# no replace lines, and an adapter user's `go get` reads them as they are.
#
# Usage: examples/tidy.sh
set -euo pipefail
cd "$(dirname "$0")"

# The nested modules, without the wrapper modules under hack/ (they build
# upstream's binaries with GOWORK=off and keep their own replace lines).
mapfile -t modules < <(find . -name go.mod -not -path '*/hack/*' -exec dirname {} \; | sort)

for m in "${modules[@]}"; do
  (
    cd "$m"
    work=$(go env GOWORK)
    [ -n "$work" ] || { echo "$m: no go.work above this module" >&2; exit 1; }
    workdir=$(dirname "$work")
    # Each replace of the workspace as OLD=NEW for go mod edit; a local
    # directory, relative to the go.work file, is marked with a trailing
    # slash and made absolute below.
    mapfile -t reps < <(go work edit -print | awk -v wd="$workdir" '
      /^replace \(/ { inblock = 1; next }
      inblock && /^\)/ { inblock = 0; next }
      inblock || /^replace / {
        sub(/^replace /, ""); sub(/^[ \t]+/, "")
        split($0, side, " => "); n = split(side[1], l, " "); m = split(side[2], r, " ")
        old = (n == 2) ? l[1] "@" l[2] : l[1]
        if (m == 2) print old "=" r[1] "@" r[2]
        else print old "=" ((r[1] ~ /^\//) ? r[1] : wd "/" r[1]) "/"
      }')
    # A directory must be clean: the go command tells a nested module's
    # packages from the parent's by walking up the directory names.
    for i in "${!reps[@]}"; do
      case ${reps[$i]} in
        *=/*/) dir=${reps[$i]#*=}; reps[$i]="${reps[$i]%%=*}=$(cd "$dir" && pwd)" ;;
      esac
    done
    cp go.mod go.mod.tidy-backup
    trap 'mv go.mod.tidy-backup go.mod' ERR
    for r in "${reps[@]}"; do go mod edit -replace="$r"; done
    GOWORK=off go mod tidy
    for r in "${reps[@]}"; do go mod edit -dropreplace="${r%%=*}"; done
    rm go.mod.tidy-backup
    echo "== $m: tidy"
  )
done
