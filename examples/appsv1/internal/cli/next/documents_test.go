package next

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// The state of seed s1-0000 as a YAML stream, one document per object (as
// a manifest directory concatenated with "---"), plans the seed's expected
// output as the List does; before, only the first document was read.
func TestDocuments(t *testing.T) {
	l := seeds(t)["s1-0000"]
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(toList(l.Case), &list); err != nil {
		t.Fatal(err)
	}
	var stream []byte
	for _, item := range list.Items {
		y, err := yaml.JSONToYAML(item)
		if err != nil {
			t.Fatal(err)
		}
		stream = append(append(stream, "---\n"...), y...)
	}
	code, stdout, stderr := runCmd(t, stream, "--now", l.Case["now"].(string), "api")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if diff := cmp.Diff(expected(l.Expect), decodeOutput(t, stdout)); diff != "" {
		t.Errorf("output of the stream (-want +got):\n%s", diff)
	}
	if want := "next: ignored 2 input objects: 1 Deployment in namespace elsewhere (another Deployment), 1 ConfigMap (v1) (not a kind rolloutplan reads)\n" +
		"Time: " + l.Case["now"].(string) + " (--now)\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}
