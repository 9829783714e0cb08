package next

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

const (
	statefulSetSeeds = "../../../testdata/conformance/statefulset/public-seed1.jsonl"
	daemonSetSeeds   = "../../../testdata/conformance/daemonset/public-seed1.jsonl"
)

// readSeeds returns the recorded cases of a conformance file by id.
func readSeeds(t *testing.T, file string) map[string]seedLine {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]seedLine{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<26)
	for sc.Scan() {
		var l struct {
			Case   map[string]any `json:"case"`
			Expect map[string]any `json:"expect"`
			Meta   struct {
				ID string `json:"id"`
			} `json:"meta"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		out[l.Meta.ID] = seedLine{Line: bytes.Clone(sc.Bytes()), Case: l.Case, Expect: l.Expect}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// The recorded StatefulSet and DaemonSet syncs next is checked on, each
// recorded without nondeterminism, so that the Output must be the recorded
// one exactly: a first sync (a revision, a pod with its claims, the
// status), a renumbered and a deleted revision with the minReadySeconds
// requeue, a rollback's renumbering with a pod deleted, the claim retention
// policy's updates, a create the API server rejects (the sync's error),
// adoption patches and a rolling update; for DaemonSets a first sync, a
// requeue, a revision created and one deleted, and a status update.
var setCases = []struct {
	file string
	ids  []string
}{
	{statefulSetSeeds, []string{"sts-s1-0000", "sts-s1-0019", "sts-s1-0013", "sts-s1-0040", "sts-s1-0037", "sts-s1-0024", "sts-s1-0124", "sts-s1-0166"}},
	{daemonSetSeeds, []string{"ds-s1-0119", "ds-s1-0032", "ds-s1-0195", "ds-s1-0183"}},
}

// next prints the recorded Output of a StatefulSet or DaemonSet Case, read
// as a line of public-seed1.jsonl or as a bare Case, JSON or YAML.
func TestSetCaseInput(t *testing.T) {
	for _, set := range setCases {
		all := readSeeds(t, set.file)
		for _, id := range set.ids {
			l, ok := all[id]
			if !ok {
				t.Fatalf("no case %s", id)
			}
			bare, err := json.Marshal(l.Case)
			if err != nil {
				t.Fatal(err)
			}
			bareYAML, err := yaml.JSONToYAML(bare)
			if err != nil {
				t.Fatal(err)
			}
			for form, in := range map[string][]byte{"seed line": l.Line, "bare case": bare, "bare case, YAML": bareYAML} {
				t.Run(id+"/"+form, func(t *testing.T) {
					code, stdout, stderr := runCmd(t, in)
					if code != 0 {
						t.Fatalf("exit %d: %s", code, stderr)
					}
					if want := "Time: " + l.Case["now"].(string) + " (the case's own time; --now sets another)\n"; stderr != want {
						t.Errorf("stderr %q, want %q", stderr, want)
					}
					if diff := cmp.Diff(expected(l.Expect), decodeOutput(t, stdout)); diff != "" {
						t.Errorf("output (-want +got):\n%s", diff)
					}
				})
			}
		}
	}
}

// setList turns a StatefulSet or DaemonSet Case into what `kubectl get
// statefulset,controllerrevisions,pods,pvc -o json` (`daemonset,…,nodes`)
// prints, plus a ReplicaSet (which the StatefulSet controller does not
// read) and a Pod of another namespace.
func setList(c map[string]any) []byte {
	var items []any
	with := func(o any, kind, apiVersion string) any {
		m := o.(map[string]any)
		m["kind"], m["apiVersion"] = kind, apiVersion
		return m
	}
	each := func(key, kind, apiVersion string) {
		l, _ := c[key].([]any)
		for _, o := range l {
			items = append(items, with(o, kind, apiVersion))
		}
	}
	if s, ok := c["statefulSet"]; ok {
		items = append(items, with(s, "StatefulSet", "apps/v1"))
		each("controllerRevisions", "ControllerRevision", "apps/v1")
		each("pods", "Pod", "v1")
		each("pvcs", "PersistentVolumeClaim", "v1")
	} else {
		items = append(items, with(c["daemonSet"], "DaemonSet", "apps/v1"))
		each("controllerRevisions", "ControllerRevision", "apps/v1")
		each("pods", "Pod", "v1")
		each("nodes", "Node", "v1")
	}
	items = append(items,
		map[string]any{"kind": "ReplicaSet", "apiVersion": "apps/v1", "metadata": map[string]any{"name": "rs", "namespace": "default"}},
		map[string]any{"kind": "Pod", "apiVersion": "v1", "metadata": map[string]any{"name": "other", "namespace": "elsewhere"}})
	b, _ := json.Marshal(map[string]any{"kind": "List", "apiVersion": "v1", "items": items, "metadata": map[string]any{"resourceVersion": ""}})
	return b
}

// withoutTypeMeta drops kind and apiVersion from the objects of the
// writes: objects read from a List keep those kubectl printed.
func withoutTypeMeta(out map[string]any) map[string]any {
	for _, a := range out["actions"].([]any) {
		if obj, ok := a.(map[string]any)["object"].(map[string]any); ok {
			delete(obj, "kind")
			delete(obj, "apiVersion")
		}
	}
	return out
}

// The same states as kubectl get prints them, at the case's time, give the
// same Output, and --explain says why each write is made.
func TestSetListInput(t *testing.T) {
	for _, set := range setCases {
		all := readSeeds(t, set.file)
		for _, id := range set.ids {
			t.Run(id, func(t *testing.T) {
				l := all[id]
				kind, key := "statefulset/", "statefulSet"
				if _, ok := l.Case["daemonSet"]; ok {
					kind, key = "ds/", "daemonSet"
				}
				name := l.Case[key].(map[string]any)["metadata"].(map[string]any)["name"].(string)
				code, stdout, stderr := runCmd(t, setList(l.Case), kind+name, "--now", l.Case["now"].(string), "--explain")
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				got := withoutTypeMeta(decodeOutput(t, stdout))
				want := withoutTypeMeta(expected(l.Expect))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("output (-want +got):\n%s", diff)
				}
				if !strings.Contains(stderr, "next: ignored 2 input objects: 1 ReplicaSet in namespace default (not read for a ") {
					t.Errorf("stderr does not report the ignored objects:\n%s", stderr)
				}
				writes := strings.Count(stderr, "\nwrite ")
				if n := len(got["actions"].([]any)); writes != n {
					t.Errorf("--explain printed %d write lines for %d writes:\n%s", writes, n, stderr)
				}
			})
		}
	}
}

// --explain: each write with its reason, what a status write changes, why
// a node runs no daemon pod, and the requeue.
func TestSetExplain(t *testing.T) {
	sts := readSeeds(t, statefulSetSeeds)
	code, _, stderr := runCmd(t, sts["sts-s1-0166"].Line, "--explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"write 1: delete pods prod/web-5: RollingUpdate: web-5 is at revision \"web-8948ffb8\", not web-5674ddc769: the rolling update replaces it (highest ordinal first, down to partition 0)\n",
		"write 2: update statefulsets/status prod/web: SyncStatus: ",
		"  status.currentReplicas: 5 → 4\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	code, _, stderr = runCmd(t, sts["sts-s1-0024"].Line, "--explain")
	if code != 0 || !strings.Contains(stderr, `[a real API server rejects this write: pods "prometheus-0" already exists]`) ||
		!strings.Contains(stderr, `the sync ends with: pods "prometheus-0" already exists`) {
		t.Errorf("a rejected create: exit %d:\n%s", code, stderr)
	}
	ds := readSeeds(t, daemonSetSeeds)
	code, _, stderr = runCmd(t, ds["ds-s1-0032"].Line, "--explain")
	if code != 0 || !strings.Contains(stderr, "requeue after 15s\n") {
		t.Errorf("a requeue: exit %d:\n%s", code, stderr)
	}
	code, _, stderr = runCmd(t, ds["ds-s1-0044"].Line, "--explain")
	if code != 0 || !strings.Contains(stderr, "\nnode ") || !strings.Contains(stderr, "taint") {
		t.Errorf("a tainted node: exit %d:\n%s", code, stderr)
	}
}

// A DaemonSet's created pods carry generateName, as the recorded ones do;
// their names are the planner's (upstream's are random).
func TestDaemonSetCreates(t *testing.T) {
	l := readSeeds(t, daemonSetSeeds)["ds-s1-0000"]
	code, stdout, stderr := runCmd(t, l.Line)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := decodeOutput(t, stdout)
	creates := 0
	for _, a := range got["actions"].([]any) {
		a := a.(map[string]any)
		if a["verb"] == "create" && a["resource"] == "pods" {
			creates++
			meta := a["object"].(map[string]any)["metadata"].(map[string]any)
			if gn, _ := meta["generateName"].(string); gn == "" || !strings.HasPrefix(a["name"].(string), gn) {
				t.Errorf("created pod %v: generateName %q", a["name"], gn)
			}
		}
	}
	want := 0
	for _, a := range l.Expect["actions"].([]any) {
		if a := a.(map[string]any); a["verb"] == "create" && a["resource"] == "pods" {
			want++
		}
	}
	if creates == 0 || creates != want {
		t.Errorf("%d pods created, %d recorded", creates, want)
	}
}

// Snapshots that lack what the controller reads are refused with what to
// give instead, rather than planned from half the state.
func TestSetIncompleteSnapshots(t *testing.T) {
	l := readSeeds(t, statefulSetSeeds)["sts-s1-0166"]
	set, _ := json.Marshal(map[string]any{"kind": "List", "apiVersion": "v1", "items": []any{
		func() any {
			m := l.Case["statefulSet"].(map[string]any)
			m["kind"], m["apiVersion"] = "StatefulSet", "apps/v1"
			return m
		}()}})
	code, _, stderr := runCmd(t, set)
	if code != 1 || !strings.Contains(stderr, `error: the snapshot has statefulset "web" as the cluster returned it but none of its ControllerRevisions; next needs them: give 'kubectl get statefulset,controllerrevisions,pods,persistentvolumeclaims -n prod -o yaml'`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
