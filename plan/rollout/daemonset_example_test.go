package rollout_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// fluentd is a DaemonSet at fluentd:v2 halfway through its rolling update
// over 4 nodes, with the ControllerRevisions of v1 and v2 as the DaemonSet
// controller writes them.
func fluentd() (*model.DaemonSet, []*model.ControllerRevision) {
	spec := func(image string) string {
		return `{"metadata":{},"spec":{"containers":[{"image":"` + image + `","name":"fluentd"}]}}`
	}
	ds := &model.DaemonSet{
		ObjectMeta: model.ObjectMeta{Name: "fluentd", Namespace: "kube-system", UID: "fluentd-uid", Generation: 2},
		Spec: model.DaemonSetSpec{
			Selector:       &model.LabelSelector{MatchLabels: map[string]string{"app": "fluentd"}},
			Template:       model.PodTemplate{Labels: map[string]string{"app": "fluentd"}, Spec: spec("fluentd:v2")},
			UpdateStrategy: model.DaemonSetUpdateStrategy{Type: model.DaemonSetRollingUpdate},
		},
		Status: model.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 4, UpdatedNumberScheduled: 2, NumberAvailable: 3},
	}
	cr := func(n int64, hash, image, cause string) *model.ControllerRevision {
		r := &model.ControllerRevision{
			ObjectMeta: model.ObjectMeta{Name: "fluentd-" + hash, Namespace: "kube-system",
				Labels:          map[string]string{"app": "fluentd", model.DaemonSetUniqueLabel: hash},
				OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DaemonSetKind, "fluentd", "fluentd-uid")}},
			// The data the controller stores: the template as a
			// strategic merge patch that replaces spec.template.
			Data: `{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"fluentd"}},` +
				`"spec":{"containers":[{"image":"` + image + `","name":"fluentd","resources":{}}]}}}}`,
			Revision: n,
		}
		if cause != "" {
			r.Annotations = map[string]string{model.ChangeCauseAnnotation: cause}
		}
		return r
	}
	return ds, []*model.ControllerRevision{
		cr(1, "7d9c5b8f6", "fluentd:v1", ""),
		cr(2, "5f4b7c9d8", "fluentd:v2", "kubectl set image daemonset/fluentd fluentd=fluentd:v2"),
	}
}

func ExampleDaemonSetStatus() {
	ds, _ := fluentd()
	msg, done, err := rollout.DaemonSetStatus(ds)
	fmt.Printf("%q %v %v\n", msg, done, err)
	ds.Status.UpdatedNumberScheduled = 4
	msg, _, _ = rollout.DaemonSetStatus(ds)
	fmt.Print(msg)
	ds.Spec.UpdateStrategy.Type = model.DaemonSetOnDelete
	_, done, err = rollout.DaemonSetStatus(ds)
	fmt.Println(done, err)
	// Output:
	// "Waiting for daemon set \"fluentd\" rollout to finish: 2 out of 4 new pods have been updated...\n" false <nil>
	// Waiting for daemon set "fluentd" rollout to finish: 3 of 4 updated pods are available...
	// true rollout status is only available for RollingUpdate strategy type
}

func ExampleDaemonSetHistory() {
	ds, revisions := fluentd()
	out, _ := rollout.DaemonSetHistory(ds, revisions)
	fmt.Print(out)
	out, _ = rollout.DaemonSetHistoryRevision(ds, revisions, 1)
	fmt.Print(out)
	// Output:
	// REVISION  CHANGE-CAUSE
	// 1         <none>
	// 2         kubectl set image daemonset/fluentd fluentd=fluentd:v2
	// Pod Template:
	//   Labels:	app=fluentd
	//   Containers:
	//    fluentd:
	//     Image:	fluentd:v1
	//     Port:	<none>
	//     Host Port:	<none>
	//     Environment:	<none>
	//     Mounts:	<none>
	//   Volumes:	<none>
	//   Node-Selectors:	<none>
	//   Tolerations:	<none>
}

func ExampleDaemonSetUndo() {
	ds, revisions := fluentd()
	// Back to the previous revision: the patch is revision 1's data.
	r, _ := rollout.DaemonSetUndo(ds, revisions, 0, nil)
	fmt.Println(r.Output, r.Target.Name)
	fmt.Println(string(r.Patch))
	_, err := rollout.DaemonSetUndo(ds, revisions, 7, nil)
	fmt.Println(err)
	_, err = rollout.DaemonSetPause(ds)
	fmt.Println(err)
	// Output:
	// rolled back fluentd-7d9c5b8f6
	// {"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"fluentd"}},"spec":{"containers":[{"image":"fluentd:v1","name":"fluentd","resources":{}}]}}}}
	// unable to find specified revision 7 in history
	// pausing is not supported
}
