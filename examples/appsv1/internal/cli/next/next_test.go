package next

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

const seedFile = "../../../testdata/conformance/public-seed1.jsonl"

type seedLine struct {
	Line   []byte
	Case   map[string]any
	Expect map[string]any
}

// seeds returns the public Deployment cases by id.
func seeds(t *testing.T) map[string]seedLine { return readSeeds(t, seedFile) }

// The cases the command is checked on: a first sync (create), a ReplicaSet
// update with a requeue, an adoption patch, a cleanup delete and a rollback
// (full Deployment update).
var commandCases = []string{"s1-0000", "s1-0161", "s1-0016", "s1-0034", "s1-0010"}

// runCmd runs next on the snapshot on standard input, or on the -f in
// args.
func runCmd(t *testing.T, stdin []byte, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if !slices.Contains(args, "-f") {
		args = append([]string{"-f", "-"}, args...)
	}
	return clitest.Exec(t, NewCommand, clitest.Options{}, string(stdin), args...)
}

// expected drops the writes the API server rejected (none in these cases)
// and makes an absent requeue an empty one.
func expected(m map[string]any) map[string]any {
	out := map[string]any{"actions": m["actions"], "error": m["error"], "events": m["events"], "requeue": m["requeue"]}
	if out["requeue"] == nil {
		out["requeue"] = []any{}
	}
	return out
}

func decodeOutput(t *testing.T, stdout string) map[string]any {
	t.Helper()
	var got map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if got["requeue"] == nil {
		got["requeue"] = []any{}
	}
	return got
}

