// Package kubescheduler only anchors the module that pins the kube-scheduler
// the Kubernetes e2e runs start; hack/build-apiserver.sh builds the tool
// k8s.io/kubernetes/cmd/kube-scheduler that its go.mod declares.
package kubescheduler
