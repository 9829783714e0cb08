package simulate

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/next"
)

// simulate names the new ReplicaSet of a Deployment as next does, and as
// the cluster does: the hash of its template as the API server stores it,
// with its defaults. The Kubernetes documentation's nginx-deployment.yaml
// (a manifest: the defaults are the reader's) gets nginx-deployment-6c5f67b5f7:
// the recorded scenario hash-collision (testdata/conformance/scenarios,
// step 0) has the upstream controller create nginx-6c5f67b5f7 for the same
// template as stored, defaults included. Before, simulate and status
// --predict named it with rolloutplan's own hash of the model
// (nginx-deployment-cf9b99cf), next with
// upstream's.
func TestNewReplicaSetNamedAsNextNamesIt(t *testing.T) {
	for _, c := range []struct {
		file, want string
	}{
		{"nginx-deployment.yaml", "nginx-deployment-6c5f67b5f7"},
		// A Deployment read from the cluster, mid-rollout of a new template.
		{"web-deployment.json", ""},
	} {
		t.Run(c.file, func(t *testing.T) {
			code, stdout, stderr := clitest.Exec(t, next.NewCommand, clitest.Options{}, "", "-f", clitest.Data+c.file)
			require.Equal(t, exitOK, code, stderr)
			var plan struct {
				Actions []struct{ Verb, Resource, Name string }
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &plan))
			var fromNext []string
			for _, a := range plan.Actions {
				if a.Verb == "create" && a.Resource == "replicasets" {
					fromNext = append(fromNext, a.Name)
				}
			}
			require.Len(t, fromNext, 1, "next creates the new ReplicaSet: %s", stdout)

			code, stdout, stderr = clitest.Exec(t, NewCommand, clitest.Options{}, "", "-f", clitest.Data+c.file, "--ready-after", "0s", "-o", "json")
			require.Equal(t, exitOK, code, stderr)
			var res struct {
				Trace struct {
					Steps []struct {
						Writes []struct{ Kind, Name string }
					}
				}
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &res))
			var fromSimulate []string
			for _, s := range res.Trace.Steps {
				for _, w := range s.Writes {
					if w.Kind == "CreateReplicaSet" {
						fromSimulate = append(fromSimulate, w.Name)
					}
				}
			}
			require.Equal(t, fromNext, fromSimulate, "the ReplicaSets next and simulate create")
			if c.want != "" {
				require.Equal(t, c.want, fromNext[0])
			}
		})
	}
}
