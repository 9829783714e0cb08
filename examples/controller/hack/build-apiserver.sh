#!/usr/bin/env bash
# build-apiserver.sh builds the etcd and kube-apiserver binaries that the
# controller's end-to-end tests start, from the module proxy only, and installs
# them into $(go env GOPATH)/bin as etcd-v3.6.16 and kube-apiserver-v1.36.3
# (plus the names etcd and kube-apiserver inside an assets directory, the
# layout envtest's KUBEBUILDER_ASSETS expects). A binary already built for the
# pinned version is kept: a second run costs nothing.
#
# Usage: examples/controller/hack/build-apiserver.sh
# Prints the assets directory on its last line.
set -euo pipefail
cd "$(dirname "$0")"

ETCD_VERSION=v3.6.16
KUBE_VERSION=v1.36.3
bin="$(go env GOPATH)/bin"
assets="$bin/rolloutplan-e2e-assets"
mkdir -p "$bin" "$assets"

build() { # name version module-dir package
  local name=$1 version=$2 dir=$3 pkg=$4
  local out="$bin/$name-$version"
  if [ -x "$out" ] && [ "$(cat "$out.version" 2>/dev/null)" = "$version" ]; then
    echo "== $name $version: cached at $out" >&2
  else
    echo "== building $name $version (first build takes minutes)" >&2
    local start=$SECONDS
    (cd "$dir" && GOWORK=off CGO_ENABLED=0 go build -o "$out.tmp" "$pkg")
    mv "$out.tmp" "$out"
    echo "$version" > "$out.version"
    echo "== $name built in $((SECONDS - start)) s" >&2
  fi
  ln -sf "$out" "$assets/$name"
}

build etcd "$ETCD_VERSION" etcd go.etcd.io/etcd/server/v3
build kube-apiserver "$KUBE_VERSION" kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver
echo "$assets"
