package rollout_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// web is a 3-replica Deployment at revision 2 of image web:2, with the
// ReplicaSets of revisions 1 and 2.
func web() (*model.Deployment, []*model.ReplicaSet) {
	spec := func(image string) string {
		return `{"metadata":{},"spec":{"containers":[{"image":"` + image + `","name":"web"}]}}`
	}
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", Generation: 2,
			Annotations: map[string]string{model.RevisionAnnotation: "2"}},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(3),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: spec("web:2")},
		},
		Status: model.DeploymentStatus{ObservedGeneration: 2, Replicas: 4, UpdatedReplicas: 2, AvailableReplicas: 3},
	}
	rs := func(rev, image, hash, cause string, created int) *model.ReplicaSet {
		labels := map[string]string{"app": "web", model.PodTemplateHashLabel: hash}
		ann := map[string]string{model.RevisionAnnotation: rev}
		if cause != "" {
			ann[model.ChangeCauseAnnotation] = cause
		}
		return &model.ReplicaSet{
			ObjectMeta: model.ObjectMeta{Name: "web-" + hash, Namespace: "default", UID: "uid-" + hash,
				CreationTimestamp: time.Date(2026, 3, 1, 10, created, 0, 0, time.UTC), Labels: labels, Annotations: ann,
				OwnerReferences: []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "web-uid")}},
			Spec: model.ReplicaSetSpec{Replicas: model.Int32Ptr(1), Selector: &model.LabelSelector{MatchLabels: labels},
				Template: model.PodTemplate{Labels: labels, Spec: spec(image)}},
		}
	}
	return d, []*model.ReplicaSet{
		rs("1", "web:1", "6d4b5f7c9", "", 0),
		rs("2", "web:2", "8c7d6b5f4", "kubectl set image deployment/web web=web:2", 5),
	}
}

func ExampleStatus() {
	d, _ := web()
	msg, done, err := rollout.Status(d, 0)
	fmt.Printf("%q %v %v\n", msg, done, err)
	_, _, err = rollout.Status(d, 3)
	fmt.Println(err)
	// Output:
	// "Waiting for deployment \"web\" rollout to finish: 2 out of 3 new replicas have been updated...\n" false <nil>
	// desired revision (3) is different from the running revision (2)
}

func ExampleHistory() {
	d, rss := web()
	out, _ := rollout.History(d, rss)
	fmt.Print(out)
	// Output:
	// REVISION  CHANGE-CAUSE
	// 1         <none>
	// 2         kubectl set image deployment/web web=web:2
}

func ExampleHistoryRevision() {
	d, rss := web()
	out, _ := rollout.HistoryRevision(d, rss, 1)
	fmt.Print(out)
	_, err := rollout.HistoryRevision(d, rss, 5)
	fmt.Println(err)
	// Output:
	// Pod Template:
	//   Labels:	app=web
	// 	pod-template-hash=6d4b5f7c9
	//   Containers:
	//    web:
	//     Image:	web:1
	//     Port:	<none>
	//     Host Port:	<none>
	//     Environment:	<none>
	//     Mounts:	<none>
	//   Volumes:	<none>
	//   Node-Selectors:	<none>
	//   Tolerations:	<none>
	// unable to find the specified revision
}

func ExampleDescribeTemplate() {
	out, err := rollout.DescribeTemplate(model.PodTemplate{
		Labels: map[string]string{"app": "web"},
		Spec: `{"spec":{"containers":[{"name":"web","image":"web:1","ports":[{"containerPort":80,"protocol":"TCP","name":"http"}],` +
			`"resources":{"limits":{"memory":"512Mi"}},` +
			`"env":[{"name":"MODE","value":"fast"},{"name":"MEM_MI","valueFrom":{"resourceFieldRef":{"resource":"limits.memory","divisor":"1Mi"}}}]}],` +
			`"volumes":[{"name":"token","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3600,"path":"token"}},{"configMap":{"name":"ca"}}]}}],` +
			`"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"web"}}}],` +
			`"nodeSelector":{"disk":"ssd"}}}`,
	})
	fmt.Print(out, err, "\n")
	// kubectl's describer fails on a gRPC probe without a service (the API
	// server always sets one), so the describer refuses it.
	_, err = rollout.DescribeTemplate(model.PodTemplate{Spec: `{"spec":{"containers":[{"name":"web","readinessProbe":{"grpc":{"port":9090}}}]}}`})
	fmt.Println(err)
	// Output:
	// Pod Template:
	//   Labels:	app=web
	//   Containers:
	//    web:
	//     Image:	web:1
	//     Port:	80/TCP (http)
	//     Host Port:	0/TCP (http)
	//     Limits:
	//       memory:	512Mi
	//     Environment:
	//       MODE:	fast
	//       MEM_MI:	512 (limits.memory)
	//     Mounts:	<none>
	//   Volumes:
	//    token:
	//     Type:	Projected (a volume that contains injected data from multiple sources)
	//     TokenExpirationSeconds:	3600
	//     ConfigMapName:	ca
	//     Optional:	false
	//   Topology Spread Constraints:	zone:DoNotSchedule when max skew 1 is exceeded for selector app=web
	//   Node-Selectors:	disk=ssd
	//   Tolerations:	<none>
	// <nil>
	// spec.template.spec.containers[0].probe.grpc (without service): not supported by the template describer
}

