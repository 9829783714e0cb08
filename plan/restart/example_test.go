package restart_test

import (
	"fmt"
	"maps"
	"os"
	"time"

	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/restart"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// A ConfigMap edit restarts the Deployment that references it, and the
// restart annotation in the template makes the Deployment planner roll the
// pods over: both halves together.
func Example() {
	start := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)
	meta := model.ObjectMeta{Name: "app-config", Namespace: "default", ResourceVersion: "1"}
	v1 := restart.ConfigMapConfig(meta, map[string]string{"LOG_LEVEL": "info"}, nil, false)

	// A Deployment that opted in and already runs with the current data.
	three := int32(3)
	web := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", ResourceVersion: "2",
			Annotations: map[string]string{
				restart.AnnotationEnabled:   restart.EnabledValue,
				restart.AnnotationChecksums: restart.FormatChecksums(map[string]string{"configmap/default/app-config": v1.Checksum}),
			}},
		Spec: model.DeploymentSpec{
			Replicas: &three,
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"},
				Spec: `{"containers":[{"envFrom":[{"configMapRef":{"name":"app-config"}}],"image":"app:1","name":"main"}]}`},
			Strategy: model.Strategy{Type: model.RollingUpdateStrategy},
		},
	}

	tr, err := restart.NewTracker(restart.Options{GracePeriod: restart.DefaultGracePeriod})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := tr.ObserveConfig(v1, start); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := tr.ObserveWorkload(restart.DeploymentWorkload(web), start); err != nil {
		fmt.Println(err)
		return
	}
	res := tr.Plan(start.Add(5*time.Second), false)
	tr.Apply(res, nil)
	fmt.Printf("t=5s: %d patches (the annotation already matches)\n", len(res.Patches))

	// The ConfigMap is edited at t=10s; the change is due at t=15s.
	meta.ResourceVersion = "3"
	v2 := restart.ConfigMapConfig(meta, map[string]string{"LOG_LEVEL": "debug"}, nil, false)
	if _, err := tr.ObserveConfig(v2, start.Add(10*time.Second)); err != nil {
		fmt.Println(err)
		return
	}
	res = tr.Plan(start.Add(12*time.Second), false)
	fmt.Printf("t=12s: %d patches, requeue after %v\n", len(res.Patches), res.RequeueAfter)
	res = tr.Plan(start.Add(15*time.Second), false)
	tr.Apply(res, nil)
	p := res.Patches[0]
	fmt.Printf("t=15s: patch %s (%s): %s\n", p.Workload, p.Decisions[0].Reason, p.Body)

	// The API server applies the merge patch; the template changed, so the
	// Deployment planner rolls out a new ReplicaSet. The old one runs the
	// unpatched template with 3 available pods.
	oldTemplate := web.Spec.Template.DeepCopy()
	patched := web.DeepCopy()
	patched.Annotations[restart.AnnotationChecksums] = restart.FormatChecksums(p.Checksums)
	patched.Spec.Template.Annotations = map[string]string{restart.AnnotationTimestamp: p.Timestamp}
	rsHash := hash.ComputeHash(oldTemplate, nil)
	oldTemplate.Labels = maps.Clone(oldTemplate.Labels)
	oldTemplate.Labels[model.PodTemplateHashLabel] = rsHash
	old := &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{Name: hash.ReplicaSetName("web", rsHash), Namespace: "default", UID: "web-rs-uid-old",
			Labels:      oldTemplate.Labels,
			Annotations: map[string]string{model.RevisionAnnotation: "1"},
			OwnerReferences: []model.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "web-uid",
				Controller: true, BlockOwnerDeletion: true}}},
		Spec: model.ReplicaSetSpec{Replicas: &three, Template: oldTemplate,
			Selector: &model.LabelSelector{MatchLabels: oldTemplate.Labels}},
		Status: model.ReplicaSetStatus{Replicas: 3, FullyLabeledReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3},
	}
	trace, err := sim.Run(sim.Config{Deployment: patched, ReplicaSets: []*model.ReplicaSet{old}, Start: start.Add(15 * time.Second)})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := trace.WriteTimeline(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// t=5s: 0 patches (the annotation already matches)
	// t=12s: 0 patches, requeue after 3s
	// t=15s: patch deployment/default/web (ChecksumChanged): {"metadata":{"annotations":{"com.xing.deployment-restart.applied-config-checksums":"{\"configmap/default/app-config\":\"28289bc788a7f57f\"}"}},"spec":{"template":{"metadata":{"annotations":{"com.xing.deployment-restart.timestamp":"Jan  1 00:00:15"}}}}}
	// new, old: spec.replicas of the new and old ReplicaSets; pods: pods that exist, terminating ones included;
	// available: available pods / replicas
	//
	//  sync      time   new   old  pods available  what happened
	//     0     +0:00     1     3     4       3/3  no ReplicaSet has the current template: create web-7bff8f9fc5 (revision 2) with 1: up = min(replicas 3 + maxSurge 1 − total 3, replicas 3 − new 0) = 1
	//     1     +0:01     1     2     3       3/3  old web-846cfb4fc4 3→2: available 4 > minAvailable 3 = replicas 3 − maxUnavailable 0; Progressing → True/ReplicaSetUpdated
	//     2     +0:02     2     2     4       3/3  new web-7bff8f9fc5 1→2: up = min(replicas 3 + maxSurge 1 − total 3, replicas 3 − new 1) = 1
	//     3     +0:03     2     1     3       3/3  old web-846cfb4fc4 2→1: available 4 > minAvailable 3 = replicas 3 − maxUnavailable 0
	//     4     +0:04     3     1     4       3/3  new web-7bff8f9fc5 2→3: up = min(replicas 3 + maxSurge 1 − total 3, replicas 3 − new 2) = 1
	//     5     +0:05     3     0     3       3/3  old web-846cfb4fc4 1→0: available 4 > minAvailable 3 = replicas 3 − maxUnavailable 0
	//     6     +0:06     3     0     3       3/3  Progressing → True/NewReplicaSetAvailable
	//
	// summary: 8 syncs over +0:07; since the start: completed after 6 syncs (+0:06)
	//   peak pods 4 (4 active), minimum available 3; 13 writes (1 conflicts), 0 invariant violations
}
