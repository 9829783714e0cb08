package history

import (
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

const (
	statefulSet = clitest.Data + "web-statefulset.yaml"
	daemonSet   = clitest.Data + "cilium-daemonset.yaml"
	// webRev1 is revision 1 of web (sts-s1-0166) in kubectl's describe
	// layout, as kubectl rollout history --revision=1 prints it.
	webRev1 = "Pod Template:\n  Labels:\tapp=web\n\tapp.kubernetes.io/component=database\n  Containers:\n   web:\n    Image:\tregistry.example.com/web:1.1.1\n" +
		"    Port:\t8080/TCP (tcp)\n    Host Port:\t0/TCP (tcp)\n    Requests:\n      cpu:\t1\n      memory:\t128Mi\n    Environment:\t<none>\n" +
		"    Mounts:\n      /var/lib/data from data (rw)\n      /var/lib/logs from logs (rw)\n  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n"
)

// kubectl rollout history for StatefulSets and DaemonSets: the
// ControllerRevisions the workload controls.
func TestHistorySets(t *testing.T) {
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "statefulset", Args: []string{"sts/web", "-f", statefulSet},
			Stdout: "statefulset.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n3         <none>\n\n"},
		{Name: "revision", Args: []string{"statefulset", "web", "--revision=1", "-f", statefulSet},
			Stdout: "statefulset.apps/web with revision #1\n" + webRev1 + "\n"},
		{Name: "missing revision", Args: []string{"sts/web", "--revision=4", "-f", statefulSet}, Code: 1,
			Stderr: "error: unable to find the specified revision\n"},
		{Name: "daemonset", Args: []string{"ds/cilium", "-f", daemonSet},
			Stdout: "daemonset.apps/cilium \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n"},
		{Name: "daemonset revision", Args: []string{"daemonsets.apps/cilium", "--revision=2", "-f", daemonSet},
			StdoutContains: "daemonset.apps/cilium with revision #2\nPod Template:\n  Labels:\tk8s-app=cilium\n  Service Account:\tcilium\n  Containers:\n   cilium:\n    Image:\tregistry.example.com/cilium:v1.2.0\n"},
		// Only the ControllerRevisions: a StatefulSet alone says so.
		{Name: "no revisions", Args: []string{"-f", "-"}, Code: 1,
			Stdin:  `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db","namespace":"default","uid":"u1"},"spec":{},"status":{"observedGeneration":1}}`,
			Stderr: "error: the snapshot has statefulset \"db\" as the cluster returned it but none of its ControllerRevisions; history needs them: give 'kubectl get statefulset,controllerrevisions,pods,persistentvolumeclaims -n default -o yaml'\n"},
		{Name: "a manifest has none", Args: []string{"-f", "-"},
			Stdin:  "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: fluentd}\nspec:\n  selector: {matchLabels: {app: fluentd}}\n  template: {metadata: {labels: {app: fluentd}}}\n",
			Stdout: "daemonset.apps/fluentd \nNo rollout history found.\n"},
	})
}

// With -o, kubectl prints the workload as each revision restores it, in
// revision order, without managed fields.
func TestHistorySetsOutput(t *testing.T) {
	code, out, errOut := clitest.Exec(t, NewCommand, clitest.Options{}, "", "sts/web", "-o", "yaml", "-f", statefulSet)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	docs := strings.Split(out, "\n---\n")
	if len(docs) != 3 {
		t.Fatalf("%d documents, want 3:\n%s", len(docs), out)
	}
	for i, want := range []string{"registry.example.com/web:1.1.1", "registry.example.com/web:1.1.1", "registry.example.com/web:1.2.5"} {
		var s struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name          string `json:"name"`
				ManagedFields []any  `json:"managedFields"`
			} `json:"metadata"`
			Spec struct {
				Template struct {
					Spec struct {
						Containers []struct {
							Image string `json:"image"`
							Env   []any  `json:"env"`
						} `json:"containers"`
					} `json:"spec"`
				} `json:"template"`
			} `json:"spec"`
		}
		if err := yaml.Unmarshal([]byte(docs[i]), &s); err != nil {
			t.Fatal(err)
		}
		if s.APIVersion != "apps/v1" || s.Kind != "StatefulSet" || s.Metadata.Name != "web" || s.Metadata.ManagedFields != nil {
			t.Errorf("document %d: %+v", i, s)
		}
		if got := s.Spec.Template.Spec.Containers[0].Image; got != want {
			t.Errorf("document %d: image %s, want %s", i, got, want)
		}
	}
	code, out, _ = clitest.Exec(t, NewCommand, clitest.Options{}, "", "ds/cilium", "--revision=1", "-o", "json", "-f", daemonSet)
	if code != 0 || !strings.Contains(out, `"image": "registry.example.com/cilium:v1.1.5"`) || !strings.HasPrefix(out, "{\n    \"kind\": \"DaemonSet\",\n    \"apiVersion\": \"apps/v1\",") {
		t.Errorf("daemonset revision 1: exit %d:\n%s", code, out)
	}
	code, _, errOut = clitest.Exec(t, NewCommand, clitest.Options{}, "", "ds/cilium", "--revision=7", "-o", "json", "-f", daemonSet)
	if code != 1 || errOut != "error: unable to find the specified revision\n" {
		t.Errorf("missing revision: exit %d, %q", code, errOut)
	}
}
