package sim

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// The image change waits for the first rollout: with pods ready after 20s
// and minReadySeconds 10, an image change at a fixed sync used to fire with
// 0 of 3 pods available, and the summary mixed both rollouts (minimum
// available 0). Fired WhenComplete, it sees 3/3 available, and the summary
// describes the second rollout alone: 25%/25% of 3 keeps at least
// 3 − maxUnavailable 0 = 3 available, and at most 3 + maxSurge 1 = 4 pods.
func TestImageChangeWaitsForTheFirstRollout(t *testing.T) {
	for _, fid := range fidelities() {
		t.Run(fid.String(), func(t *testing.T) {
			d := deployment(3, model.RollingUpdateStrategy, "25%", "25%")
			d.Spec.MinReadySeconds = 10
			tr := mustRun(t, Config{
				Deployment: d, Fidelity: fid, Check: true,
				World:  World{ReadyAfter: 20 * time.Second},
				Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx:1.16.1")}}},
			})
			var fired *Step
			for i := range tr.Steps {
				if len(tr.Steps[i].User) > 0 {
					fired = &tr.Steps[i]
					break
				}
			}
			if fired == nil {
				t.Fatal("the image change never fired")
			}
			// The pods became ready at 0:20 and available after 10 more
			// seconds: the first rollout cannot be complete before 0:31.
			if at := fired.Time.Sub(tr.Steps[0].Time); at < 31*time.Second {
				t.Errorf("image changed at +%s, before the first rollout could complete", at)
			}
			s := tr.Summary
			if s.From != fired.Time.Sub(tr.Steps[0].Time) || !s.Completed || s.MinAvailable != 3 || s.PeakPods != 4 {
				t.Errorf("summary %+v: want the second rollout alone (from the change, min available 3, peak 4)", s)
			}
			// Two rollouts of 20s readiness + 10s minReady each.
			if s.CompletedAfter < 60*time.Second || s.CompletedAfter > 3*time.Minute {
				t.Errorf("second rollout took %s, want between 1m and 3m", s.CompletedAfter)
			}
		})
	}
}

// Events at a time fire at the first sync at or after it, even when the
// cluster is idle before: the clock jumps there.
func TestEventAtTimeJumpsTheClock(t *testing.T) {
	tr := mustRun(t, Config{
		Deployment: deployment(3, model.RollingUpdateStrategy, "25%", "25%"),
		Script:     []Event{{At: time.Hour, Action: Action{Kind: ScaleTo, Replicas: 5}}},
	})
	for _, s := range tr.Steps {
		if len(s.User) > 0 {
			if got := s.Time.Sub(tr.Steps[0].Time); got != time.Hour {
				t.Errorf("scaled at +%s, want +1h", got)
			}
			return
		}
	}
	t.Fatal("the scale never fired")
}

// A WhenComplete event after a rollout that stalls never fires; the summary
// counts it and reports the stall.
func TestUnfiredEventsAreReported(t *testing.T) {
	tr := mustRun(t, Config{
		Deployment: deployment(3, model.RollingUpdateStrategy, "25%", "25%"),
		World:      World{NeverReady: NeverReadyImage("broken")},
		Script: []Event{
			{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("broken")}},
			{When: WhenComplete, Action: Action{Kind: ScaleTo, Replicas: 5}},
		},
	})
	s := tr.Summary
	if s.Unfired != 1 || !s.Stalled || !strings.Contains(s.StallReason, "ProgressDeadlineExceeded") {
		t.Errorf("summary %+v: want 1 unfired event and a stall at the progress deadline", s)
	}
}

func TestScriptTriggerValidated(t *testing.T) {
	_, err := Run(Config{Deployment: deployment(1, model.RecreateStrategy, "", ""), Script: []Event{{When: 9}}})
	if err == nil || !strings.Contains(err.Error(), "Config.Script[0].When") {
		t.Errorf("err = %v, want the field named", err)
	}
	_, err = Run(Config{Deployment: deployment(1, model.RecreateStrategy, "", ""), Script: []Event{{At: -time.Second}}})
	if err == nil || !strings.Contains(err.Error(), "Config.Script[0].At") {
		t.Errorf("err = %v, want the field named", err)
	}
}

// Config.MaxWork stops a simulation that models more than it allows.
func TestWorkBound(t *testing.T) {
	_, err := Run(Config{
		Deployment: deployment(2000, model.RollingUpdateStrategy, "25%", "25%"),
		Fidelity:   Pods, MaxWork: 1_000, Record: RecordSummary,
	})
	if !errors.Is(err, ErrWorkBound) {
		t.Errorf("err = %v, want ErrWorkBound", err)
	}
}
