package statefulset

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
)

// FuzzSync plans any JSON-decoded state: Sync never panics; it returns
// either a validation error with a zero Plan, or a plan (with a *SyncError
// or none) that has a note when it has no action and is planned again
// identically. Sets over 64 replicas are skipped (a Parallel set creates
// every missing pod in one sync).
func FuzzSync(f *testing.F) {
	seeds := []State{
		state(mkSet(3, claimsFrom("www")), nil, nil),
		state(mkSet(3, template("v2"), status(revName("v1"), revName("v2"), 3)), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1", notReady), mkPod(2, "v2")}, []*model.ControllerRevision{v1(), v2()}),
		state(mkSet(1, parallel, claimsFrom("data"), retain(model.DeletePersistentVolumeClaimRetentionPolicyType, model.DeletePersistentVolumeClaimRetentionPolicyType)),
			[]*model.Pod{mkPod(0, "v1", orphan), mkPod(1, "v1", failed), mkPod(2, "v1", terminating)}, []*model.ControllerRevision{v1()}, claim("data", 0), claim("data", 2)),
	}
	for _, s := range seeds {
		b, err := json.Marshal(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var s State
		if json.Unmarshal(doc, &s) != nil {
			return
		}
		if s.StatefulSet != nil && (s.StatefulSet.Spec.Replicas == nil || *s.StatefulSet.Spec.Replicas > 64) {
			return
		}
		p, err := Sync(s)
		var se *SyncError
		var ve *model.ValidationError
		switch {
		case errors.As(err, &ve):
			if !cmp.Equal(p, Plan{}) {
				t.Fatalf("invalid input with a plan: %v", p)
			}
			return
		case err != nil && !errors.As(err, &se):
			t.Fatalf("an error that is neither invalid input nor a SyncError: %v", err)
		}
		if len(p.Actions) == 0 && len(p.Notes) == 0 {
			t.Fatal("a plan without actions has no note")
		}
		again, _ := Sync(s)
		if d := cmp.Diff(p, again); d != "" {
			t.Fatalf("planned twice differently:\n%s", d)
		}
	})
}
