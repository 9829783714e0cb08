//go:build linux

package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/childtest"
	"sigs.k8s.io/yaml"
)

// memoryChildEnv, set to "FORMAT:SHAPE:SIZE", makes the test binary read
// a generated input of about SIZE bytes of SHAPE (see shapes) in FORMAT
// (json or yaml; baseline: a List of one Pod) with ReadObjects and exit, so
// that the process's peak resident memory is the reader's alone. It exits
// 0 when the input was read, childRefused when it was refused as too
// heavy to read, childOtherError on any other error (on standard error)
// and childRunaway when its heap passed runawayHeap.
const memoryChildEnv = "ROLLOUTPLAN_INPUT_MEMORY_CHILD"

// The child's exit codes, beyond 0.
const (
	childRefused    = 3
	childOtherError = 4
	childRunaway    = 5
)

// runawayHeap ends a child whose heap grows past it: a reader that lost
// its bound reads the heaviest shapes at about 450 times their size,
// more than this machine's memory at 8 MiB.
const runawayHeap = 1 << 30

func TestMain(m *testing.M) {
	childtest.Launch()
	if spec := os.Getenv(memoryChildEnv); spec != "" {
		childtest.EndAbove(runawayHeap, childRunaway)
		parts := strings.SplitN(spec, ":", 3)
		n, _ := strconv.ParseInt(parts[2], 10, 64)
		objs, err := ReadObjects(generated(parts[0], parts[1], n), Options{MaxBytes: n + 1<<20})
		code := 0
		switch {
		case errors.Is(err, errTooHeavy) || errors.Is(err, errYAMLTooHeavy):
			code = childRefused
		case err != nil || objs.Items == 0:
			fmt.Fprintln(os.Stderr, err)
			code = childOtherError
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// podItem is a recorded Pod (rolloutio's testdata/rollout.yaml, as
// `kubectl get -o yaml` prints it) as an item of a YAML List, and as JSON.
func podItem() (yamlItem, jsonItem []byte) {
	data, err := os.ReadFile("../rolloutio/testdata/rollout.yaml")
	if err != nil {
		panic(err)
	}
	start := bytes.Index(data, []byte("- apiVersion: v1\n  kind: Pod\n"))
	end := start + 1 + bytes.Index(data[start+1:], []byte("\n- "))
	yamlItem = data[start : end+1]
	j, err := yaml.YAMLToJSON(yamlItem)
	if err != nil {
		panic(err)
	}
	var one []json.RawMessage
	if err := json.Unmarshal(j, &one); err != nil {
		panic(err)
	}
	return yamlItem, one[0]
}

// pieces make an input: head, then items separated by sep, then tail.
type pieces struct{ head, item, sep, tail string }

// shapes are the inputs measured, by name, in each format: an ordinary
// List as kubectl prints it, and inputs made to cost as much memory per
// byte as the reader allows, each the repetition of a short item.
func shapes() map[string]map[string]pieces {
	yamlPod, jsonPod := podItem()
	const (
		jsonList = `{"apiVersion":"v1","kind":"List","items":[`
		yamlList = "apiVersion: v1\nkind: List\nitems:\n"
	)
	return map[string]map[string]pieces{
		// A List of recorded Pods, as `kubectl get pods -o json|yaml`
		// prints it.
		"kubectl": {
			"json": {jsonList, string(jsonPod), ",", "]}\n"},
			"yaml": {"apiVersion: v1\nitems:\n", string(yamlPod), "", "kind: List\n"},
		},
		// The same List with its items in flow style: YAML the List
		// converter (BlockListToJSON) does not take an item at a time.
		"kubectl-flow": {
			"json": {jsonList, string(jsonPod), ",", "]}\n"},
			"yaml": {"apiVersion: v1\nkind: List\nitems: [", string(jsonPod), ",", "]\n"},
		},
		// The smallest Pods: a whole core.Pod for 32 bytes.
		"tiny-pods": {
			"json": {jsonList, `{"apiVersion":"v1","kind":"Pod"}`, ",", "]}\n"},
			"yaml": {yamlList, "- {apiVersion: v1, kind: Pod}\n", "", ""},
		},
		// One Pod of empty containers: a core.Container for 3 bytes.
		"empty-containers": {
			"json": {jsonList + `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[`, "{}", ",", "]}}]}\n"},
			"yaml": {yamlList + "- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n  spec:\n    containers: [", "{}", ",", "]\n"},
		},
		// One StatefulSet of empty claim templates: the largest element
		// of any list the reader keeps.
		"empty-claim-templates": {
			"json": {jsonList + `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"s"},"spec":{"volumeClaimTemplates":[`, "{}", ",", "]}}]}\n"},
			"yaml": {yamlList + "- apiVersion: apps/v1\n  kind: StatefulSet\n  metadata: {name: s}\n  spec:\n    volumeClaimTemplates: [", "{}", ",", "]\n"},
		},
		// One container of many one-character arguments: a string header
		// for 2 or 3 bytes.
		"short-args": {
			"json": {jsonList + `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","args":[`, `""`, ",", "]}]}}]}\n"},
			"yaml": {yamlList + "- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n  spec:\n    containers:\n    - name: c\n      image: i\n      args: [", "a", ",", "]\n"},
		},
		// A ControllerRevision whose data, kept as it is, is a long list
		// of empty maps.
		"revision-data": {
			"json": {jsonList + `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r"},"revision":1,"data":[`, "{}", ",", "]}]}\n"},
			"yaml": {yamlList + "- apiVersion: apps/v1\n  kind: ControllerRevision\n  metadata: {name: r}\n  revision: 1\n  data: [", "{}", ",", "]\n"},
		},
	}
}

// generated is an input of about size bytes of shape in format,
// generated as it is read: the generator keeps nothing per item, so that
// the child's memory is the reader's.
func generated(format, shape string, size int64) io.Reader {
	if format == "baseline" {
		yamlItem, _ := podItem()
		return bytes.NewReader(append(append([]byte("items:\n"), yamlItem...), "kind: List\n"...))
	}
	p := shapes()[shape][format]
	n := max(1, (size-int64(len(p.head)+len(p.tail)))/int64(len(p.item)+len(p.sep)))
	return &repeater{p: p, n: n, next: []byte(p.head)}
}

// repeater reads p.head, n items separated by p.sep, and p.tail.
type repeater struct {
	p    pieces
	n, i int64 // items in all, and written
	next []byte
	done bool
}

func (r *repeater) Read(b []byte) (int, error) {
	written := 0
	for written < len(b) {
		if len(r.next) == 0 {
			switch {
			case r.done:
				if written == 0 {
					return 0, io.EOF
				}
				return written, nil
			case r.i == r.n:
				r.next, r.done = []byte(r.p.tail), true
				continue
			case r.i > 0:
				r.next = []byte(r.p.sep + r.p.item)
			default:
				r.next = []byte(r.p.item)
			}
			r.i++
		}
		c := copy(b[written:], r.next)
		written += c
		r.next = r.next[c:]
	}
	return written, nil
}

// peakRSS runs a child on spec and returns its exit code and its own peak
// resident memory in bytes.
func peakRSS(t *testing.T, spec string) (int, int64) {
	t.Helper()
	_, code, peak := childtest.RunChild(t, memoryChildEnv, spec)
	return code, peak
}

// What --max-input's help states: reading an input takes about 10 times
// its size in memory at most, JSON or YAML, whatever its shape: a List as
// kubectl prints it (issue 24: YAML took 33 times, 63 MiB of YAML 2.07 GB,
// as the whole document was converted to JSON at once; BlockListToJSON
// converts it an item at a time), the same List in YAML's flow style, and
// inputs built to cost as much memory per byte as possible (shapes),
// which the reader refuses before they take it (decodedFactor,
// yamlFactor). Measured at 8 MiB, peak over a List of one Pod, in three
// runs (and, in brackets, before the bounds and before the items were
// read in place):
//
//	shape                  JSON                  YAML
//	kubectl                6.0-6.2× read (6.6-7.4) 5.7-6.3× read (8.0)
//	kubectl-flow           6.0-6.1× read         5.5-5.7× refused (40)
//	tiny-pods              7.0-7.8× refused (58)   7.9-8.2× refused (71)
//	empty-containers       2.8-3.0× refused (407*) 3.7-5.6× refused (452*)
//	empty-claim-templates  2.9× refused (456*)   4.8-5.9× refused (397*)
//	short-args             2.8-3.0× refused (59*)  4.8-6.4× refused (124*)
//	revision-data          2.9-3.8× read (58*)   4.4-5.9× refused (123*)
//
// (* measured at 1 MiB: at 8 MiB these would take up to 3.6 GB; a child
// whose heap passes runawayHeap ends, and the test fails on its exit code.)
func TestReadMemoryBounded(t *testing.T) {
	const size, factor = 8 << 20, 10
	_, base := peakRSS(t, "baseline::0")
	for _, c := range []struct {
		shape      string
		json, yaml int // the exit codes: read (0) or refused
	}{
		{"kubectl", 0, 0},
		{"kubectl-flow", 0, childRefused},
		{"tiny-pods", childRefused, childRefused},
		{"empty-containers", childRefused, childRefused},
		{"empty-claim-templates", childRefused, childRefused},
		{"short-args", childRefused, childRefused},
		// Kept as its text (a runtime.RawExtension) once JSON.
		{"revision-data", 0, childRefused},
	} {
		for _, f := range []struct {
			format string
			want   int
		}{{"json", c.json}, {"yaml", c.yaml}} {
			format, want := f.format, f.want
			code, peak := peakRSS(t, fmt.Sprintf("%s:%s:%d", format, c.shape, size))
			t.Logf("%s, %s, %d MiB: exit %d, %d MiB above the baseline (%d MiB), %.1f× its size", c.shape, format, size>>20, code, (peak-base)>>20, base>>20, float64(peak-base)/size)
			require.Equal(t, want, code, "%s, %s: the exit code", c.shape, format)
			require.LessOrEqual(t, peak-base, int64(factor*size), "%s, %s: peak resident memory over the baseline", c.shape, format)
		}
	}
}
