package enqueue_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/enqueue"
)

// recreateCache: Recreate Deployment re (uid re) with old ReplicaSet re-old
// and new ReplicaSet re-new, a RollingUpdate Deployment ru with ru-1, and the
// pods given.
func recreateCache(pods ...*model.Pod) enqueue.Cache {
	return enqueue.Cache{
		Deployments: []*model.Deployment{
			dep("re", "re", model.RecreateStrategy, lbl("app", "re")),
			dep("ru", "ru", model.RollingUpdateStrategy, lbl("app", "ru")),
		},
		ReplicaSets: []*model.ReplicaSet{
			rs("re-old", "re-old", "1", lbl("app", "re", "h", "old"), ownedBy("Deployment", "re", "re")),
			rs("re-new", "re-new", "1", lbl("app", "re", "h", "new"), ownedBy("Deployment", "re", "re")),
			rs("ru-1", "ru-1", "1", lbl("app", "ru"), ownedBy("Deployment", "ru", "ru")),
			rs("orphan", "orphan", "1", lbl("app", "re"), nil),
		},
		Pods: pods,
	}
}

func TestDeletePod(t *testing.T) {
	oldPod := func(name string) *model.Pod {
		return pod(name, lbl("app", "re", "h", "old"), ownedBy("ReplicaSet", "re-old", "re-old"))
	}
	terminating := oldPod("t")
	terminating.DeletionTimestamp = model.TimePtr(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	cases := []struct {
		name    string
		deleted any
		cache   enqueue.Cache
		want    []string
		wantErr bool
	}{
		// Seed 003: "Deployment 相关的 Pod 数量为 0 时,Pod 的删除事件" triggers a sync;
		// seed 000, deletePod: owner is an rs owned by a deployment, strategy Recreate, pod count 0.
		{"last old pod of a Recreate deployment", oldPod("a"), recreateCache(), []string{"ns/re"}, false},
		{"tombstone of the last pod", enqueue.Tombstone{Key: "ns/a", Obj: oldPod("a")}, recreateCache(), []string{"ns/re"}, false},
		{"another old pod remains", oldPod("a"), recreateCache(oldPod("b")), nil, false},
		// Every pod of the Deployment counts, a terminating one included.
		{"a terminating pod remains", oldPod("a"), recreateCache(terminating), nil, false},
		{"a new pod exists", oldPod("a"), recreateCache(pod("n", lbl("app", "re", "h", "new"), ownedBy("ReplicaSet", "re-new", "re-new"))), nil, false},
		// Pods not controlled by one of the Deployment's ReplicaSets do not count.
		{"only an orphan pod remains", oldPod("a"), recreateCache(pod("o", lbl("app", "re"), nil)), []string{"ns/re"}, false},
		{"only a pod of an orphan replicaset remains", oldPod("a"), recreateCache(pod("o", lbl("app", "re"), ownedBy("ReplicaSet", "orphan", "orphan"))), []string{"ns/re"}, false},
		// The pod index is by controller reference: a pod's labels do not matter.
		{"a relabelled pod of the old ReplicaSet remains", oldPod("a"), recreateCache(pod("o", lbl("app", "zz"), ownedBy("ReplicaSet", "re-old", "re-old"))), nil, false},
		{"only a pod naming the old ReplicaSet with a stale UID remains", oldPod("a"), recreateCache(pod("o", lbl("app", "re"), ownedBy("ReplicaSet", "re-old", "stale"))), []string{"ns/re"}, false},
		// Seed 000: "再检查该 deployment 的更新策略是否是 Recreate".
		{"RollingUpdate deployment: never", pod("r", lbl("app", "ru"), ownedBy("ReplicaSet", "ru-1", "ru-1")), recreateCache(), nil, false},
		// getDeploymentForPod: controller ref only, kind ReplicaSet, UID checked, RS must be owned.
		{"orphan pod", pod("o", lbl("app", "re"), nil), recreateCache(), nil, false},
		{"pod of another kind", pod("o", lbl("app", "re"), ownedBy("StatefulSet", "re-old", "re-old")), recreateCache(), nil, false},
		{"pod of a replicaset with another uid", pod("o", lbl("app", "re"), ownedBy("ReplicaSet", "re-old", "stale")), recreateCache(), nil, false},
		{"pod of a missing replicaset", pod("o", lbl("app", "re"), ownedBy("ReplicaSet", "gone", "gone")), recreateCache(), nil, false},
		{"pod of an orphan replicaset", pod("o", lbl("app", "re"), ownedBy("ReplicaSet", "orphan", "orphan")), recreateCache(), nil, false},
		{"not a pod", rs("x", "x", "1", nil, nil), recreateCache(), nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := enqueue.DeletePod(tc.deleted, tc.cache)
			if (err != nil) != tc.wantErr || (err != nil && !errors.Is(err, enqueue.ErrUnexpectedObject)) {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("DeletePod (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPodCountInvalidSelector(t *testing.T) {
	d := dep("re", "re", model.RecreateStrategy, nil)
	d.Spec.Selector = &model.LabelSelector{MatchExpressions: []model.LabelSelectorRequirement{{Key: "app", Operator: "Bogus"}}}
	c := recreateCache()
	c.Deployments[0] = d
	if n := enqueue.PodCount(d, c); n != -1 {
		t.Errorf("PodCount = %d, want -1", n)
	}
	if n := enqueue.PodCount(nil, c); n != -1 {
		t.Errorf("PodCount(nil) = %d, want -1", n)
	}
	got, err := enqueue.DeletePod(pod("a", lbl("app", "re", "h", "old"), ownedBy("ReplicaSet", "re-old", "re-old")), c)
	if err != nil || len(got) != 0 {
		t.Errorf("DeletePod = %v, %v; want nothing (upstream gives up on the listing error)", got, err)
	}
}
