package rollout

import (
	"errors"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// The worked examples of the seeds. kubectl v1.36 names the Deployment in
// its waiting messages ("Waiting for deployment %q rollout to finish"),
// where the seed's older output reads "Waiting for rollout to finish"; the
// numbers are the seed's.
func TestSeedStatus(t *testing.T) {
	deadline := model.DeploymentCondition{Type: model.DeploymentProgressing, Status: model.ConditionFalse, Reason: model.ReasonProgressDeadlineExceeded}
	for _, tc := range []struct {
		name string
		st   model.DeploymentStatus
		msg  string
		done bool
		err  error
	}{
		// Seed 004: "Waiting for rollout to finish: 2 out of 3 new replicas
		// have been updated..."
		{"updating", model.DeploymentStatus{ObservedGeneration: 2, Replicas: 4, UpdatedReplicas: 2, AvailableReplicas: 3},
			"Waiting for deployment \"nginx-deployment\" rollout to finish: 2 out of 3 new replicas have been updated...\n", false, nil},
		// Seed 004: "Waiting for rollout to finish: 2 of 3 updated replicas
		// are available..."
		{"available", model.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 2},
			"Waiting for deployment \"nginx-deployment\" rollout to finish: 2 of 3 updated replicas are available...\n", false, nil},
		// Seed 004: `deployment "nginx-deployment" successfully rolled out`,
		// exit status 0.
		{"done", model.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 3},
			"deployment \"nginx-deployment\" successfully rolled out\n", true, nil},
		// Old pods still terminating: kubectl's third message.
		{"old pending", model.DeploymentStatus{ObservedGeneration: 2, Replicas: 4, UpdatedReplicas: 3, AvailableReplicas: 3},
			"Waiting for deployment \"nginx-deployment\" rollout to finish: 1 old replicas are pending termination...\n", false, nil},
		// Seed 004: `error: deployment "nginx" exceeded its progress
		// deadline`, exit status 1 (here the seed's nginx-deployment).
		{"deadline", model.DeploymentStatus{ObservedGeneration: 2, Replicas: 4, UpdatedReplicas: 2, Conditions: []model.DeploymentCondition{deadline}},
			"", false, &DeadlineExceededError{Deployment: "nginx-deployment"}},
		// Generation 2 not yet observed.
		{"unobserved", model.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 3},
			"Waiting for deployment spec update to be observed...\n", false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, done, err := Status(nginx("nginx:1.16.1", 2, tc.st), 0)
			if msg != tc.msg || done != tc.done || errText(err) != errText(tc.err) {
				t.Errorf("Status = %q, %v, %v; want %q, %v, %v", msg, done, err, tc.msg, tc.done, tc.err)
			}
			if tc.err != nil && !errors.Is(err, ErrDeadlineExceeded) {
				t.Errorf("%v does not match ErrDeadlineExceeded", err)
			}
		})
	}
	_, _, err := Status(nginx("nginx:1.16.1", 2, model.DeploymentStatus{}), 3)
	if !errors.Is(err, ErrRevisionMismatch) || err.Error() != "desired revision (3) is different from the running revision (2)" {
		t.Errorf("Status(revision 3) = %v", err)
	}
	d := nginx("nginx:1.16.1", 2, model.DeploymentStatus{})
	d.Annotations[model.RevisionAnnotation] = "two"
	if _, _, err := Status(d, 1); errText(err) != `cannot get the revision of deployment "nginx-deployment": strconv.ParseInt: parsing "two": invalid syntax` {
		t.Errorf("Status(bad annotation) = %v", err)
	}
}

// Seed 004, "Checking Rollout History of a Deployment": the table lists the
// three revisions with the change causes copied from the
// kubernetes.io/change-cause annotation.
func TestSeedHistory(t *testing.T) {
	d, rss := nginxHistory()
	got, err := History(d, rss)
	want := "REVISION  CHANGE-CAUSE\n" +
		"1         kubectl apply --filename=https://k8s.io/examples/controllers/nginx-deployment.yaml\n" +
		"2         kubectl set image deployment.v1.apps/nginx-deployment nginx=nginx:1.16.1\n" +
		"3         kubectl set image deployment.v1.apps/nginx-deployment nginx=nginx:1.161\n"
	if err != nil || got != want {
		t.Errorf("History =\n%s%v\nwant\n%s", got, err, want)
	}
	// "kubectl rollout history deployment.v1.apps/nginx-deployment
	// --revision=2" shows that revision's template with its change cause.
	got, err = HistoryRevision(d, rss, 2)
	want = "Pod Template:\n  Labels:\tapp=nginx\n\tpod-template-hash=c4747d96c\n" +
		"  Annotations:\tkubernetes.io/change-cause: kubectl set image deployment.v1.apps/nginx-deployment nginx=nginx:1.16.1\n" +
		"  Containers:\n   nginx:\n    Image:\tnginx:1.16.1\n    Port:\t80/TCP\n    Host Port:\t0/TCP\n" +
		"    Environment:\t<none>\n    Mounts:\t<none>\n  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n"
	if err != nil || got != want {
		t.Errorf("HistoryRevision(2) =\n%q %v\nwant\n%q", got, err, want)
	}
	if _, err := HistoryRevision(d, rss, 7); !errors.Is(err, ErrUnknownRevision) {
		t.Errorf("HistoryRevision(7) = %v", err)
	}
	// Seed 004, after the pause: one revision without a cause prints
	// "1   <none>" (kubectl's tabwriter pads to two spaces).
	rs := revisionRS(d, "nginx:1.14.2", 1, "75675f5897", "")
	if got, _ := History(d, []*model.ReplicaSet{rs}); got != "REVISION  CHANGE-CAUSE\n1         <none>\n" {
		t.Errorf("History(one) = %q", got)
	}
	if got, err := History(d, nil); got != NoHistory || err != nil {
		t.Errorf("History(none) = %q, %v", got, err)
	}
}

