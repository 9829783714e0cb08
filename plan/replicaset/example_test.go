package replicaset_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/replicaset"
)

var now = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

// webRS is ReplicaSet "web-5d7" of Deployment "web": selector and template
// labels app=web, pod-template-hash=5d7.
func webRS(replicas int32) *model.ReplicaSet {
	labels := map[string]string{"app": "web", "pod-template-hash": "5d7"}
	return &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{
			Name: "web-5d7", Namespace: "shop", UID: "rs-uid", Generation: 1,
			OwnerReferences: []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "dep-uid")},
		},
		Spec: model.ReplicaSetSpec{
			Replicas: model.Int32Ptr(replicas),
			Selector: &model.LabelSelector{MatchLabels: labels},
			Template: model.PodTemplate{Labels: labels, Spec: `{"containers":[{"image":"nginx:1.27","name":"web"}]}`},
		},
		Status: model.ReplicaSetStatus{ObservedGeneration: 1},
	}
}

// webPod is a pod of webRS on node (unscheduled when ""), ready since
// readySince unless that is zero.
func webPod(rs *model.ReplicaSet, name, node string, readySince time.Time) *model.Pod {
	p := &model.Pod{
		ObjectMeta: model.ObjectMeta{
			Name: name, Namespace: "shop", UID: "uid-" + name,
			CreationTimestamp: now.Add(-24 * time.Hour),
			Labels:            map[string]string{"app": "web", "pod-template-hash": "5d7"},
			OwnerReferences:   []model.OwnerReference{model.NewControllerRef("apps/v1", "ReplicaSet", rs.Name, rs.UID)},
		},
		Spec:   model.PodSpec{NodeName: node},
		Status: model.PodStatus{Phase: model.PodPending},
	}
	if node != "" {
		p.Status.Phase = model.PodRunning
	}
	if !readySince.IsZero() {
		p.Status.Conditions = []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: readySince}}
	}
	return p
}

// A new ReplicaSet of three replicas creates its pods in slow-start batches
// of 1 and 2, then records that it observed its generation.
func ExampleSync() {
	plan, err := replicaset.Sync(webRS(3), nil, nil, now)
	if err != nil {
		panic(err)
	}
	for _, a := range plan.Actions {
		fmt.Println(a.Kind, a.Name, "-", a.Reason.Message)
	}
	fmt.Println(plan.Notes[0].Message)
	// Output:
	// CreatePod web-5d7-mngnj - create pod 1 of 3 (batch 1 of 2, size 1): 0 active < 3 desired
	// CreatePod web-5d7-2f6fb - create pod 2 of 3 (batch 2 of 2, size 2): 0 active < 3 desired
	// CreatePod web-5d7-vl2nr - create pod 3 of 3 (batch 2 of 2, size 2): 0 active < 3 desired
	// UpdateReplicaSetStatus web-5d7 - status changes: terminatingReplicas nil→0
	// create 3 pods in batches 1,2: 0 active < 3 desired
}

// Scaling down from four pods to two deletes the unscheduled pod and the pod
// that is not ready; each delete says which ranking rule chose it.
func ExampleSync_scaleDown() {
	rs := webRS(2)
	pods := []*model.Pod{
		webPod(rs, "web-a", "node-1", now.Add(-time.Hour)),
		webPod(rs, "web-b", "node-1", time.Time{}),
		webPod(rs, "web-c", "node-2", now.Add(-time.Hour)),
		webPod(rs, "web-d", "", time.Time{}),
	}
	plan, err := replicaset.Sync(rs, pods, nil, now)
	if err != nil {
		panic(err)
	}
	for _, a := range plan.Actions {
		if a.Kind == replicaset.DeletePod {
			fmt.Printf("%s (%s): %s\n", a.Name, a.Rule, a.Reason.Message)
		}
	}
	// Output:
	// web-d (Unassigned): delete pod web-d, 1 of 2 in deletion order (4 active > 2 desired): not scheduled to a node, unlike web-a (the first pod kept, on node node-1)
	// web-b (NotReady): delete pod web-b, 2 of 2 in deletion order (4 active > 2 desired): not ready, unlike web-a (the first pod kept)
}

// A worked example of manageReplicas' slow-start batches: ten pods to create, the second create of batch
// 2 fails. Batch 2 completes, later batches are skipped, the sync ends with
// the error (a *SyncError returned with the plan) and the status records a
// ReplicaFailure condition.
func ExampleWithCreateFault() {
	fault := replicaset.WithCreateFault(func(attempt int, pod *model.Pod) error {
		if attempt == 2 {
			return errors.New(`pods "web-5d7-x" is forbidden: exceeded quota: pods`)
		}
		return nil
	})
	plan, err := replicaset.Sync(webRS(10), nil, nil, now, fault)
	var serr *replicaset.SyncError
	if !errors.As(err, &serr) {
		panic(err) // invalid input
	}
	fmt.Println("attempted:", len(plan.Actions)-1, "created:", plan.Count(replicaset.CreatePod))
	fmt.Println("error:", serr.Kind, serr)
	c := plan.Status.Conditions[0]
	fmt.Println(c.Type, c.Reason, c.Message)
	fmt.Println(plan.Notes[1].Message)
	// Output:
	// attempted: 3 created: 2
	// error: FailedCreate pods "web-5d7-x" is forbidden: exceeded quota: pods
	// ReplicaFailure FailedCreate pods "web-5d7-x" is forbidden: exceeded quota: pods
	// 1 of 2 creates in batch 2 of 4 failed: 2 created, 8 skipped (7 never attempted): pods "web-5d7-x" is forbidden: exceeded quota: pods
}

