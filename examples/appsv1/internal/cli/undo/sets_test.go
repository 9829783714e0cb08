package undo

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

const (
	statefulSet = clitest.Data + "web-statefulset.yaml"
	daemonSet   = clitest.Data + "cilium-daemonset.yaml"
	// warning is kubectl's for a StatefulSet last changed with kubectl
	// apply (web carries the annotation).
	warning = "Warning: resource statefulsets/web was previously managed with 'kubectl apply'. Rolling back will not update the kubectl.kubernetes.io/last-applied-configuration annotation, which may cause unexpected behavior on future 'kubectl apply' operations. Consider using 'kubectl apply' with your previous configuration file instead.\n"
	// dsPatchTo1 is revision 1's data of cilium, the patch kubectl sends.
	dsPatchTo1 = `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"k8s-app":"cilium"}},"spec":{"containers":[{"image":"registry.example.com/cilium:v1.1.5","imagePullPolicy":"IfNotPresent","name":"cilium","resources":{"requests":{"cpu":"50m","memory":"200Mi"}},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","nodeSelector":{"kubernetes.io/os":"linux"},"restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"serviceAccountName":"cilium","terminationGracePeriodSeconds":30,"tolerations":[{"operator":"Exists"}]}}}}`
	dsRev1     = "Pod Template:\n  Labels:\tk8s-app=cilium\n  Service Account:\tcilium\n  Containers:\n   cilium:\n    Image:\tregistry.example.com/cilium:v1.1.5\n    Port:\t<none>\n    Host Port:\t<none>\n" +
		"    Requests:\n      cpu:\t50m\n      memory:\t200Mi\n    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\tkubernetes.io/os=linux\n  Tolerations:\top=Exists\n"
)

// kubectl rollout undo for StatefulSets and DaemonSets: the patch is the
// target ControllerRevision's data; the current revision is skipped.
func TestUndoSets(t *testing.T) {
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "previous", Args: []string{"sts/web", "-f", statefulSet}, Stdout: "statefulset.apps/web rolled back\n", Stderr: warning},
		{Name: "current", Args: []string{"sts/web", "--to-revision=3", "-f", statefulSet},
			Stdout: "statefulset.apps/web skipped rollback (current template already matches revision 3)\n", Stderr: warning},
		{Name: "server dry run", Args: []string{"statefulset/web", "--to-revision=1", "--dry-run=server", "-f", statefulSet},
			Stdout: "statefulset.apps/web rolled back (server dry run)\n", Stderr: warning},
		{Name: "missing", Args: []string{"sts/web", "--to-revision=9", "-f", statefulSet}, Code: 1,
			Stderr: warning + "error: unable to find specified revision 9 in history\n"},
		{Name: "daemonset", Args: []string{"ds/cilium", "--to-revision=1", "--show-patch", "-f", daemonSet},
			Stdout: "daemonset.apps/cilium rolled back\n" + dsPatchTo1 + "\n"},
		{Name: "daemonset current", Args: []string{"ds/cilium", "--to-revision=2", "-f", daemonSet},
			Stdout: "daemonset.apps/cilium skipped rollback (current template already matches revision 2)\n"},
		{Name: "daemonset client dry run", Args: []string{"ds/cilium", "--dry-run=client", "-f", daemonSet},
			Stdout: "daemonset.apps/cilium will roll back to " + dsRev1 + " (dry run)\n"},
		{Name: "one revision", Args: []string{"-f", "-"}, Code: 1,
			Stdin:  "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: fluentd}\nspec:\n  selector: {matchLabels: {app: fluentd}}\n  template: {metadata: {labels: {app: fluentd}}}\n",
			Stderr: "error: no last revision to roll back to\n"},
	})
}
