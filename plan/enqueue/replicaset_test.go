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

// The fixture: web (uid w) and api (uid a) in namespace ns, both selecting
// app=web (an overlap, the user error upstream only logs), other (uid o)
// selecting app=other, and a Deployment web in namespace elsewhere that must
// never be woken by events of ns.
func fixture() enqueue.Cache {
	elsewhere := dep("web", "w2", model.RollingUpdateStrategy, lbl("app", "web"))
	elsewhere.Namespace = "elsewhere"
	empty := dep("empty", "e", model.RollingUpdateStrategy, nil)
	empty.Spec.Selector = &model.LabelSelector{}
	return enqueue.Cache{Deployments: []*model.Deployment{
		dep("web", "w", model.RollingUpdateStrategy, lbl("app", "web")),
		dep("api", "a", model.RollingUpdateStrategy, lbl("app", "web")),
		dep("other", "o", model.RollingUpdateStrategy, lbl("app", "other")),
		dep("nosel", "n", model.RollingUpdateStrategy, nil),
		empty,
		elsewhere,
	}}
}

func TestAddReplicaSet(t *testing.T) {
	deleted := rs("web-1", "r1", "5", lbl("app", "web"), ownedBy("Deployment", "web", "w"))
	deleted.DeletionTimestamp = model.TimePtr(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	deletedOrphan := rs("web-1", "r1", "5", lbl("app", "web"), nil)
	deletedOrphan.DeletionTimestamp = deleted.DeletionTimestamp
	cases := []struct {
		name string
		rs   *model.ReplicaSet
		want []string
	}{
		// Seed 000, addReplicaSet: "检查 rs 是否有 controller,如有且该 controller 是 Deployment,入工作队列".
		{"controller ref resolves", rs("web-1", "r1", "1", lbl("app", "web"), ownedBy("Deployment", "web", "w")), []string{"ns/web"}},
		// The reference wins over the selector: api also matches but is not woken.
		{"controller ref only, not the selector matches", rs("web-1", "r1", "1", lbl("app", "web"), ownedBy("Deployment", "api", "a")), []string{"ns/api"}},
		// resolveControllerRef: a name with another UID is a different object.
		{"controller ref with stale uid", rs("web-1", "r1", "1", lbl("app", "web"), ownedBy("Deployment", "web", "old")), nil},
		{"controller ref to another kind", rs("web-1", "r1", "1", lbl("app", "web"), ownedBy("StatefulSet", "web", "w")), nil},
		{"controller ref to a missing deployment", rs("web-1", "r1", "1", lbl("app", "web"), ownedBy("Deployment", "gone", "g")), nil},
		// Seed 000: "只有孤儿 rs 能够进入这一步。检查是否有 deployment 可以收养(adopt)它" and
		// "如果有多个匹配的 deployment": upstream v1.36 enqueues every match.
		{"orphan, several deployments match", rs("web-1", "r1", "1", lbl("app", "web", "pod-template-hash", "x"), nil), []string{"ns/api", "ns/web"}},
		{"orphan, one match", rs("o-1", "r2", "1", lbl("app", "other"), nil), []string{"ns/other"}},
		{"orphan, no match", rs("x-1", "r3", "1", lbl("app", "x"), nil), nil},
		// GetDeploymentsForReplicaSet: no labels, no Deployments (the empty selector of "empty" would match everything).
		{"orphan without labels", rs("x-1", "r3", "1", nil, nil), nil},
		// Seed 000: "检查 DeletionTimestamp,确保(重启时)rs 被正确删除。逻辑移交给 deleteReplicaSet".
		{"being deleted: handled as a deletion", deleted, []string{"ns/web"}},
		{"being deleted orphan: nobody cares", deletedOrphan, nil},
		{"nil", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := enqueue.AddReplicaSet(tc.rs, fixture())
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("AddReplicaSet (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUpdateReplicaSet(t *testing.T) {
	web := ownedBy("Deployment", "web", "w")
	api := ownedBy("Deployment", "api", "a")
	cases := []struct {
		name     string
		old, cur *model.ReplicaSet
		want     []string
	}{
		// Seed 000, updateReplicaSet: "检查新旧 rs 资源版本是否一致(由于 resync),如果一致则跳过".
		{"resync: same resource version", rs("web-1", "r1", "7", lbl("app", "web"), web), rs("web-1", "r1", "7", lbl("app", "other"), api), nil},
		{"owned, status change", rs("web-1", "r1", "7", lbl("app", "web"), web), rs("web-1", "r1", "8", lbl("app", "web"), web), []string{"ns/web"}},
		// Seed 000: "检查 controller 是否变动。如果变动了,那么也应该同步旧 controller(若存在)".
		{"controller ref moved: both", rs("web-1", "r1", "7", lbl("app", "web"), web), rs("web-1", "r1", "8", lbl("app", "web"), api), []string{"ns/api", "ns/web"}},
		// Released: the old owner, then the orphan's matches (labels unchanged, reference changed).
		{"released: old owner and the matches", rs("o-1", "r1", "7", lbl("app", "other"), web), rs("o-1", "r1", "8", lbl("app", "other"), nil), []string{"ns/other", "ns/web"}},
		{"adopted: the new owner only", rs("web-1", "r1", "7", lbl("app", "web"), nil), rs("web-1", "r1", "8", lbl("app", "web"), web), []string{"ns/web"}},
		// Seed 000: "如果 rs 的 label 或 controller 变动了,检查是否有 deployment 可以收养(adopt)它".
		{"orphan relabelled", rs("x-1", "r1", "7", lbl("app", "x"), nil), rs("x-1", "r1", "8", lbl("app", "other"), nil), []string{"ns/other"}},
		{"orphan unchanged labels: nothing", rs("x-1", "r1", "7", lbl("app", "web"), nil), rs("x-1", "r1", "8", lbl("app", "web"), nil), nil},
		// reflect.DeepEqual tells a nil map from an empty one.
		{"orphan labels nil to empty: changed, but no labels match nothing", rs("x-1", "r1", "7", nil, nil), rs("x-1", "r1", "8", map[string]string{}, nil), nil},
		// A reference that changes only in blockOwnerDeletion still counts as changed.
		{"same owner, other ref field", rs("web-1", "r1", "7", lbl("app", "web"), web),
			rs("web-1", "r1", "8", lbl("app", "web"), []model.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "w", Controller: true}}), []string{"ns/web"}},
		{"old ref unresolvable, new ref resolves", rs("web-1", "r1", "7", lbl("app", "web"), ownedBy("Deployment", "gone", "g")), rs("web-1", "r1", "8", lbl("app", "web"), web), []string{"ns/web"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := enqueue.UpdateReplicaSet(tc.old, tc.cur, fixture())
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("UpdateReplicaSet (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDeleteReplicaSet(t *testing.T) {
	owned := rs("web-1", "r1", "7", lbl("app", "web"), ownedBy("Deployment", "web", "w"))
	cases := []struct {
		name    string
		obj     any
		want    []string
		wantErr bool
	}{
		{"owned", owned, []string{"ns/web"}, false},
		// Seed 000, deleteReplicaSet: only the controller counts; "No controller should care about orphans being deleted".
		{"orphan", rs("web-1", "r1", "7", lbl("app", "web"), nil), nil, false},
		// Seed 000: "注意这块代码有一段对于 DeletedFinalStateUnknown 的处理".
		{"tombstone", enqueue.Tombstone{Key: "ns/web-1", Obj: owned}, []string{"ns/web"}, false},
		{"tombstone pointer", &enqueue.Tombstone{Key: "ns/web-1", Obj: owned}, []string{"ns/web"}, false},
		{"tombstone of a pod", enqueue.Tombstone{Key: "ns/p", Obj: pod("p", nil, nil)}, nil, true},
		{"not a replicaset", "ns/web-1", nil, true},
		{"nil replicaset", (*model.ReplicaSet)(nil), nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := enqueue.DeleteReplicaSet(tc.obj, fixture())
			if (err != nil) != tc.wantErr || (err != nil && !errors.Is(err, enqueue.ErrUnexpectedObject)) {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("DeleteReplicaSet (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDeploymentEvents(t *testing.T) {
	d := dep("web", "w", model.RollingUpdateStrategy, lbl("app", "web"))
	if got := enqueue.AddDeployment(d); !cmp.Equal(got, []string{"ns/web"}) {
		t.Errorf("AddDeployment = %v", got)
	}
	if got := enqueue.UpdateDeployment(d, d); !cmp.Equal(got, []string{"ns/web"}) {
		t.Errorf("UpdateDeployment = %v", got)
	}
	got, err := enqueue.DeleteDeployment(enqueue.Tombstone{Key: "ns/web", Obj: d})
	if err != nil || !cmp.Equal(got, []string{"ns/web"}) {
		t.Errorf("DeleteDeployment(tombstone) = %v, %v", got, err)
	}
	if _, err := enqueue.DeleteDeployment(rs("x", "x", "1", nil, nil)); !errors.Is(err, enqueue.ErrUnexpectedObject) {
		t.Errorf("DeleteDeployment(ReplicaSet) err = %v", err)
	}
	if got := enqueue.Key(&model.ObjectMeta{Name: "n"}); got != "n" {
		t.Errorf("Key without namespace = %q", got)
	}
}
