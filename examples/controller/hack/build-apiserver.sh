#!/usr/bin/env bash
# build-apiserver.sh builds, from the module proxy only, the Kubernetes and
# etcd binaries that the end-to-end tests and the Kubernetes e2e runs start,
# and installs them into $(go env GOPATH)/bin under versioned names:
#
#   etcd                      etcd-v3.6.16
#   kube-apiserver            kube-apiserver-v1.36.3
#   kube-controller-manager   kube-controller-manager-v1.36.3
#   kube-scheduler            kube-scheduler-v1.36.3
#   e2e.test                  e2e.test-v1.36.3 (Kubernetes' own e2e suite,
#                             k8s.io/kubernetes/test/e2e built with go test -c)
#
# plus their plain names inside an assets directory (the layout envtest's
# KUBEBUILDER_ASSETS expects). A binary already built for the pinned version
# is kept: a second run costs nothing. Each is built in its own module under
# hack/, whose go.mod pins k8s.io/kubernetes and the staging modules.
#
# Usage: examples/controller/hack/build-apiserver.sh [name...]
# Without names it builds etcd and kube-apiserver (what the end-to-end
# tests need); "all" builds the five. Prints the assets directory on its
# last line.
set -euo pipefail
cd "$(dirname "$0")"

ETCD_VERSION=v3.6.16
KUBE_VERSION=v1.36.3
bin="$(go env GOPATH)/bin"
assets="$bin/rolloutplan-e2e-assets"
mkdir -p "$bin" "$assets"

build() { # name version module-dir package [test]
  local name=$1 version=$2 dir=$3 pkg=$4 kind=${5:-}
  local out="$bin/$name-$version"
  if [ -x "$out" ] && [ "$(cat "$out.version" 2>/dev/null)" = "$version" ]; then
    echo "== $name $version: cached at $out" >&2
  else
    echo "== building $name $version (first build takes minutes)" >&2
    local start=$SECONDS
    if [ "$kind" = test ]; then
      (cd "$dir" && GOWORK=off CGO_ENABLED=0 go test -c -o "$out.tmp" "$pkg")
    else
      (cd "$dir" && GOWORK=off CGO_ENABLED=0 go build -o "$out.tmp" "$pkg")
    fi
    mv "$out.tmp" "$out"
    echo "$version" > "$out.version"
    echo "== $name built in $((SECONDS - start)) s" >&2
  fi
  ln -sf "$out" "$assets/$name"
}

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=(etcd kube-apiserver)
elif [ "${names[*]}" = all ]; then
  names=(etcd kube-apiserver kube-controller-manager kube-scheduler e2e.test)
fi
for name in "${names[@]}"; do
  case $name in
  etcd) build etcd "$ETCD_VERSION" etcd go.etcd.io/etcd/server/v3 ;;
  kube-apiserver | kube-controller-manager | kube-scheduler)
    build "$name" "$KUBE_VERSION" "$name" "k8s.io/kubernetes/cmd/$name" ;;
  e2e.test) build e2e.test "$KUBE_VERSION" e2e k8s.io/kubernetes/test/e2e test ;;
  *) echo "build-apiserver.sh: unknown binary $name (want etcd, kube-apiserver, kube-controller-manager, kube-scheduler, e2e.test or all)" >&2; exit 2 ;;
  esac
done
echo "$assets"
