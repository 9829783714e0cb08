package input

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
)

// nginx-mid.json is step 5 of the recorded conformance scenario
// rolling-update-nginx-3 (3 replicas, nginx:1.14.2 → nginx:1.16.1) as a v1
// List: the Deployment, 2 ReplicaSets, 3 Pods. nginx-mid-extra.json adds a
// ConfigMap and 2 Pods in namespace kube-system.
func load(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var now = time.Date(2025, 3, 1, 10, 0, 6, 0, time.UTC)

func TestReadList(t *testing.T) {
	s, ignored, err := Read(bytes.NewReader(load(t, "nginx-mid-extra.json")), Options{}, Selector{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if s.Deployment.Name != "nginx" || len(s.ReplicaSets) != 2 || len(s.Pods) != 3 || !s.Now.Equal(now) {
		t.Fatalf("state: %s, %d ReplicaSets, %d Pods, now %s", s.Deployment.Name, len(s.ReplicaSets), len(s.Pods), s.Now)
	}
	want := []Ignored{
		{Kind: "ConfigMap", APIVersion: "v1", Count: 1, Why: WhyOtherKind},
		{Kind: "Pod", Namespace: "kube-system", Count: 2, Why: WhyOtherNamespace},
	}
	if diff := cmp.Diff(want, ignored); diff != "" {
		t.Errorf("ignored (-want +got):\n%s", diff)
	}
	var buf bytes.Buffer
	Report(&buf, "next", ignored)
	if got := buf.String(); got != "next: ignored 3 input objects: 1 ConfigMap (v1) (not a kind rolloutplan reads), 2 Pod in namespace kube-system (other namespace)\n" {
		t.Errorf("report %q", got)
	}
}

// `kubectl get … -o yaml` reads the same as -o json (before: "invalid
// character 'a'").
func TestReadYAMLEqualsJSON(t *testing.T) {
	data := load(t, "nginx-mid.json")
	y, err := yaml.JSONToYAML(data)
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := ReadObjects(bytes.NewReader(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	fromYAML, err := ReadObjects(bytes.NewReader(y), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fromJSON.Format != JSON || fromYAML.Format != YAML {
		t.Errorf("formats %s, %s", fromJSON.Format, fromYAML.Format)
	}
	fromYAML.Format = JSON
	if diff := cmp.Diff(fromJSON, fromYAML); diff != "" {
		t.Errorf("YAML differs from JSON (-json +yaml):\n%s", diff)
	}
}

// Strictness: each error names the item and the JSON path.
func TestReadRejects(t *testing.T) {
	list := string(load(t, "nginx-mid.json"))
	replace := func(old, new string) string {
		if !strings.Contains(list, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return strings.Replace(list, old, new, 1)
	}
	y, _ := yaml.JSONToYAML([]byte(list))
	for _, tc := range []struct {
		name, input string
		want        string
	}{
		{"duplicate key in an item", replace(`"name": "nginx",`, `"name": "nginx", "name": "web",`),
			`items[0] (Deployment default/web): duplicate field "metadata.name"`},
		{"duplicate top-level key", replace(`"kind": "List",`, `"kind": "List", "kind": "List",`),
			`the List: duplicate field "kind"`},
		{"case-mismatched key", replace(`"replicas": 3,`, `"Replicas": 3,`),
			`items[0] (Deployment default/nginx): unknown field "spec.Replicas"`},
		{"case-mismatched top-level key", `{"kind":"List","apiVersion":"v1","ITEMS":[]}`,
			`the List: unknown field "ITEMS"`},
		{"unknown field", replace(`"replicas": 3,`, `"replicas": 3, "replica": 4,`),
			`items[0] (Deployment default/nginx): unknown field "spec.replica"`},
		{"wrong type", replace(`"replicas": 3,`, `"replicas": "3",`),
			`items[0] (Deployment default/nginx): spec.replicas: got a string, want an integer`},
		{"wrong type of a named string type", replace(`"replicas": 3,`, `"replicas": 3, "strategy": {"type": 1},`),
			`items[0] (Deployment default/nginx): spec.strategy.type: got a number, want a string`},
		{"an item that is a list", `{"kind":"List","apiVersion":"v1","items":[[1]]}`,
			`items[0]: got a list, want an object`},
		{"items that are an object", `{"kind":"List","apiVersion":"v1","items":{"a":1}}`,
			`the List: items: got an object, want a list`},
		{"YAML infinity", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: a}\n  spec: {replicas: .inf}\n",
			`YAML input: +Inf is not a number JSON can carry (YAML's .inf and .nan have no JSON form): write a finite number`},
		{"duplicate YAML key", string(y) + "kind: List\n", `line 275: key "kind" already set in map`},
		{"an item without kind", `{"kind":"List","apiVersion":"v1","items":[{"metadata":{}}]}`, `items[0]: no kind`},
		{"a single object", `{"kind":"Deployment","apiVersion":"apps/v1"}`, `the input is a single Deployment`},
		{"neither", `{"foo": 1}`, `not a Kubernetes object or List: it has no "kind"`},
		{"empty", " \n", "empty input"},
		{"case with unknown field", `{"now":"2025-03-01T10:00:00Z","deployment":{},"extra":1}`, `the case: unknown field "extra"`},
		{"case with a DEPLOYMENT key", `{"now":"2025-03-01T10:00:00Z","deployment":{"metadata":{"name":"a"}},"DEPLOYMENT":{"metadata":{"name":"b"}}}`, `the case: unknown field "DEPLOYMENT"`},
	} {
		_, err := ReadObjects(strings.NewReader(tc.input), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// Syntax errors carry the byte offset, line and column (before: truncated
// JSON was "unexpected EOF" with no position).
func TestSyntaxErrorPosition(t *testing.T) {
	for _, tc := range []struct {
		input      string
		offset     int64
		line, col  int
		msgContain string
	}{
		{"{\n  \"kind\": \"List\",\n  \"items\": [", 32, 3, 13, "unexpected end of input"},
		{"{\n  \"kind\": List\n}", 13, 2, 12, "invalid character 'L'"},
		{`{"kind":"List"} x`, 16, 1, 17, "data after the JSON document"},
	} {
		_, err := ReadObjects(strings.NewReader(tc.input), Options{})
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: err = %v, want a *SyntaxError", tc.input, err)
			continue
		}
		if se.Offset != tc.offset || se.Line != tc.line || se.Column != tc.col || !strings.Contains(se.Msg, tc.msgContain) {
			t.Errorf("%q: %+v, want offset %d line %d column %d %q", tc.input, se, tc.offset, tc.line, tc.col, tc.msgContain)
		}
	}
}

// whitespace is an endless reader of spaces that counts what is read.
type whitespace struct{ read int64 }

func (w *whitespace) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	w.read += int64(len(p))
	return len(p), nil
}

// The cap stops reading: endless white space (before: 1 GB of it was read
// into 2.7 GB of memory) fails after MaxBytes + 1 bytes.
func TestSizeCap(t *testing.T) {
	ws := &whitespace{}
	_, err := ReadObjects(io.Reader(ws), Options{MaxBytes: 1 << 20})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "more than 1048576 bytes") {
		t.Errorf("err = %v, want ErrTooLarge naming the cap", err)
	}
	if ws.read > 1<<20+64<<10 {
		t.Errorf("read %d bytes for a cap of 1 MiB", ws.read)
	}
	ws = &whitespace{}
	if _, err := ReadObjects(ws, Options{}); !errors.Is(err, ErrTooLarge) || ws.read > DefaultMaxBytes+1<<20 {
		t.Errorf("default cap: err = %v after %d bytes", err, ws.read)
	}
}

// Selection: nothing is dropped silently, and the Deployment must be named
// when several match.
func TestSelect(t *testing.T) {
	objs, err := ReadObjects(bytes.NewReader(load(t, "nginx-mid.json")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := objs.Select(Selector{}); !errors.Is(err, ErrNoClock) {
		t.Errorf("no clock: err = %v", err)
	}
	if _, _, err := objs.Select(Selector{Deployment: "web", Now: now}); !errors.Is(err, appsv1.ErrNoDeployment) || !strings.Contains(err.Error(), "default/nginx") {
		t.Errorf("missing Deployment: err = %v", err)
	}
	twice := *objs
	other := objs.Deployments[0].DeepCopy()
	other.Namespace = "staging"
	twice.Deployments = append(twice.Deployments, other)
	if _, _, err := twice.Select(Selector{Now: now}); err == nil || !strings.Contains(err.Error(), "default/nginx, staging/nginx") {
		t.Errorf("two Deployments: err = %v", err)
	}
	_, ignored, err := twice.Select(Selector{Namespace: "default", Now: now})
	if err != nil || len(ignored) != 1 || ignored[0].Why != WhyOtherDeployment || ignored[0].Namespace != "staging" {
		t.Errorf("the other Deployment is reported: %v %v", ignored, err)
	}
	// One Deployment twice: no flag can choose, and the message says why.
	copied := *objs
	copied.Deployments = append(copied.Deployments, objs.Deployments[0].DeepCopy())
	const want = "the input holds Deployment default/nginx 2 times, which no cluster can (one object per name in a namespace): remove the copies"
	for _, sel := range []Selector{{Now: now}, {Deployment: "nginx", Namespace: "default", Now: now}} {
		if _, _, err := copied.Select(sel); err == nil || err.Error() != want {
			t.Errorf("one Deployment twice, %+v: err = %v, want %q", sel, err, want)
		}
	}
}

// A conformance Case and a line of public-seed1.jsonl.
func TestReadCase(t *testing.T) {
	c := `{"now":"2025-03-01T10:00:00Z","deployment":{"metadata":{"name":"a","namespace":"default"}},"replicaSets":[],"pods":[]}`
	for _, input := range []string{c, `{"case":` + c + `,"expect":{},"meta":{}}`} {
		s, ignored, err := Read(strings.NewReader(input), Options{}, Selector{})
		if err != nil || s.Deployment.Name != "a" || s.Now.IsZero() || len(ignored) != 0 {
			t.Errorf("%s: %+v %v %v", input, s, ignored, err)
		}
	}
}

// Options.Single reads a Deployment manifest as a List of one (and only an
// apps/v1 one); Selector.Latest takes the state's latest recorded time when
// nothing gives a clock.
func TestSingleAndLatest(t *testing.T) {
	const manifest = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop, creationTimestamp: \"2025-03-01T10:00:00Z\"}\n"
	if _, err := ReadObjects(strings.NewReader(manifest), Options{}); err == nil || !strings.Contains(err.Error(), "the input is a single Deployment") {
		t.Errorf("without Single: %v", err)
	}
	objs, err := ReadObjects(strings.NewReader(manifest), Options{Single: true})
	if err != nil || len(objs.Deployments) != 1 || objs.Items != 1 || objs.Format != YAML {
		t.Fatalf("Single: %+v, %v", objs, err)
	}
	if _, _, err := objs.Select(Selector{}); !errors.Is(err, ErrNoClock) {
		t.Errorf("no clock: %v", err)
	}
	s, _, err := objs.Select(Selector{Latest: true})
	if err != nil || !s.Now.Equal(time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("Latest: %v, %v", s.Now, err)
	}
	if _, err := ReadObjects(strings.NewReader(`{"kind":"Deployment","apiVersion":"extensions/v1beta1"}`), Options{Single: true}); err == nil ||
		err.Error() != `the input is a Deployment of apiVersion "extensions/v1beta1"; only apps/v1 is read` {
		t.Errorf("other apiVersion: %v", err)
	}
}
