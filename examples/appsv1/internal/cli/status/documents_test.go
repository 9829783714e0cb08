package status

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// A state kept as a YAML stream (a Service, then one document per object of
// rollout.json, as `kubectl get … -o yaml` prints each) reads as the List:
// status prints what it prints for rollout.json and reports the Service.
// Before, only the first document was read ("no such deployment").
func TestStatusDocuments(t *testing.T) {
	raw, err := os.ReadFile(clitest.Data + "rollout.json")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	stream := "# the state of default\napiVersion: v1\nkind: Service\nmetadata: {name: api, namespace: default}\n"
	for _, item := range list.Items {
		y, err := yaml.JSONToYAML(item)
		if err != nil {
			t.Fatal(err)
		}
		stream += "---\n" + string(y)
	}
	const pending = "Waiting for deployment \"api\" rollout to finish: 1 old replicas are pending termination...\n"
	// Lines 1-4: the comment and the Service; 5: ---; 6: the Deployment.
	broken := strings.Replace(stream, "\nspec:\n", "\nspec:\n  replica: 1\n", 1)
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "stream", Args: []string{"api", "-f", "-"}, Stdin: stream, Stdout: pending,
			Stderr: "status: ignored 1 input objects: 1 Service (v1) (not a kind rolloutplan reads)\n"},
		{Name: "JSON stream", Args: []string{"api", "-f", "-"}, Stdin: string(raw) + "\n" + `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`, Stdout: pending,
			StderrContains: "ignored 1 input objects: 1 ConfigMap (v1)"},
		{Name: "unknown field in the second document", Args: []string{"api", "-f", "-"}, Stdin: broken, Code: 1,
			Stderr: "error: document 2 (line 6): Deployment default/api: unknown field \"spec.replica\"\n"},
	})
}
