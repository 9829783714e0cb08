package status

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// handwrittenSets are Deployments, StatefulSets and DaemonSets written by hand with a
// UID and without the spec fields the API server defaults (testdata), and
// the same with those fields written out as apps/v1's defaulting
// (SetDefaults_Deployment, SetDefaults_StatefulSet, SetDefaults_DaemonSet)
// fills them in.
var handwrittenSets = []struct {
	ref, file, before, defaults, write string
}{
	{"deploy/web", "testdata/handwritten-deployment.yaml", "  replicas: 3\n", "  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 25%\n      maxUnavailable: 25%\n  revisionHistoryLimit: 10\n  progressDeadlineSeconds: 600\n",
		"  - CreateReplicaSet default/web-"},
	{"sts/web", "testdata/handwritten-statefulset.yaml", "  replicas: 3\n",
		"  podManagementPolicy: OrderedReady\n  revisionHistoryLimit: 10\n  updateStrategy:\n    type: RollingUpdate\n    rollingUpdate:\n      partition: 0\n" +
			"  persistentVolumeClaimRetentionPolicy:\n    whenDeleted: Retain\n    whenScaled: Retain\n",
		"  - CreatePod default/web-0\n"},
	{"ds/agent", "testdata/handwritten-daemonset.yaml", "  spec:\n    selector:\n",
		"  spec:\n    revisionHistoryLimit: 10\n    updateStrategy:\n      type: RollingUpdate\n      rollingUpdate:\n        maxUnavailable: 1\n        maxSurge: 0\n",
		"  - CreatePod default/agent-"},
}

// A Deployment, StatefulSet or DaemonSet written by hand without the fields the API
// server defaults is looked at as the server would store it: --explain
// plans its next sync (before, the planner refused the spec: "apply
// model.DefaultStatefulSet to undefaulted input", while --predict, which
// the simulation defaults, worked; the Deployment's kubectl line said
// nothing of its strategy and its prediction printed it blank), and
// status, --explain and --predict
// print what they print for the same set with the defaults written out.
func TestHandwrittenSpecsAreDefaulted(t *testing.T) {
	for _, c := range handwrittenSets {
		t.Run(c.ref, func(t *testing.T) {
			data, err := os.ReadFile(c.file)
			require.NoError(t, err)
			require.Contains(t, string(data), c.before)
			explicit := strings.Replace(string(data), c.before, c.defaults+strings.TrimPrefix(c.before, "  spec:\n"), 1)
			for _, args := range [][]string{{"--explain"}, {}, {"--predict", "--ready-after", "10s"}} {
				args = append([]string{c.ref, "-f", "-"}, args...)
				code, stdout, stderr := clitest.Exec(t, NewCommand, clitest.Options{}, string(data), args...)
				require.Equal(t, 0, code, "%v: %s", args, stderr)
				if args[len(args)-1] == "--explain" {
					require.Contains(t, stdout, c.write)
				}
				code, wantOut, wantErr := clitest.Exec(t, NewCommand, clitest.Options{}, explicit, args...)
				require.Equal(t, 0, code, "%v, defaults written out: %s", args, wantErr)
				require.Equal(t, wantOut, stdout, "%v", args)
				require.Equal(t, wantErr, stderr, "%v", args)
			}
		})
	}
}
