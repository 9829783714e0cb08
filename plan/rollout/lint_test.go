package rollout

import (
	"fmt"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// Over a grid of sizes, fenceposts and readiness delays, the simulated
// rolling update keeps the controller's promises: it completes, never runs
// more than replicas + maxSurge active pods (terminating ones come on top
// only with a grace period, none here), never has fewer than replicas −
// maxUnavailable available, and takes at least one scale-up and one
// scale-down step (two with Recreate).
func TestLintGrid(t *testing.T) {
	values := []string{"0", "1", "2", "25%", "50%", "100%"}
	n := 0
	for replicas := int32(1); replicas <= 12; replicas += 1 + replicas/4 {
		for _, surge := range values {
			for _, unavailable := range values {
				if model.ParseIntOrString(surge).IsZeroLiteral() && model.ParseIntOrString(unavailable).IsZeroLiteral() {
					continue // rejected by validation
				}
				for _, ready := range []time.Duration{0, 7 * time.Second} {
					d := nginx("nginx:1.16.1", 2, model.DeploymentStatus{})
					d.Spec.Replicas = model.Int32Ptr(replicas)
					d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{
						MaxSurge: model.IntOrStringPtr(model.ParseIntOrString(surge)), MaxUnavailable: model.IntOrStringPtr(model.ParseIntOrString(unavailable))}
					name := fmt.Sprintf("%d/%s/%s/%s", replicas, surge, unavailable, ready)
					r, err := Lint(d, LintOptions{ReadyAfter: ready})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if !r.Completed || r.PeakPods > replicas+r.MaxSurge || r.MinAvailable < replicas-r.MaxUnavailable || r.Steps < 2 {
						t.Errorf("%s: %+v", name, r)
					}
					n++
				}
			}
		}
	}
	t.Logf("%d strategies simulated", n)
}

func TestLintRecreate(t *testing.T) {
	d := nginx("nginx:1.16.1", 2, model.DeploymentStatus{})
	d.Spec.Strategy = model.Strategy{Type: model.RecreateStrategy}
	r, err := Lint(d, LintOptions{ReadyAfter: 5 * time.Second, TerminationGrace: 10 * time.Second, MinAvailable: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Old pods stop (10 s), then three new ones start and are ready 5 s
	// later: no pod is available in between, and never more than 3 run.
	if !r.Completed || r.MinAvailable != 0 || r.PeakPods != 3 || r.Steps != 2 {
		t.Errorf("Recreate: %+v", r)
	}
	codes := map[FindingCode]bool{}
	for _, f := range r.Findings {
		codes[f.Code] = true
	}
	if !codes[FindingFullUnavailability] || !codes[FindingBelowMinAvailable] {
		t.Errorf("Recreate findings %+v", r.Findings)
	}
	d.Spec.Paused = true
	if r, _ := Lint(d, LintOptions{}); len(r.Findings) == 0 || r.Findings[0].Code != FindingPaused {
		t.Errorf("paused findings %+v", r.Findings)
	}
	bad := nginx("nginx:1.16.1", 2, model.DeploymentStatus{})
	bad.Spec.Replicas = model.Int32Ptr(-1)
	if _, err := Lint(bad, LintOptions{}); err == nil {
		t.Error("Lint accepted replicas -1")
	}
}
