#!/usr/bin/env bash
# kube-e2e.sh runs Kubernetes' own e2e specs for Deployments, ReplicaSets,
# StatefulSets and DaemonSets (k8s.io/kubernetes v1.36.3, test/e2e/apps)
# against a local cluster with rolloutplan's controllers, then with
# kube-controller-manager's, and prints
# both result lists and their difference (cmd/kube-e2e; its -h has the
# flags). It first builds, once, every binary the cluster needs from the
# module proxy (hack/build-apiserver.sh all: etcd, kube-apiserver,
# kube-controller-manager, kube-scheduler, e2e.test, cached under
# $(go env GOPATH)/bin) and rolloutplan-controller.
#
# Usage: examples/controller/hack/kube-e2e.sh [kube-e2e flags]
#   e.g. --controllers rolloutplan --conformance   (what CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."

assets=$(hack/build-apiserver.sh all | tail -n 1)
export ROLLOUTPLAN_E2E_ASSETS="$assets"
bin=$(mktemp -d -t rolloutplan-kube-e2e.XXXXXX)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/rolloutplan-controller" ./cmd/rolloutplan-controller
go build -o "$bin/kube-e2e" ./cmd/kube-e2e
"$bin/kube-e2e" --controller-binary "$bin/rolloutplan-controller" "$@"
