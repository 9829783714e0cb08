#!/usr/bin/env bash
# side-by-side.sh runs the same rollouts (the nginx 3-replica update, a
# 100-replica rollout at 25 %/25 %, 100 Deployments updated at once) with
# kube-controller-manager v1.36.3's Deployment and ReplicaSet controllers and
# with rolloutplan-controller, each on a fresh local cluster, and prints the
# table of API writes, 409 conflicts, time to complete and controller CPU
# (medians of the runs) and whether the ReplicaSet sizes went through the
# same sequence (cmd/side-by-side; its -h has the flags). It first builds,
# once, the binaries the cluster needs from the module proxy
# (hack/build-apiserver.sh: etcd, kube-apiserver, kube-controller-manager,
# cached under $(go env GOPATH)/bin) and rolloutplan-controller.
#
# Usage: examples/controller/hack/side-by-side.sh [side-by-side flags]
#   e.g. --scenarios nginx --runs 1   (what CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."

assets=$(hack/build-apiserver.sh etcd kube-apiserver kube-controller-manager | tail -n 1)
export ROLLOUTPLAN_E2E_ASSETS="$assets"
bin=$(mktemp -d -t rolloutplan-side-by-side.XXXXXX)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/rolloutplan-controller" ./cmd/rolloutplan-controller
go build -o "$bin/side-by-side" ./cmd/side-by-side
"$bin/side-by-side" --controller-binary "$bin/rolloutplan-controller" "$@"
