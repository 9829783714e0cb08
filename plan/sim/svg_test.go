package sim

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := "testdata/" + name
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -run %s -update rewrites it); got:\n%s", path, t.Name(), got)
	}
}

// The chart of the nginx story (the default of examples/simulate) and of a
// stalled rollout, checked against golden SVGs (rendered to PNG by
// .ci/steps/20-chart.sh). The checks below say what a reader relies on.
func TestChartGolden(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cfg   Config
		must  []string
		title string
	}{
		{"nginx.svg", Config{
			Deployment: deployment(3, model.RollingUpdateStrategy, "25%", "25%"), Fidelity: Pods, Check: true,
			Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx:1.16.1"), Description: "kubectl set image deployment/nginx nginx=nginx:1.16.1"}}},
		}, []string{
			"time since the first sync (seconds)", ">pods</text>", ">2s</text>",
			"spec</text>", "available</text>", "pods (incl. terminating)", "replicas (desired)",
			"▼ kubectl set image deployment/nginx nginx=nginx:1.16.1",
		}, "nginx: nginx:1.14.2 → nginx:1.16.1"},
		{"stalled.svg", Config{
			Deployment: deployment(10, model.RollingUpdateStrategy, "3", "2"), Fidelity: Counts, Check: true,
			World:  World{NeverReady: NeverReadyImage("nginx:sometag"), ReadyAfter: 5 * time.Second},
			Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx:sometag")}}},
		}, []string{"time since the first sync (minutes)", "STALLED: no change since", "stalled: Progressing=False/ProgressDeadlineExceeded"},
			"nginx: a broken image"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := mustRun(t, tc.cfg)
			var buf bytes.Buffer
			if err := tr.WriteSVG(&buf, tc.title); err != nil {
				t.Fatal(err)
			}
			for _, m := range tc.must {
				if !strings.Contains(buf.String(), m) {
					t.Errorf("chart lacks %q", m)
				}
			}
			golden(t, tc.name, buf.Bytes())
		})
	}
}

func TestChartNeedsSteps(t *testing.T) {
	tr := &Trace{}
	if err := tr.WriteSVG(&bytes.Buffer{}, "x"); err == nil {
		t.Error("no error for an empty trace")
	}
}
