//go:build linux

package input

import (
	"bytes"
	"encoding/json"
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

// memoryChildEnv, set to "FORMAT:SIZE", makes the test binary read a
// generated List of about SIZE bytes in FORMAT (json, yaml, or baseline: a
// List of one Pod) with ReadObjects and exit, so that the process's peak
// resident memory is the reader's alone.
const memoryChildEnv = "ROLLOUTPLAN_INPUT_MEMORY_CHILD"

func TestMain(m *testing.M) {
	if spec := os.Getenv(memoryChildEnv); spec != "" {
		format, size, _ := strings.Cut(spec, ":")
		n, _ := strconv.ParseInt(size, 10, 64)
		objs, err := ReadObjects(generatedList(format, n), Options{MaxBytes: n + 1<<20})
		if err != nil || len(objs.Pods) == 0 {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
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

// generatedList is a List of about size bytes of the recorded Pod, in
// format, generated as it is read.
func generatedList(format string, size int64) io.Reader {
	yamlItem, jsonItem := podItem()
	var head, item, sep, tail []byte
	switch format {
	case "yaml":
		head, item, tail = []byte("apiVersion: v1\nitems:\n"), yamlItem, []byte("kind: List\n")
	case "json":
		head, item, sep, tail = []byte(`{"apiVersion":"v1","kind":"List","items":[`), jsonItem, []byte(","), []byte("]}\n")
	case "baseline":
		return bytes.NewReader(append(append([]byte("items:\n"), yamlItem...), "kind: List\n"...))
	}
	n := max(1, size/int64(len(item)+len(sep)))
	var parts []io.Reader
	parts = append(parts, bytes.NewReader(head))
	for i := range n {
		if i > 0 {
			parts = append(parts, bytes.NewReader(sep))
		}
		parts = append(parts, bytes.NewReader(item))
	}
	parts = append(parts, bytes.NewReader(tail))
	return io.MultiReader(parts...)
}

// peakRSS runs a child on spec and returns its peak resident memory in
// bytes.
func peakRSS(t *testing.T, spec string) int64 {
	t.Helper()
	_, code, peak := childtest.RunChild(t, memoryChildEnv, spec)
	require.Zero(t, code, spec)
	return peak
}

// What --max-input's help states: a snapshot as kubectl prints it, a List
// of Pods, takes at most about 10 times its size in memory to read, YAML
// as JSON (issue 24: YAML took 33 times, 63 MiB of YAML 2.07 GB, as the
// whole document was converted to JSON at once; BlockListToJSON converts
// it an item at a time). Measured at 8 MiB: about 5× for JSON and 7× for
// YAML; before, YAML 40×.
func TestReadMemoryBounded(t *testing.T) {
	const size, factor = 8 << 20, 10
	base := peakRSS(t, "baseline:0")
	for _, format := range []string{"json", "yaml"} {
		peak := peakRSS(t, fmt.Sprintf("%s:%d", format, size))
		t.Logf("%s List of %d MiB: %d MiB above the baseline (%d MiB), %.1f× its size", format, size>>20, (peak-base)>>20, base>>20, float64(peak-base)/size)
		require.LessOrEqual(t, peak-base, int64(factor*size), format)
	}
}
