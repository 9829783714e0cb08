package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
)

// The nginx image update of the Kubernetes Deployment documentation (seed
// 004; conformance scenario rolling-update-nginx-3): 3 replicas, 25%/25%,
// every pod available at once. The documented ScalingReplicaSet sequence is
// new→1, old→2, new→2, old→1, new→3, old→0.
func TestNginxImageUpdate(t *testing.T) {
	for _, fid := range fidelities() {
		t.Run(fid.String(), func(t *testing.T) {
			tr := mustRun(t, Config{
				Deployment: deployment(3, model.RollingUpdateStrategy, "25%", "25%"),
				Script:     []Event{setImage(3, "nginx:1.16.1")},
				Fidelity:   fid, Check: true,
			})
			want := []string{"new->1", "old->2", "new->2", "old->1", "new->3", "old->0"}
			if diff := cmp.Diff(want, scalingEvents(t, tr, 3)); diff != "" {
				t.Errorf("scaling events (-want +got):\n%s", diff)
			}
			if n, o := finalSizes(tr); n != 3 || o != 0 {
				t.Errorf("final sizes new=%d old=%d, want 3/0", n, o)
			}
			s := tr.Summary
			if !s.Completed || s.Stalled || s.MinAvailable != 3 || s.PeakActive != 4 {
				t.Errorf("summary %+v: want completed, min available 3 (maxUnavailable 0), peak 4 active (maxSurge 1)", s)
			}
		})
	}
}

// The proportional-scaling example of the Deployment documentation (seed
// 004; conformance scenario proportional-scaling-blocked-rollout): 10
// replicas, maxSurge 3, maxUnavailable 2, an image that never becomes
// ready. The rollout blocks at 5 new / 8 old; scaling to 15 spreads the 5
// extra replicas proportionally: 7 new / 11 old.
func TestProportionalScalingOfABlockedRollout(t *testing.T) {
	for _, fid := range fidelities() {
		t.Run(fid.String(), func(t *testing.T) {
			cfg := Config{
				Deployment: deployment(10, model.RollingUpdateStrategy, "3", "2"),
				World:      World{NeverReady: NeverReadyImage("nginx:sometag")},
				Script:     []Event{setImage(3, "nginx:sometag")},
				Fidelity:   fid, Check: true,
			}
			tr := mustRun(t, cfg)
			if n, o := finalSizes(tr); n != 5 || o != 8 {
				t.Errorf("blocked rollout new=%d old=%d, want 5/8", n, o)
			}
			if !tr.Summary.Stalled || !strings.Contains(tr.Summary.StallReason, "ProgressDeadlineExceeded") {
				t.Errorf("want a stall reported with the progress deadline, got %+v", tr.Summary)
			}
			cfg.Script = append(cfg.Script, Event{When: WhenStalled, Action: Action{Kind: ScaleTo, Replicas: 15}})
			tr = mustRun(t, cfg)
			if n, o := finalSizes(tr); n != 7 || o != 11 {
				t.Errorf("after scaling to 15 new=%d old=%d, want 7/11", n, o)
			}
		})
	}
}

// Recreate (seed 004, conformance scenario recreate): every old pod is
// stopped first; the new ReplicaSet is created only once no old pod runs,
// and then with all 3 replicas at once.
func TestRecreateWaitsForOldPods(t *testing.T) {
	for _, fid := range fidelities() {
		t.Run(fid.String(), func(t *testing.T) {
			tr := mustRun(t, Config{
				Deployment: deployment(3, model.RecreateStrategy, "", ""),
				Script:     []Event{setImage(3, "nginx:1.16.1")},
				World:      World{TerminationGrace: 30 * time.Second, ReadyAfter: 5 * time.Second},
				Fidelity:   fid, Check: true,
			})
			if diff := cmp.Diff([]string{"old->0", "new->3"}, scalingEvents(t, tr, 3)); diff != "" {
				t.Errorf("scaling events (-want +got):\n%s", diff)
			}
			var scaledDown, created time.Time
			for _, s := range tr.Steps {
				for _, e := range s.Events {
					switch {
					case strings.HasPrefix(e.Message, "Scaled down"):
						scaledDown = s.Time
					case strings.HasPrefix(e.Message, "Scaled up") && s.Sync >= 3:
						created = s.Time
					}
				}
				if created.IsZero() && !scaledDown.IsZero() && s.Pods.Terminating == 0 && s.Pods.Active > 0 {
					t.Errorf("sync %d: old pods still counted while none terminate: %+v", s.Sync, s.Pods)
				}
			}
			if got := created.Sub(scaledDown); got < 30*time.Second {
				t.Errorf("new ReplicaSet created %s after the scale-down, want at least the 30s grace period", got)
			}
			if tr.Summary.PeakActive > 3 || !tr.Summary.Completed {
				t.Errorf("summary %+v: want never more than 3 active pods and completion", tr.Summary)
			}
		})
	}
}

// kubectl rollout undo (seed 004 "Rolling Back a Deployment", rollback):
// after a rollout to a broken image, undo brings revision 1's template back;
// the old ReplicaSet becomes the new one again with revision 3.
func TestRollbackStory(t *testing.T) {
	for _, fid := range fidelities() {
		t.Run(fid.String(), func(t *testing.T) {
			tr := mustRun(t, Config{
				Deployment: deployment(3, model.RollingUpdateStrategy, "25%", "25%"),
				World:      World{NeverReady: NeverReadyImage("nginx:1.161")},
				Script: []Event{
					setImage(3, "nginx:1.161"),
					{At: 10 * time.Second, Action: Action{Kind: UndoRollout}},
				},
				Fidelity: fid, Check: true,
			})
			last := tr.Steps[len(tr.Steps)-1]
			var revisions []string
			for _, rs := range last.Sets {
				revisions = append(revisions, rs.Name+"@"+rs.Revision)
				if rs.New && (rs.Revision != "3" || rs.Spec != 3 || rs.Available != 3) {
					t.Errorf("new ReplicaSet %+v: want revision 3 with 3 available", rs)
				}
				if !rs.New && rs.Spec != 0 {
					t.Errorf("old ReplicaSet %+v still has replicas", rs)
				}
			}
			if len(last.Sets) != 2 || !tr.Summary.Completed {
				t.Errorf("want two ReplicaSets and a completed rollback, got %v, %+v", revisions, tr.Summary)
			}
		})
	}
}

// The legacy rollback annotation (conformance scenario rollback-annotation):
// the controller copies revision 1's template into the Deployment, clears
// the annotation and rolls the old ReplicaSet forward as revision 3.
func TestRollbackAnnotationStory(t *testing.T) {
	tr := mustRun(t, Config{
		Deployment: deployment(3, model.RollingUpdateStrategy, "25%", "25%"),
		Script: []Event{
			setImage(3, "nginx:1.16.1"),
			{At: 11 * time.Second, Action: Action{Kind: AnnotateRollback, Revision: 1}},
		},
		Check: true,
	})
	var rolledBack bool
	for _, s := range tr.Steps {
		for _, e := range s.Events {
			if e.Reason == model.EventDeploymentRollback && e.Message == `Rolled back deployment "nginx" to revision 1` {
				rolledBack = true
			}
		}
	}
	last := tr.Steps[len(tr.Steps)-1]
	for _, rs := range last.Sets {
		if rs.New && (rs.Revision != "3" || rs.Spec != 3) {
			t.Errorf("new ReplicaSet %+v: want the old template back as revision 3", rs)
		}
	}
	if !rolledBack || !tr.Summary.Completed {
		t.Errorf("want a DeploymentRollback event and completion, got %+v", tr.Summary)
	}
}