func TestCaseInput(t *testing.T) {
	all := seeds(t)
	for _, id := range commandCases {
		l := all[id]
		bare, err := json.Marshal(l.Case)
		if err != nil {
			t.Fatal(err)
		}
		for form, in := range map[string][]byte{"seed line": l.Line, "bare case": bare} {
			t.Run(id+"/"+form, func(t *testing.T) {
				code, stdout, stderr := runCmd(t, in)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if diff := cmp.Diff(expected(l.Expect), decodeOutput(t, stdout)); diff != "" {
					t.Errorf("output (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// toList turns a case into what `kubectl get deployment,replicasets,pods -o
// json` prints: a v1 List whose items carry kind and apiVersion, plus a
// Deployment of another namespace and an unrelated object.
func toList(c map[string]any) []byte {
	var items []any
	with := func(o any, kind, apiVersion string) any {
		m := o.(map[string]any)
		m["kind"], m["apiVersion"] = kind, apiVersion
		return m
	}
	items = append(items, with(c["deployment"], "Deployment", "apps/v1"))
	for _, rs := range c["replicaSets"].([]any) {
		items = append(items, with(rs, "ReplicaSet", "apps/v1"))
	}
	for _, p := range c["pods"].([]any) {
		items = append(items, with(p, "Pod", "v1"))
	}
	items = append(items,
		map[string]any{"kind": "Deployment", "apiVersion": "apps/v1", "metadata": map[string]any{"name": "other", "namespace": "elsewhere"}},
		map[string]any{"kind": "ConfigMap", "apiVersion": "v1", "metadata": map[string]any{"name": "cm"}})
	b, _ := json.Marshal(map[string]any{"kind": "List", "apiVersion": "v1", "items": items, "metadata": map[string]any{"resourceVersion": ""}})
	return b
}

func TestListInput(t *testing.T) {
	all := seeds(t)
	for _, id := range commandCases {
		t.Run(id, func(t *testing.T) {
			l := all[id]
			name := l.Case["deployment"].(map[string]any)["metadata"].(map[string]any)["name"].(string)
			code, stdout, stderr := runCmd(t, toList(l.Case), name, "--now", l.Case["now"].(string), "--explain")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := decodeOutput(t, stdout)
			// Updated ReplicaSets are the objects read, so from a List they
			// keep the kind and apiVersion kubectl printed.
			for _, a := range got["actions"].([]any) {
				a := a.(map[string]any)
				if a["verb"] == "update" && a["resource"] == "replicasets" {
					obj := a["object"].(map[string]any)
					if obj["kind"] != "ReplicaSet" {
						t.Errorf("updated ReplicaSet %v lost its kind", a["name"])
					}
					delete(obj, "kind")
					delete(obj, "apiVersion")
				}
			}
			if diff := cmp.Diff(expected(l.Expect), got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			// -explain: one line per write, then the notes.
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			writes := 0
			for _, ln := range lines {
				if strings.HasPrefix(ln, "write ") {
					writes++
				}
			}
			if n := len(got["actions"].([]any)); writes != n {
				t.Errorf("-explain printed %d write lines for %d writes:\n%s", writes, n, stderr)
			}
			if n := len(got["actions"].([]any)); n == 0 && !strings.Contains(stderr, "note: ") {
				t.Errorf("-explain printed no note for an empty plan:\n%s", stderr)
			}
		})
	}
}

func TestExplainNamesReasons(t *testing.T) {
	l := seeds(t)["s1-0000"]
	code, _, stderr := runCmd(t, l.Line, "--explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"write 1: create replicasets default/api-7ccd5976bd: ",
		"write 2: update deployments/status default/api: ",
		"write 3: update deployments/status default/api [a real API server rejects this write: conflict]: ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-explain output lacks %q:\n%s", want, stderr)
		}
	}
}

func TestBadInput(t *testing.T) {
	l := seeds(t)["s1-0000"]
	list := toList(l.Case)
	tests := []struct {
		name  string
		stdin []byte
		args  []string
		code  int
		want  string
	}{
		{"empty stdin", nil, nil, 1, "empty input"},
		{"truncated JSON", []byte(`{"deployment": `), nil, 1, "JSON syntax error at byte 15 (line 1, column 16): unexpected end of input"},
		// Two JSON objects are a stream, as kubectl -f reads one; each is
		// checked.
		{"two documents", []byte(`{} {}`), nil, 1, `document 1 (line 1): the document is neither a List (no "items") nor an object (no "kind")`},
		{"data after the JSON document", []byte(`{} x`), nil, 1, "JSON syntax error at byte 3 (line 1, column 4): data after the JSON document"},
		{"a JSON array", []byte(`[1]`), nil, 1, "the input is not a JSON object"},
		{"neither form", []byte(`{"foo": 1}`), nil, 1, `not a Kubernetes object or List: it has no "kind"`},
		{"a single object", []byte(`{"kind": "Deployment", "metadata": {}}`), nil, 1, `a Deployment of apiVersion ""; only apps/v1 is read`},
		{"bad --now", list, []string{"--now", "yesterday"}, 2, "not an RFC 3339 time"},
		{"unknown flag", list, []string{"--frobnicate"}, 2, "error: unknown flag: --frobnicate. See 'kubectl rolloutplan next --help'."},
		{"too many arguments", list, []string{"a", "b", "c"}, 2, "too many arguments"},
		{"flag and argument disagree", list, []string{"deployment/web", "--deployment", "api"}, 2, `--deployment "api" and argument "web" name different Deployments`},
		{"single-dash long flag", list, []string{"-deployment", "api"}, 2, "flag -deployment: a long flag takes two dashes, --deployment"},
		{"positional name", list, []string{"deployment/nope", "--now", "2025-01-01T00:00:00Z"}, 1, `no such deployment: "nope"`},
		{"no such deployment in a list", list, []string{"--deployment", "nope", "--now", "2025-01-01T00:00:00Z"}, 1, `no such deployment: "nope"`},
		{"no such deployment in a case", l.Line, []string{"--deployment", "nope"}, 1, "no such deployment"},
		{"a case without a deployment", []byte(`{"now": "2025-01-01T00:00:00Z", "deployment": null}`), nil, 1, "deployment is null"},
		// A case without its time, and no timestamp in it: the wall clock,
		// said so; the Deployment is invalid.
		{"a case without now", []byte(`{"deployment": {"metadata": {"name": "x"}}}`), nil, 1, "(now: the snapshot holds no timestamp; --now sets another)\nerror: planning: "},
		{"a malformed case", []byte(`{"now": "soon", "deployment": {}}`), nil, 1, "case:"},
		{"an invalid Deployment", []byte(`{"now": "2025-01-01T00:00:00Z", "deployment": {"metadata": {"name": "x"}}}`), nil, 1, "planning:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q lacks %q", stderr, tt.want)
			}
			if stdout != "" {
				t.Errorf("stdout not empty on error: %q", stdout)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	code, stdout, _ := runCmd(t, nil, "-h")
	if code != 0 || !strings.Contains(stdout, "kubectl rolloutplan next (NAME | KIND/NAME) [flags]") || !strings.Contains(stdout, "Exit codes") {
		t.Errorf("-h: exit %d, stdout %q", code, stdout)
	}
}

// Before, objects of other namespaces and kinds were dropped silently, YAML
// was refused ("invalid character 'a'"), and -explain said a status write
// happens but not what it changes.
func TestYAMLIgnoredAndStatusFields(t *testing.T) {
	l := seeds(t)["s1-0000"]
	list := toList(l.Case)
	y, err := yaml.JSONToYAML(list)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "state.yaml")
	if err := os.WriteFile(file, y, 0o600); err != nil {
		t.Fatal(err)
	}
	now := l.Case["now"].(string)
	code, stdout, stderr := runCmd(t, nil, "-f", file, "--now", now, "api", "--explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if diff := cmp.Diff(expected(l.Expect), decodeOutput(t, stdout)); diff != "" {
		t.Errorf("YAML output (-want +got):\n%s", diff)
	}
	for _, want := range []string{
		"next: ignored 2 input objects: 1 Deployment in namespace elsewhere (another Deployment), 1 ConfigMap (v1) (not a kind rolloutplan reads)",
		"write 2: update deployments/status default/api: ",
		"  status.observedGeneration: 0 → 1\n  status.unavailableReplicas: 0 → 14",
		`  metadata.annotations[deployment.kubernetes.io/revision]: (none) → "1"`,
		"  status.conditions[Progressing]: (none) → True/NewReplicaSetCreated",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

func TestInputCap(t *testing.T) {
	l := seeds(t)["s1-0000"]
	code, _, stderr := runCmd(t, l.Line, "--max-input", "100")
	if code != 1 || !strings.Contains(stderr, "input too large: more than 100 bytes") || !strings.Contains(stderr, "raise --max-input") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCmd(t, l.Line, "--max-input", "0")
	if code != 2 || !strings.Contains(stderr, "--max-input 0: out of range 1 to") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// A manifest's pod template is defaulted as the API server defaults it
// before it is hashed, so the ReplicaSet `next` creates for the Kubernetes
// documentation's nginx-deployment.yaml has the name the cluster gives it:
// the end-to-end test TestManifestDefaultsMatchServer checks that
// kube-apiserver v1.36.3 stores this template with hash 6c5f67b5f7.
func TestManifestTemplateDefaulted(t *testing.T) {
	code, stdout, stderr := clitest.Exec(t, NewCommand, clitest.Options{}, "", "-f", clitest.Data+"nginx-deployment.yaml", "--now", "2026-01-01T00:00:00Z")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := decodeOutput(t, stdout)
	create := got["actions"].([]any)[0].(map[string]any)
	if create["verb"] != "create" || create["name"] != "nginx-deployment-6c5f67b5f7" {
		t.Errorf("first write %v %v, want create nginx-deployment-6c5f67b5f7", create["verb"], create["name"])
	}
	spec := create["object"].(map[string]any)["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
	if spec["dnsPolicy"] != "ClusterFirst" || spec["schedulerName"] != "default-scheduler" {
		t.Errorf("the created ReplicaSet's pod spec is not defaulted: %v", spec)
	}
}
