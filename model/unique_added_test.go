package model_test

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// TestUniqueAddedIsUnique: for every list of up to four entries drawn
// from objects that collide in every way Unique knows (the same name in
// one namespace, the same name in another, the same UID, empty UIDs, nil)
// and every choice of added entries whose other entries pass Unique among
// themselves, UniqueAdded answers as Unique, for ReplicaSets and pods.
func TestUniqueAddedIsUnique(t *testing.T) {
	metas := []model.ObjectMeta{
		{Namespace: "a", Name: "x", UID: "1"},
		{Namespace: "a", Name: "y", UID: "2"},
		{Namespace: "b", Name: "x", UID: "3"}, // x in another namespace
		{Namespace: "a", Name: "x", UID: "4"}, // x again
		{Namespace: "a", Name: "z", UID: "1"}, // UID 1 again
		{Namespace: "a", Name: "w"},           // no UID
		{Namespace: "a", Name: "v"},           // no UID either
	}
	pool := []*model.Pod{nil}
	rsPool := []*model.ReplicaSet{nil}
	for _, m := range metas {
		pool = append(pool, &model.Pod{ObjectMeta: m})
		rsPool = append(rsPool, &model.ReplicaSet{ObjectMeta: m})
	}
	checked, unique := 0, 0
	var list []int
	var walk func()
	walk = func() {
		pods := make([]*model.Pod, len(list))
		rss := make([]*model.ReplicaSet, len(list))
		for i, k := range list {
			pods[i], rss[i] = pool[k], rsPool[k]
		}
		want := model.Unique(nil, pods)
		if want != model.Unique(rss, nil) {
			t.Fatalf("fixture: Unique differs for pods and ReplicaSets of %v", list)
		}
		for mask := range 1 << len(list) {
			var added []int
			var others []*model.Pod
			for i := range list {
				if mask&(1<<i) != 0 {
					added = append(added, i)
				} else {
					others = append(others, pods[i])
				}
			}
			if !model.Unique(nil, others) {
				continue // UniqueAdded's premise does not hold
			}
			checked++
			if want {
				unique++
			}
			if got := model.UniqueAdded(nil, nil, pods, added); got != want {
				t.Fatalf("pods %v, added %v: UniqueAdded %v, Unique %v", list, added, got, want)
			}
			if got := model.UniqueAdded(rss, added, nil, nil); got != want {
				t.Fatalf("ReplicaSets %v, added %v: UniqueAdded %v, Unique %v", list, added, got, want)
			}
		}
		if len(list) == 4 {
			return
		}
		for k := range pool {
			list = append(list, k)
			walk()
			list = list[:len(list)-1]
		}
	}
	walk()
	if checked < 10000 || unique == 0 || unique == checked {
		t.Fatalf("fixture: %d cases checked, %d unique", checked, unique)
	}
	t.Logf("%d cases checked, %d unique", checked, unique)
}

// TestUniqueAddedIgnoresBadIndices: indices out of range name no entry.
func TestUniqueAddedIgnoresBadIndices(t *testing.T) {
	pods := []*model.Pod{{ObjectMeta: model.ObjectMeta{Name: "a"}}, {ObjectMeta: model.ObjectMeta{Name: "b"}}}
	if !model.UniqueAdded(nil, []int{-1, 5}, pods, []int{-1, 2, 7}) {
		t.Fatal("indices out of range made two distinct pods duplicates")
	}
	pods[1].Name = "a"
	if model.UniqueAdded(nil, nil, pods, []int{1}) {
		t.Fatal("two pods named a passed")
	}
}
