// Package kubeapiserver only anchors the module that pins the
// kube-apiserver the controller's end-to-end tests run against;
// hack/build-apiserver.sh builds the tool k8s.io/kubernetes/cmd/kube-apiserver
// that its go.mod declares.
package kubeapiserver
