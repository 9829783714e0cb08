package next

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A Deployment, StatefulSet or DaemonSet written by hand with a UID and without the
// spec fields the API server defaults (testdata) is planned as the server
// would store it: the writes printed, and their reasons with --explain,
// are those of the same object with apps/v1's defaults
// (SetDefaults_Deployment, SetDefaults_StatefulSet, SetDefaults_DaemonSet)
// written out. Before, the planner refused the spec ("apply
// model.DefaultStatefulSet to undefaulted input").
func TestHandwrittenSpecsAreDefaulted(t *testing.T) {
	for _, c := range []struct {
		ref, file, before, defaults, create string
	}{
		{"deploy/web", "testdata/handwritten-deployment.yaml", "  replicas: 3\n", "  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 25%\n      maxUnavailable: 25%\n  revisionHistoryLimit: 10\n  progressDeadlineSeconds: 600\n",
			"write 1: create replicasets default/web-"},
		{"sts/web", "testdata/handwritten-statefulset.yaml", "  replicas: 3\n",
			"  podManagementPolicy: OrderedReady\n  revisionHistoryLimit: 10\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      partition: 0\n" +
				"  persistentVolumeClaimRetentionPolicy:\n    whenDeleted: Retain\n    whenScaled: Retain\n", "write 2: create pods default/web-0"},
		{"ds/agent", "testdata/handwritten-daemonset.yaml", "  spec:\n    selector:\n",
			"  spec:\n    revisionHistoryLimit: 10\n    updateStrategy:\n      type: RollingUpdate\n      rollingUpdate:\n        maxUnavailable: 1\n        maxSurge: 0\n",
			"write 2: create pods default/agent-"},
	} {
		t.Run(c.ref, func(t *testing.T) {
			data, err := os.ReadFile(c.file)
			require.NoError(t, err)
			require.Contains(t, string(data), c.before)
			explicit := strings.Replace(string(data), c.before, c.defaults+strings.TrimPrefix(c.before, "  spec:\n"), 1)
			code, stdout, stderr := runCmd(t, data, c.ref, "--explain")
			require.Equal(t, 0, code, stderr)
			require.Contains(t, stderr, c.create)
			code, wantOut, wantErr := runCmd(t, []byte(explicit), c.ref, "--explain")
			require.Equal(t, 0, code, wantErr)
			require.Equal(t, wantOut, stdout)
			require.Equal(t, wantErr, stderr)
		})
	}
}
