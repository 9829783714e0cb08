package predict

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
)

// The work StatefulSetSyncWork charges a sync is at least what the sync
// does: one unit an object modelled and SyncCreateUnits an object it
// creates, for every recorded StatefulSet sync of the public seed file
// (first syncs, Parallel and OrderedReady sets, claims, scale-ups, rolling
// updates, failed pods created again, claims created for running pods).
func TestStatefulSetSyncWorkBoundsTheSync(t *testing.T) {
	f, err := os.Open("../../../testdata/conformance/statefulset/public-seed1.jsonl")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	var states []appsv1.StatefulSetState
	for sc.Scan() {
		var l struct {
			Case appsv1.StatefulSetCase `json:"case"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
		states = append(states, l.Case.State())
	}
	require.NoError(t, sc.Err())
	require.Len(t, states, 200)

	creates := 0
	for _, s := range states {
		out, _, err := appsv1.SyncStatefulSet(s)
		if err != nil && out.Actions == nil {
			continue
		}
		n := 0
		for _, a := range out.Actions {
			if a.Verb == "create" {
				n++
			}
		}
		creates += n
		objects := int64(1 + len(s.Pods) + len(s.ControllerRevisions) + len(s.PVCs))
		require.GreaterOrEqual(t, StatefulSetSyncWork(s), objects+int64(n)*SyncCreateUnits, "%s/%s", s.StatefulSet.Namespace, s.StatefulSet.Name)
	}
	t.Logf("%d creates charged", creates)
	require.Positive(t, creates)
}

// readCases decodes the case of every line of a seed file with decode.
func readCases(t *testing.T, file string, decode func([]byte) error) {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	n := 0
	for sc.Scan() {
		require.NoError(t, decode(sc.Bytes()))
		n++
	}
	require.NoError(t, sc.Err())
	require.Equal(t, 200, n)
}

// So do DaemonSetSyncWork and DeploymentSyncWork, for every recorded
// DaemonSet and Deployment sync of the public seed files.
func TestDaemonSetAndDeploymentSyncWorkBoundTheSync(t *testing.T) {
	creates := 0
	readCases(t, "../../../testdata/conformance/daemonset/public-seed1.jsonl", func(line []byte) error {
		var l struct {
			Case appsv1.DaemonSetCase `json:"case"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			return err
		}
		s := l.Case.State()
		out, _, err := appsv1.SyncDaemonSet(s)
		if err != nil && out.Actions == nil {
			return nil
		}
		n := creates
		for _, a := range out.Actions {
			if a.Verb == "create" {
				creates++
			}
		}
		objects := int64(1 + len(s.Nodes) + len(s.Pods) + len(s.ControllerRevisions))
		require.GreaterOrEqual(t, DaemonSetSyncWork(s), objects+int64(creates-n)*SyncCreateUnits, s.DaemonSet.Name)
		return nil
	})
	readCases(t, "../../../testdata/conformance/public-seed1.jsonl", func(line []byte) error {
		var l struct {
			Case appsv1.Case `json:"case"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			return err
		}
		s := l.Case.State()
		out, _, err := appsv1.Sync(s)
		if err != nil && out.Actions == nil {
			return nil
		}
		n := creates
		for _, a := range out.Actions {
			if a.Verb == "create" {
				creates++
			}
		}
		objects := int64(1 + len(s.ReplicaSets) + len(s.Pods))
		require.GreaterOrEqual(t, DeploymentSyncWork(s), objects+int64(creates-n)*SyncCreateUnits, s.Deployment.Name)
		return nil
	})
	t.Logf("%d creates charged", creates)
	require.Positive(t, creates)
}