// Seed 004, "Rolling Back to a Previous Revision": undo goes back to
// revision 2 (nginx:1.16.1), and --to-revision=2 does the same; seed 003:
// the patch replaces the template (without its pod-template-hash label)
// and the annotations.
func TestSeedUndo(t *testing.T) {
	d, rss := nginxHistory()
	d.Annotations["team"] = "web" // not the target's: removed by the patch
	for _, rev := range []int64{0, 2} {
		r, err := Undo(d, rss, rev, nil)
		if err != nil || r.Output != RolledBack || r.Target != rss[1] {
			t.Fatalf("Undo(%d) = %+v, %v", rev, r, err)
		}
		want := `[{"op":"replace","path":"/spec/template","value":{"metadata":{"labels":{"app":"nginx"}},"spec":{"containers":[{"image":"nginx:1.16.1","name":"nginx","ports":[{"containerPort":80,"protocol":"TCP"}]}]}}},` +
			`{"op":"replace","path":"/metadata/annotations","value":{"deployment.kubernetes.io/revision":"3","kubernetes.io/change-cause":"kubectl set image deployment.v1.apps/nginx-deployment nginx=nginx:1.16.1"}}]`
		if string(r.Patch) != want {
			t.Errorf("Undo(%d) patch\n%s\nwant\n%s", rev, r.Patch, want)
		}
	}
	r, err := Undo(d, rss, 3, nil)
	if err != nil || r.Output != "skipped rollback (current template already matches revision 3)" || r.Patch != nil {
		t.Errorf("Undo(3) = %+v, %v", r, err)
	}
	if _, err := Undo(d, rss, 9, nil); errText(err) != "unable to find specified revision 9 in history" {
		t.Errorf("Undo(9) = %v", err)
	}
	if _, err := Undo(d, rss[2:], 0, nil); errText(err) != `no rollout history found for deployment "nginx-deployment"` {
		t.Errorf("Undo(no previous) = %v", err)
	}
	d.Spec.Paused = true
	if _, err := Undo(d, rss, 0, nil); errText(err) != "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again" {
		t.Errorf("Undo(paused) = %v", err)
	}
	// A client dry run ignores the pause and prints the stored template.
	if out, err := UndoDryRun(d, rss, 1); err != nil || out[:len("Pod Template:")] != "Pod Template:" {
		t.Errorf("UndoDryRun(paused) = %q, %v", out, err)
	}
}

// Seed 003 (defaultObjectPauser): pausing a paused Deployment fails with
// "is already paused"; seed 004: pause, then resume.
func TestSeedPauseResumeRestart(t *testing.T) {
	d := nginx("nginx:1.16.1", 2, model.DeploymentStatus{})
	if p, err := Pause(d); err != nil || string(p) != `{"spec":{"paused":true}}` {
		t.Errorf("Pause = %s, %v", p, err)
	}
	if _, err := Resume(d); !errors.Is(err, ErrNotPaused) || err.Error() != "is not paused" {
		t.Errorf("Resume(running) = %v", err)
	}
	restart := `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-03-01T10:00:00Z"}}}}}`
	if p, err := Restart(d, t0); err != nil || string(p) != restart {
		t.Errorf("Restart = %s, %v", p, err)
	}
	d.Spec.Template.Annotations = map[string]string{model.RestartedAtAnnotation: "2026-03-01T10:00:00Z"}
	if p, err := Restart(d, t0); err != nil || string(p) != "{}" {
		t.Errorf("Restart(same second) = %s, %v", p, err)
	}
	d.Spec.Paused = true
	if _, err := Pause(d); !errors.Is(err, ErrAlreadyPaused) || err.Error() != "is already paused" {
		t.Errorf("Pause(paused) = %v", err)
	}
	if p, err := Resume(d); err != nil || string(p) != `{"spec":{"paused":null}}` {
		t.Errorf("Resume = %s, %v", p, err)
	}
	if _, err := Restart(d, t0); errText(err) != "can't restart paused deployment (run rollout resume first)" {
		t.Errorf("Restart(paused) = %v", err)
	}
}

// Seed 004's nginx rollout (3 replicas, 25 %/25 %): new→1, old→2, new→2,
// old→1, new→3, old→0, with at most 4 pods and never fewer than 3
// available.
func TestSeedLint(t *testing.T) {
	d := nginx("nginx:1.16.1", 2, model.DeploymentStatus{})
	r, err := Lint(d, LintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.MaxSurge != 1 || r.MaxUnavailable != 0 || r.PeakPods != 4 || r.MinAvailable != 3 || r.Steps != 6 || !r.Completed || len(r.Findings) != 0 {
		t.Errorf("Lint = %+v", r)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
