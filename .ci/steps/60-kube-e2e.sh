#!/usr/bin/env bash
# Kubernetes' own conformance specs for Deployments, ReplicaSets,
# StatefulSets and DaemonSets (k8s.io/kubernetes v1.36.3 e2e.test) against a
# local cluster whose controllers for those kinds are rolloutplan's: every
# spec must pass (about 5 minutes). The binaries are built once from the
# module proxy and cached under $(go env GOPATH)/bin (e2e.test takes
# several minutes the first time).
# The comparison with kube-controller-manager's own controllers and the
# other specs run with examples/controller/hack/kube-e2e.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."

start=$SECONDS
examples/controller/hack/kube-e2e.sh --controllers rolloutplan --conformance \
  --kinds Deployment,ReplicaSet,StatefulSet,DaemonSet
echo "== kube-e2e: $((SECONDS - start)) s"
