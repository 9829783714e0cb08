package input

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// seedLine returns line n (from 1) of a conformance file of the adapter.
func seedLine(t *testing.T, kind string, n int) []byte {
	t.Helper()
	f, err := os.Open("../../../testdata/conformance/" + kind + "/public-seed1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for i := 1; sc.Scan(); i++ {
		if i == n {
			return append([]byte(nil), sc.Bytes()...)
		}
	}
	t.Fatalf("%s has no line %d", kind, n)
	return nil
}

// A StatefulSet or DaemonSet Case reads as a seed line or bare, and its
// state is selected with its clock.
func TestReadSetCases(t *testing.T) {
	line := seedLine(t, "statefulset", 1)
	var l struct {
		Case json.RawMessage `json:"case"`
	}
	if err := json.Unmarshal(line, &l); err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string][]byte{"line": line, "bare": l.Case} {
		objs, err := ReadObjects(strings.NewReader(string(in)), Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !objs.Case || objs.CaseKind != KindStatefulSet || len(objs.StatefulSets) != 1 || objs.Now.IsZero() {
			t.Errorf("%s: %+v", name, objs)
		}
		s, ignored, err := objs.SelectStatefulSet(Selector{})
		if err != nil || s.StatefulSet == nil || !s.Now.Equal(objs.Now) || len(ignored) != 0 {
			t.Errorf("%s: select: %v, %v, %v", name, s.StatefulSet, ignored, err)
		}
	}
	ds, err := ReadObjects(strings.NewReader(string(seedLine(t, "daemonset", 1))), Options{})
	if err != nil || ds.CaseKind != KindDaemonSet || len(ds.DaemonSets) != 1 || len(ds.Nodes) == 0 {
		t.Fatalf("daemonset case: %v, %+v", err, ds)
	}
	s, _, err := ds.SelectDaemonSet(Selector{})
	if err != nil || len(s.Nodes) != len(ds.Nodes) {
		t.Errorf("daemonset select: %v", err)
	}
	for _, tc := range []struct{ in, want string }{
		{`{"now":"2025-01-01T00:00:00Z","statefulSet":null}`, "the case: statefulSet is null"},
		{`{"now":"2025-01-01T00:00:00Z","daemonSet":{},"nodes":[null]}`, "the case: nodes[0] is null"},
		{`{"now":"2025-01-01T00:00:00Z","statefulSet":{},"replicaSets":[]}`, `unknown field "replicaSets"`},
		{"{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{}}\n{\"statefulSet\":{}}", `a conformance Case (a "statefulSet" key) is only valid as the only document of the input`},
	} {
		if _, err := ReadObjects(strings.NewReader(tc.in), Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.in, err, tc.want)
		}
	}
}

// What `kubectl get statefulset,controllerrevisions,pods,pvc,nodes -o
// yaml` prints reads strictly, each kind into its list; selecting a
// StatefulSet reports what its controller does not read.
func TestReadSetLists(t *testing.T) {
	const list = `apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: web, namespace: prod, creationTimestamp: "2025-01-01T00:00:00Z"}
- apiVersion: apps/v1
  kind: ControllerRevision
  metadata: {name: web-1, namespace: prod, creationTimestamp: "2025-01-01T00:00:01Z"}
  revision: 1
- apiVersion: v1
  kind: PersistentVolumeClaim
  metadata: {name: data-web-0, namespace: prod, creationTimestamp: "2025-01-01T00:00:02Z"}
- apiVersion: v1
  kind: Node
  metadata: {name: n1, creationTimestamp: "2025-01-01T00:00:03Z"}
- apiVersion: apps/v1
  kind: ControllerRevision
  metadata: {name: other-1, namespace: staging}
  revision: 1
`
	objs, err := ReadObjects(strings.NewReader(list), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs.StatefulSets) != 1 || len(objs.ControllerRevisions) != 2 || len(objs.PVCs) != 1 || len(objs.Nodes) != 1 {
		t.Fatalf("%+v", objs)
	}
	s, ignored, err := objs.SelectStatefulSet(Selector{Name: "web", Latest: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2025, 1, 1, 0, 0, 2, 0, time.UTC); !s.Now.Equal(want) || len(s.ControllerRevisions) != 1 || len(s.PVCs) != 1 {
		t.Errorf("state: now %s, %d revisions, %d claims", s.Now, len(s.ControllerRevisions), len(s.PVCs))
	}
	var b strings.Builder
	Report(&b, "next", ignored)
	if want := "next: ignored 2 input objects: 1 Node (not read for a StatefulSet), 1 ControllerRevision in namespace staging (other namespace)\n"; b.String() != want {
		t.Errorf("report %q, want %q", b.String(), want)
	}
	// A Deployment's state does not read them.
	d := "---\n" + `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"api","namespace":"prod"}}` + "\n"
	dobjs, err := ReadObjects(strings.NewReader(list+d), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ignored, err = dobjs.Select(Selector{Latest: true}); err != nil || len(ignored) != 5 || ignored[0].Why != WhyNotForDeployment {
		t.Errorf("deployment: %v, %v", ignored, err)
	}
	// Missing workloads name what the input holds.
	if _, _, err := objs.SelectDaemonSet(Selector{Latest: true}); err == nil || err.Error() != "no such daemonset: the input has no DaemonSet (it holds StatefulSet prod/web)" {
		t.Errorf("no daemonset: %v", err)
	}
	if _, _, err := objs.Select(Selector{Deployment: "web", Latest: true}); err == nil || !strings.HasSuffix(err.Error(), `"web" (the input has none; it holds StatefulSet prod/web)`) {
		t.Errorf("no deployment: %v", err)
	}
	// A single manifest of each kind reads with Single; other apiVersions
	// are refused.
	for _, kind := range []string{"StatefulSet", "DaemonSet"} {
		m, _ := yaml.JSONToYAML([]byte(`{"apiVersion":"apps/v1","kind":"` + kind + `","metadata":{"name":"x"}}`))
		if objs, err := ReadObjects(strings.NewReader(string(m)), Options{Single: true}); err != nil || objs.Items != 1 {
			t.Errorf("%s manifest: %v", kind, err)
		}
		old := `{"apiVersion":"apps/v1beta2","kind":"` + kind + `","metadata":{"name":"x"}}`
		if _, err := ReadObjects(strings.NewReader(old), Options{Single: true}); err == nil || !strings.Contains(err.Error(), `the input is a `+kind+` of apiVersion "apps/v1beta2"; only apps/v1 is read`) {
			t.Errorf("%s of apps/v1beta2: %v", kind, err)
		}
	}
}