func ExampleUndo() {
	d, rss := web()
	r, err := rollout.Undo(d, rss, 0, nil)
	fmt.Println(r.Output, r.Target.Name, err)
	fmt.Println(string(r.Patch))
	r, _ = rollout.Undo(d, rss, 2, nil)
	fmt.Println(r.Output)
	// Output:
	// rolled back web-6d4b5f7c9 <nil>
	// [{"op":"replace","path":"/spec/template","value":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"web:1","name":"web"}]}}},{"op":"replace","path":"/metadata/annotations","value":{"deployment.kubernetes.io/revision":"2"}}]
	// skipped rollback (current template already matches revision 2)
}

func ExampleUndoDryRun() {
	d, rss := web()
	d.Spec.Paused = true // a client dry run does not check
	out, _ := rollout.UndoDryRun(d, rss, 0)
	fmt.Print(out[:len("Pod Template:\n  Labels:\tapp=web\n")])
	_, err := rollout.UndoDryRun(d, rss, 7)
	fmt.Println(err)
	// Output:
	// Pod Template:
	//   Labels:	app=web
	// unable to find specified revision 7 in history
}

func ExampleCanonicalTemplateJSON() {
	b, _ := rollout.CanonicalTemplateJSON(model.PodTemplate{
		Labels: map[string]string{"app": "web"},
		Spec:   `{"spec":{"containers":[{"name":"web","image":"web:1"}]}}`,
	})
	fmt.Println(string(b))
	// Output:
	// {"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"web:1","name":"web"}]}}
}

func ExampleRestart() {
	d, _ := web()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	p, _ := rollout.Restart(d, now)
	fmt.Println(string(p))
	d.Spec.Paused = true
	_, err := rollout.Restart(d, now)
	fmt.Println(err)
	// Output:
	// {"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-03-01T12:00:00Z"}}}}}
	// can't restart paused deployment (run rollout resume first)
}

func ExamplePause() {
	d, _ := web()
	p, _ := rollout.Pause(d)
	fmt.Println(string(p))
	d.Spec.Paused = true
	_, err := rollout.Pause(d)
	fmt.Println(err)
	// Output:
	// {"spec":{"paused":true}}
	// is already paused
}

func ExampleResume() {
	d, _ := web()
	_, err := rollout.Resume(d)
	fmt.Println(err)
	d.Spec.Paused = true
	p, _ := rollout.Resume(d)
	fmt.Println(string(p))
	// Output:
	// is not paused
	// {"spec":{"paused":null}}
}

func ExampleLint() {
	d, _ := web()
	d.Spec.Replicas = model.Int32Ptr(5)
	d.Spec.Strategy = model.Strategy{Type: model.RollingUpdateStrategy, RollingUpdate: &model.RollingUpdate{
		MaxSurge: model.IntOrStringPtr(model.FromInt(0)), MaxUnavailable: model.IntOrStringPtr(model.FromString("10%"))}}
	r, _ := rollout.Lint(d, rollout.LintOptions{ReadyAfter: 10 * time.Second})
	fmt.Printf("surge %d, unavailable %d, peak %d, min available %d, %d steps, %s\n",
		r.MaxSurge, r.MaxUnavailable, r.PeakPods, r.MinAvailable, r.Steps, r.Duration)
	for _, f := range r.Findings {
		fmt.Println(f.Severity, f.Code)
	}
	// Output:
	// surge 0, unavailable 1, peak 5, min available 4, 10 steps, 55s
	// warning MaxUnavailableRoundsToZero
}

func ExampleHistoryWarnings() {
	d, rss := web()
	rss[0].Annotations[model.RevisionAnnotation] = "one"
	warnings, _ := rollout.HistoryWarnings(d, rss)
	fmt.Println(warnings)
	out, _ := rollout.History(d, rss)
	fmt.Print(out)
	// Output:
	// [unable to get revision from replicaset web-6d4b5f7c9 for deployment web in namespace default: strconv.ParseInt: parsing "one": invalid syntax]
	// REVISION  CHANGE-CAUSE
	// 2         kubectl set image deployment/web web=web:2
}
