// Package kubecontrollermanager only anchors the module that pins the
// kube-controller-manager the Kubernetes e2e runs and the side-by-side
// comparisons start; hack/build-apiserver.sh builds the tool
// k8s.io/kubernetes/cmd/kube-controller-manager that its go.mod declares.
package kubecontrollermanager
