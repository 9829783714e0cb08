package replicaset

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// TestPodListedByKindNameAndUID: upstream's ReplicaSet controller looks its
// pods up by the controller reference's kind, name and UID. A pod whose
// reference carries the ReplicaSet's UID under another name or kind is not
// its pod: not counted, not released, not deleted.
func TestPodListedByKindNameAndUID(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*model.OwnerReference)
	}{
		{"other name", func(r *model.OwnerReference) { r.Name = "web-old" }},
		{"other kind", func(r *model.OwnerReference) { r.Kind = "StatefulSet" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs := mkRS("web", 1)
			own := mkPod("web-a", ownedBy(rs))
			decoy := mkPod("web-b", ownedBy(rs))
			c.edit(&decoy.OwnerReferences[0])
			p, err := Sync(rs, []*model.Pod{own, decoy}, nil, t0)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Actions) != 1 || p.Actions[0].Kind != UpdateReplicaSetStatus {
				t.Errorf("actions %+v, want only the status update", p.Actions)
			}
			if p.Status.Replicas != 1 {
				t.Errorf("status.replicas %d, want 1 (the decoy is not this ReplicaSet's)", p.Status.Replicas)
			}
		})
	}
}
