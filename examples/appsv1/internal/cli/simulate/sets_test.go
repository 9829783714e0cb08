package simulate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// statefulSet is public state sts-s1-0166 (web, mid-rollout: web-5 to be
// replaced, then web-4 down to web-0) as kubectl get prints it.
const statefulSet = clitest.Data + "web-statefulset.yaml"

// A StatefulSet's rollout is simulated pod by pod with sim.RunStatefulSet:
// the timeline by ordinal and revision, the prediction, the chart, and
// the exit codes of a Deployment's.
func TestSimulateStatefulSet(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "web.svg")
	code, stdout, stderr := clitest.Exec(t, NewCommand, clitest.Options{}, "", "sts/web", "-f", statefulSet, "--ready-after=10s", "--svg", svg)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"StatefulSet prod/web at 2025-02-07T07:11:58Z: 6 replicas, OrderedReady, RollingUpdate partition 0; pods ready 10s after creation\n\n",
		"revisions: A web-5d5c7b9fc7 (revision 1), B web-8948ffb8 (revision 2), C web-5674ddc769 (revision 3)\n",
		"    0     +0:00       0     5     6     5/6  AAAAA-    web-5 is at revision \"web-8948ffb8\", not web-5674ddc769: the rolling update replaces it (highest ordinal first, down to partition 0)\n",
		"   24     +1:06       6     0     6     6/6  CCCCCC    pods: web-0 Running and Ready; currentRevision → web-5674ddc769 (C)\n",
		"0 invariant violations\n\nprediction: the rollout completes in 1m6s (at 2025-02-07T07:13:04Z), after 24 syncs\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if want := "Time: 2025-02-07T07:11:58Z (the latest timestamp in the snapshot; --now sets another)\nchart written to " + svg + "\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	if b, err := os.ReadFile(svg); err != nil || !bytes.HasPrefix(b, []byte("<svg")) {
		t.Errorf("chart: %v", err)
	}

	// The new template never becomes ready: OrderedReady stops at the
	// first replaced pod (the seed's broken rollout), exit 3.
	code, stdout, _ = clitest.Exec(t, NewCommand, clitest.Options{}, "", "sts/web", "-f", statefulSet, "--ready-after=10s", "--never-ready")
	if code != exitStalled || !strings.Contains(stdout, "prediction: the rollout stalls after ") || !strings.Contains(stdout, "web-5 is not Running and Ready") {
		t.Errorf("never ready: exit %d:\n%s", code, stdout)
	}

	// -o json: the prediction and the StatefulSet's trace.
	code, stdout, _ = clitest.Exec(t, NewCommand, clitest.Options{}, "", "web", "-f", statefulSet, "-o", "json")
	var res struct {
		StatefulSet string `json:"statefulSet"`
		Prediction  struct {
			Completed bool `json:"completed"`
			Syncs     int  `json:"syncs"`
		} `json:"prediction"`
		Trace struct {
			Steps []struct {
				Ordinals string `json:"ordinals"`
			} `json:"steps"`
		} `json:"trace"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v:\n%s", code, err, stdout)
	}
	if res.StatefulSet != "prod/web" || !res.Prediction.Completed || len(res.Trace.Steps) == 0 || res.Trace.Steps[0].Ordinals != "AAAAA-" {
		t.Errorf("-o json: %+v", res)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sts/web", "--fidelity=counts"}, "--fidelity applies to Deployments: a StatefulSet is simulated pod by pod"},
		{[]string{"replicaset/x"}, `argument "replicaset/x"`},
	} {
		code, _, stderr := clitest.Exec(t, NewCommand, clitest.Options{}, "", append(tc.args, "-f", statefulSet)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q", tc.args, code, stderr)
		}
	}

	// --max-work bounds a StatefulSet's simulation as a Deployment's
	// (issue 24: it was refused, and the run unbounded).
	code, _, stderr = clitest.Exec(t, NewCommand, clitest.Options{}, "", "sts/web", "--max-work=10", "-f", statefulSet)
	if code != exitFail || !strings.Contains(stderr, "sim: work bound exceeded") ||
		!strings.Contains(stderr, "(--max-work 10: the rollout models too many pods over too many syncs: raise --max-work)") {
		t.Errorf("--max-work=10: exit %d, stderr %q", code, stderr)
	}
}
