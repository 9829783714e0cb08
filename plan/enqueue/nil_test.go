package enqueue_test

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/enqueue"
)

// Nil objects, nil entries in the caches and zero values never panic and
// wake nothing.
func TestNilsWakeNothing(t *testing.T) {
	c := enqueue.Cache{Deployments: []*model.Deployment{nil}, ReplicaSets: []*model.ReplicaSet{nil}, Pods: []*model.Pod{nil}}
	p := pod("p", lbl("app", "re"), ownedBy("ReplicaSet", "re-old", "re-old"))
	r := rs("r", "r", "1", lbl("app", "web"), nil)
	checks := map[string][]string{
		"AddReplicaSet(nil)":            enqueue.AddReplicaSet(nil, c),
		"AddReplicaSet(orphan)":         enqueue.AddReplicaSet(r, c),
		"UpdateReplicaSet(nil, nil)":    enqueue.UpdateReplicaSet(nil, nil, c),
		"UpdateReplicaSet(nil, r)":      enqueue.UpdateReplicaSet(nil, r, c),
		"AddDeployment(nil)":            enqueue.AddDeployment(nil),
		"DeploymentsForReplicaSet(nil)": keysOf(enqueue.DeploymentsForReplicaSet(nil, c)),
	}
	got, err := enqueue.DeletePod(p, c)
	checks["DeletePod"] = got
	if err != nil {
		t.Errorf("DeletePod: %v", err)
	}
	for name, keys := range checks {
		if len(keys) != 0 {
			t.Errorf("%s = %v, want nothing", name, keys)
		}
	}
	if d := enqueue.DeploymentForPod(nil, c); d != nil {
		t.Errorf("DeploymentForPod(nil) = %v", d)
	}
	if _, err := enqueue.DeletePod((*model.Pod)(nil), c); err == nil {
		t.Error("DeletePod of a nil *Pod: no error")
	}
	if _, err := enqueue.DeleteDeployment(enqueue.Tombstone{}); err == nil {
		t.Error("DeleteDeployment of an empty tombstone: no error")
	}
}

func keysOf(ds []*model.Deployment) []string {
	var out []string
	for _, d := range ds {
		out = append(out, enqueue.Key(&d.ObjectMeta))
	}
	return out
}
