// Package etcd only anchors the module that pins the etcd server the
// controller's end-to-end tests run against; hack/build-apiserver.sh builds
// the tool go.etcd.io/etcd/server/v3 that its go.mod declares.
package etcd
