package history

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// rev1 is kubectl v0.36.3's rendering of revision 1 of public state s1-0006,
// as recorded in the kubectl-views conformance file.
const rev1 = "Pod Template:\n  Labels:\tapp=api\n\tpod-template-hash=bc57d5d4b\n  Containers:\n   api:\n    Image:\tregistry.example.com/api:1.1.1\n    Port:\t8080/TCP (http)\n    Host Port:\t0/TCP (http)\n    Requests:\n      cpu:\t500m\n      memory:\t64Mi\n    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n"

// The table is kubectl's recorded one for s1-0006; the framing line is
// kubectl's name printer with the history as the operation.
func TestHistory(t *testing.T) {
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "table", Args: []string{"api", "-f", clitest.Data + "rollout.json"},
			Stdout: "deployment.apps/api \nREVISION  CHANGE-CAUSE\n1         <none>\n2         kubectl set image registry.example.com/api:1.2.0\n3         kubectl set image registry.example.com/api:1.2.0\n\n"},
		{Name: "table, yaml", Args: []string{"deployment/api", "-f", clitest.Data + "rollout.yaml"},
			Stdout: "deployment.apps/api \nREVISION  CHANGE-CAUSE\n1         <none>\n2         kubectl set image registry.example.com/api:1.2.0\n3         kubectl set image registry.example.com/api:1.2.0\n\n"},
		{Name: "revision, yaml", Args: []string{"--revision=1", "-f", clitest.Data + "rollout.yaml"},
			Stdout: "deployment.apps/api with revision #1\n" + rev1 + "\n"},
		{Name: "yaml with other objects", Args: []string{"web", "-f", "-"},
			Stdin: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n  metadata: {name: web, namespace: default}\n" +
				"- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web, namespace: default}\n  spec:\n    selector: {matchLabels: {app: web}}\n    template: {metadata: {labels: {app: web}}}\n",
			Stdout: "deployment.apps/web \nNo rollout history found.\n",
			Stderr: "history: ignored 1 input objects: 1 Service (v1) (not a kind rolloutplan reads)\n"},
		{Name: "yaml unknown field", Args: []string{"web", "-f", "-"}, Code: 1,
			Stdin:  "apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web, namespace: default}\n  spec: {replica: 2}\n",
			Stderr: "error: items[0] (Deployment default/web): unknown field \"spec.replica\"\n"},
		{Name: "revision", Args: []string{"--revision=1", "-f", clitest.Data + "rollout.json"},
			Stdout: "deployment.apps/api with revision #1\n" + rev1 + "\n"},
		{Name: "unknown revision", Args: []string{"--revision=9", "-f", clitest.Data + "rollout.json"}, Code: 1,
			Stderr: "error: unable to find the specified revision\n"},
		{Name: "no history", Args: []string{"--revision=2", "-f", "-"}, Code: 0,
			Stdin:  `{"kind":"List","items":[{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"default"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}}}}}]}`,
			Stdout: "deployment.apps/web with revision #2\nNo rollout history found.\n"},
		{Name: "warning", Args: []string{"web", "-f", "-"},
			Stdin: `{"kind":"List","items":[{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"default","uid":"u"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}}}}},` +
				`{"kind":"ReplicaSet","apiVersion":"apps/v1","metadata":{"name":"web-1","namespace":"default","labels":{"app":"web"},"annotations":{"deployment.kubernetes.io/revision":"one"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"u","controller":true}]},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}}}}}]}`,
			Stdout: "deployment.apps/web \nNo rollout history found.\n",
			Stderr: "warning: unable to get revision from replicaset web-1 for deployment web in namespace default: strconv.ParseInt: parsing \"one\": invalid syntax\n"},
		{Name: "negative", Args: []string{"--revision=-2"}, Code: 1, Stderr: "error: revision must be a positive integer: -2\n"},
		{Name: "bad arg", Args: []string{"svc/api"}, Code: 2,
			Stderr: "error: argument \"svc/api\": only deployments, statefulsets and daemonsets are supported (KIND/NAME). See 'kubectl rolloutplan history --help'.\n"},
		// What kubectl get deployment NAME -o yaml prints, without the
		// ReplicaSets: "No rollout history found." would be wrong.
		{Name: "deployment without its ReplicaSets", Args: []string{"-f", "-"}, Code: 1,
			Stdin:  `{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"shop","uid":"u","annotations":{"deployment.kubernetes.io/revision":"2"}},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}}}},"status":{"observedGeneration":2}}`,
			Stderr: "error: the snapshot has deployment \"web\" as the cluster returned it but none of its ReplicaSets; history needs them: give 'kubectl get deployment,replicasets,pods -n shop -o yaml'\n"},
		{Name: "name and selector", Args: []string{"web", "-l", "app=web"}, Code: 2, StderrContains: "name cannot be provided when a selector is specified"},
		{Name: "name and -A", Args: []string{"web", "-A"}, Code: 2, StderrContains: "a resource cannot be retrieved by name across all namespaces"},
	})
}