func ExampleSlowStartBatches() {
	fmt.Println(replicaset.SlowStartBatches(10))
	fmt.Println(replicaset.SlowStartBatches(min(800, replicaset.BurstReplicas)))
	// Output:
	// [1 2 4 3]
	// [1 2 4 8 16 32 64 128 245]
}

func ExampleParseDeletionCost() {
	for _, v := range []string{"10", "-5", "-007", "+10", "007", "2147483648"} {
		cost, err := replicaset.ParseDeletionCost(v)
		fmt.Printf("%q → %d, valid %v\n", v, cost, err == nil)
	}
	// Output:
	// "10" → 10, valid true
	// "-5" → -5, valid true
	// "-007" → -7, valid true
	// "+10" → 0, valid false
	// "007" → 0, valid false
	// "2147483648" → 0, valid false
}

// The last row of upstream TestSortingActivePodsWithRanks: a pod ready for 2 hours (bucket 42) is deleted
// before one ready for 5 hours (bucket 44); 5 and 8 hours share a bucket,
// and without UIDs upstream cannot tell them apart.
func ExampleCompare() {
	rs := webRS(0)
	two := webPod(rs, "two", "n", now.Add(-2*time.Hour))
	five := webPod(rs, "five", "n", now.Add(-5*time.Hour))
	eight := webPod(rs, "eight", "n", now.Add(-8*time.Hour))
	five.UID, eight.UID = "", ""
	fmt.Println(replicaset.Compare(two, five, 0, 0, now))
	fmt.Println(replicaset.Compare(five, eight, 0, 0, now))
	// Output:
	// -1 ReadyTime
	// 0 ReadyTimeUID
}

func ExampleDeletionOrder() {
	rs := webRS(0)
	active := []*model.Pod{
		webPod(rs, "ready", "node-1", now.Add(-time.Hour)),
		webPod(rs, "not-ready", "node-1", time.Time{}),
		webPod(rs, "unscheduled", "", time.Time{}),
	}
	fmt.Println(replicaset.DeletionOrder(active, active, now))
	// Output:
	// [2 1 0]
}

// Pods on the node that hosts more pods of the same Deployment go first,
// counting the pods of every ReplicaSet of that Deployment.
func ExampleGetPodsToDelete() {
	rs := webRS(1)
	old := webRS(0)
	old.Name, old.UID = "web-old", "old-uid"
	old.Spec.Selector = &model.LabelSelector{MatchLabels: map[string]string{"app": "web", "pod-template-hash": "old"}}
	active := []*model.Pod{
		webPod(rs, "web-a", "node-1", now.Add(-time.Hour)),
		webPod(rs, "web-b", "node-2", now.Add(-time.Hour)),
	}
	oldPod := webPod(old, "web-old-a", "node-2", now.Add(-time.Hour))
	oldPod.Labels["pod-template-hash"] = "old"
	related := replicaset.RelatedPods(rs, append(active, oldPod), []*model.ReplicaSet{old})
	fmt.Println(replicaset.CoLocationRanks(active, related))
	for _, p := range replicaset.GetPodsToDelete(active, related, 1, now) {
		fmt.Println(p.Name)
	}
	// Output:
	// [1 2]
	// web-b
}

func ExampleGroupPodsByController() {
	rs := webRS(0)
	orphan := webPod(rs, "web-orphan", "", time.Time{})
	orphan.OwnerReferences = nil
	groups := replicaset.GroupPodsByController([]*model.Pod{webPod(rs, "web-b", "", time.Time{}), orphan, webPod(rs, "web-a", "", time.Time{})})
	for _, uid := range []string{"rs-uid", ""} {
		for _, p := range groups[uid] {
			fmt.Printf("%q %s\n", uid, p.Name)
		}
	}
	// Output:
	// "rs-uid" web-a
	// "rs-uid" web-b
	// "" web-orphan
}

// A simulator that wants readable names supplies its own scheme; names in
// use are skipped.
func ExampleWithPodNamer() {
	rs := webRS(2)
	existing := webPod(rs, "web-5d7-0", "node-1", now.Add(-time.Hour))
	namer := replicaset.WithPodNamer(func(generateName string, n int) string {
		return fmt.Sprintf("%s%d", generateName, n)
	})
	plan, err := replicaset.Sync(rs, []*model.Pod{existing}, nil, now, namer)
	if err != nil {
		panic(err)
	}
	fmt.Println(plan.Actions[0].Kind, plan.Actions[0].Name, plan.Actions[0].GenerateName)
	// Output:
	// CreatePod web-5d7-1 web-5d7-
}
