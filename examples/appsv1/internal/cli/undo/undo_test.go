package undo

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// rev1 is kubectl v0.36.3's dry-run rendering of revision 1 of public state
// s1-0006, as recorded in the kubectl-views conformance file.
const rev1 = "Pod Template:\n  Labels:\tapp=api\n\tpod-template-hash=bc57d5d4b\n  Containers:\n   api:\n    Image:\tregistry.example.com/api:1.1.1\n    Port:\t8080/TCP (http)\n    Host Port:\t0/TCP (http)\n    Requests:\n      cpu:\t500m\n      memory:\t64Mi\n    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n"

// patchTo1 is the patch kubectl v0.36.3 sent for undo --to-revision=1 on
// s1-0006, as recorded.
const patchTo1 = `[{"op":"replace","path":"/spec/template","value":{"metadata":{"labels":{"app":"api"}},"spec":{"containers":[{"name":"api","image":"registry.example.com/api:1.1.1","ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],"resources":{"requests":{"cpu":"500m","memory":"64Mi"}},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}}},{"op":"replace","path":"/metadata/annotations","value":{"deployment.kubernetes.io/revision":"3"}}]`

func TestUndo(t *testing.T) {
	state := clitest.Data + "rollout.json"
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "previous", Args: []string{"-f", state}, Stdout: "deployment.apps/api rolled back\n"},
		{Name: "patch", Args: []string{"-f", state, "--to-revision=1", "--show-patch"},
			Stdout: "deployment.apps/api rolled back\n" + patchTo1 + "\n"},
		{Name: "patch, yaml", Args: []string{"-f", clitest.Data + "rollout.yaml", "deployment/api", "--to-revision=1", "--show-patch"},
			Stdout: "deployment.apps/api rolled back\n" + patchTo1 + "\n"},
		{Name: "client dry run, yaml", Args: []string{"-f", clitest.Data + "rollout.yaml", "--to-revision=1", "--dry-run=client"},
			Stdout: "deployment.apps/api " + rev1 + " (dry run)\n"},
		{Name: "missing, yaml", Args: []string{"-f", clitest.Data + "rollout.yaml", "--to-revision=4"}, Code: 1,
			Stderr: "error: unable to find specified revision 4 in history\n"},
		{Name: "server dry run", Args: []string{"-f", state, "--dry-run=server"}, Stdout: "deployment.apps/api rolled back (server dry run)\n"},
		{Name: "current", Args: []string{"-f", state, "--to-revision=3"},
			Stdout: "deployment.apps/api skipped rollback (current template already matches revision 3)\n"},
		{Name: "client dry run", Args: []string{"-f", state, "--to-revision=1", "--dry-run=client"},
			Stdout: "deployment.apps/api " + rev1 + " (dry run)\n"},
		{Name: "missing", Args: []string{"-f", state, "--to-revision=4"}, Code: 1,
			Stderr: "error: unable to find specified revision 4 in history\n"},
		{Name: "paused", Args: []string{"-f", clitest.Data + "paused.json"}, Code: 1,
			Stderr: "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again\n"},
		{Name: "paused dry run", Args: []string{"-f", clitest.Data + "paused.json", "--dry-run=client", "--to-revision=9"}, Code: 1,
			Stderr: "error: unable to find specified revision 9 in history\n"},
		{Name: "bad dry run", Args: []string{"--dry-run=maybe"}, Code: 1,
			Stderr: "error: Invalid dry-run value (maybe). Must be \"none\", \"server\", or \"client\".\n"},
		{Name: "last applied", Args: []string{"-f", "-"}, Code: 1,
			Stdin: `{"kind":"List","items":[{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"default","annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}"}},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}}}}}]}`,
			Stderr: "Warning: resource deployments/web was previously managed with 'kubectl apply'. Rolling back will not update the kubectl.kubernetes.io/last-applied-configuration annotation, which may cause unexpected behavior on future 'kubectl apply' operations. Consider using 'kubectl apply' with your previous configuration file instead.\n" +
				"error: no rollout history found for deployment \"web\"\n"},
	})
}
