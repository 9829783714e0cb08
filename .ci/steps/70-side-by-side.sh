#!/usr/bin/env bash
# kube-controller-manager v1.36.3's Deployment and ReplicaSet controllers
# and rolloutplan-controller side by side on the nginx 3-replica update, one
# run each: a check that the table (writes, 409s, time, CPU, ReplicaSet
# sizes) can be made, not a measurement (the full table, medians of three
# runs of every scenario, is examples/controller/hack/side-by-side.sh
# without flags). The binaries are cached under $(go env GOPATH)/bin.
set -euo pipefail
cd "$(dirname "$0")/../.."

start=$SECONDS
examples/controller/hack/side-by-side.sh --scenarios nginx --runs 1
echo "== side-by-side: $((SECONDS - start)) s"
