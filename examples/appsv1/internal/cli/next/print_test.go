package next

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// wholeOutput is the plan document with its items kept as they were
// encoded: encoded again whole, it gives the bytes the Output encoded
// whole at once gives.
type wholeOutput struct {
	Actions []json.RawMessage `json:"actions"`
	Error   string            `json:"error"`
	Events  []json.RawMessage `json:"events"`
	Requeue []json.RawMessage `json:"requeue,omitempty"`
}

// encodeWhole is how next printed a plan before it printed it an item at
// a time: the document encoded whole (JSON indented by two spaces, no
// HTML escaping), then converted whole to YAML.
func encodeWhole(t *testing.T, o wholeOutput, format string) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(o))
	if format == "json" {
		return buf.String()
	}
	y, err := yaml.JSONToYAML(buf.Bytes())
	require.NoError(t, err)
	return string(y)
}

// next prints a plan an item at a time (printPlan) with the bytes of the
// whole document encoded at once, in JSON and in YAML: for every recorded
// sync of the three public seed files (public-seed1.jsonl: the
// Deployment's, the StatefulSet's, the DaemonSet's; writes, events with
// long messages YAML folds, requeues, errors, empty and absent lists) and
// for a Parallel StatefulSet's first sync of many pods.
func TestPrintPlanAsWhole(t *testing.T) {
	var inputs [][]byte
	for _, file := range []string{seedFile, statefulSetSeeds, daemonSetSeeds} {
		seeds := readSeeds(t, file)
		for _, id := range slices.Sorted(func(yield func(string) bool) {
			for id := range seeds {
				if !yield(id) {
					return
				}
			}
		}) {
			inputs = append(inputs, seeds[id].Line)
		}
	}
	parallel := []byte("apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: web\n  namespace: default\nspec:\n  replicas: 40\n" +
		"  podManagementPolicy: Parallel\n  serviceName: web\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n" +
		"    spec:\n      containers:\n      - {name: web, image: nginx}\n  volumeClaimTemplates:\n  - metadata: {name: data}\n" +
		"    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n")
	inputs = append(inputs, parallel)
	var planned, events, requeues, empty int
	for _, in := range inputs {
		var out wholeOutput
		for _, format := range []string{"json", "yaml"} {
			code, stdout, _ := runCmd(t, in, "-o", format)
			if code != 0 {
				// A seed next does not read alone (a Deployment's
				// without its ReplicaSets): nothing is printed.
				require.Empty(t, stdout)
				break
			}
			if format == "json" {
				planned++
				require.NoError(t, json.Unmarshal([]byte(stdout), &out))
			}
			require.Equal(t, encodeWhole(t, out, format), stdout, "-o %s", format)
		}
		events += min(len(out.Events), 1)
		requeues += min(len(out.Requeue), 1)
		if len(out.Actions) == 0 {
			empty++
		}
	}
	t.Logf("%d inputs, %d planned: %d with events, %d with a requeue, %d without writes", len(inputs), planned, events, requeues, empty)
	require.Greater(t, planned, len(inputs)/2)
	require.Positive(t, events)
	require.Positive(t, requeues)
	require.Positive(t, empty)
}
