package daemonset_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

// t0 is the clock of the fixtures.
var t0 = time.Date(2025, 4, 2, 10, 0, 0, 0, time.UTC)

const (
	dsName = "fluentd-elasticsearch"
	dsNS   = "kube-system"
	dsUID  = "uid-fluentd"
)

// fluentd is the seed's example DaemonSet (seed 004, section 4,
// "DaemonSetの作成"): selector name=fluentd-elasticsearch, a toleration of
// node-role.kubernetes.io/master:NoSchedule, defaulted (RollingUpdate,
// maxUnavailable 1), template generation 1.
func fluentd(edits ...func(ds *model.DaemonSet)) *model.DaemonSet {
	ds := model.DefaultDaemonSet(&model.DaemonSet{
		ObjectMeta: model.ObjectMeta{Name: dsName, Namespace: dsNS, UID: dsUID, Generation: 1, ResourceVersion: "7",
			CreationTimestamp: t0.Add(-time.Hour),
			Labels:            map[string]string{"k8s-app": "fluentd-logging"},
			Annotations:       map[string]string{model.DaemonSetTemplateGenerationAnnotation: "1"}},
		Spec: model.DaemonSetSpec{
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"name": dsName}},
			Template: model.PodTemplate{Labels: map[string]string{"name": dsName},
				Spec: `{"spec":{"containers":[{"image":"quay.io/fluentd_elasticsearch/fluentd:v2.5.2","name":"fluentd-elasticsearch"}]}}`},
			Scheduling: model.PodScheduling{Tolerations: []model.Toleration{
				{Key: "node-role.kubernetes.io/master", Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule}}},
		},
		Status: model.DaemonSetStatus{ObservedGeneration: 1},
	})
	for _, e := range edits {
		e(ds)
	}
	return ds
}

// newTemplate changes the image, as `kubectl set image` does, and bumps
// the generation.
func newTemplate(ds *model.DaemonSet) {
	ds.Spec.Template.Spec = `{"spec":{"containers":[{"image":"quay.io/fluentd_elasticsearch/fluentd:v2.6.0","name":"fluentd-elasticsearch"}]}}`
	ds.Generation++
	ds.Annotations[model.DaemonSetTemplateGenerationAnnotation] = fmt.Sprint(ds.Generation)
}

func withStrategy(unavailable, surge model.IntOrString) func(ds *model.DaemonSet) {
	return func(ds *model.DaemonSet) {
		ds.Spec.UpdateStrategy = model.DaemonSetUpdateStrategy{Type: model.DaemonSetRollingUpdate,
			RollingUpdate: &model.RollingUpdateDaemonSet{MaxUnavailable: &unavailable, MaxSurge: &surge}}
	}
}

// hashOf is the current hash of ds under the default hasher.
func hashOf(ds *model.DaemonSet) string {
	return hash.ComputeHash(ds.Spec.Template, ds.Status.CollisionCount)
}

// revisionOf is the ControllerRevision ds's controller writes for its
// current template, numbered n.
func revisionOf(ds *model.DaemonSet, n int64) *model.ControllerRevision {
	h := hashOf(ds)
	labels := map[string]string{model.DaemonSetUniqueLabel: h}
	for k, v := range ds.Spec.Template.Labels {
		labels[k] = v
	}
	return &model.ControllerRevision{
		ObjectMeta: model.ObjectMeta{Name: ds.Name + "-" + h, Namespace: ds.Namespace, UID: "uid-rev-" + h,
			CreationTimestamp: t0.Add(-time.Duration(10-n) * time.Minute), Labels: labels,
			OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DaemonSetKind, ds.Name, ds.UID)}},
		Template: ds.Spec.Template.DeepCopy(),
		Data:     daemonset.DefaultPatch(ds.Spec.Template),
		Revision: n,
	}
}

func node(name string, edits ...func(n *model.Node)) *model.Node {
	n := &model.Node{ObjectMeta: model.ObjectMeta{Name: name, UID: "uid-" + name,
		Labels: map[string]string{"kubernetes.io/hostname": name, "kubernetes.io/os": "linux"}}}
	for _, e := range edits {
		e(n)
	}
	return n
}

func taint(key, value string, effect model.TaintEffect) func(n *model.Node) {
	return func(n *model.Node) {
		n.Spec.Taints = append(n.Spec.Taints, model.Taint{Key: key, Value: value, Effect: effect})
	}
}

func label(k, v string) func(n *model.Node) {
	return func(n *model.Node) { n.Labels[k] = v }
}

// daemonPod is a running pod of ds's revision h on node, ready (and
// available) since an hour before t0.
func daemonPod(name, nodeName, h string, edits ...func(p *model.Pod)) *model.Pod {
	p := &model.Pod{
		ObjectMeta: model.ObjectMeta{Name: name, Namespace: dsNS, UID: "uid-" + name, CreationTimestamp: t0.Add(-2 * time.Hour),
			Labels:          map[string]string{"name": dsName, model.DaemonSetUniqueLabel: h},
			OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DaemonSetKind, dsName, dsUID)}},
		Spec: model.PodSpec{NodeName: nodeName},
		Status: model.PodStatus{Phase: model.PodRunning,
			Conditions: []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: t0.Add(-time.Hour)}}},
	}
	for _, e := range edits {
		e(p)
	}
	return p
}

func phase(ph model.PodPhase) func(p *model.Pod) {
	return func(p *model.Pod) { p.Status.Phase = ph }
}

func notReady(p *model.Pod) { p.Status.Conditions[0].Status = model.ConditionFalse }

func readySince(at time.Time) func(p *model.Pod) {
	return func(p *model.Pod) { p.Status.Conditions[0].LastTransitionTime = at }
}

func createdAt(at time.Time) func(p *model.Pod) {
	return func(p *model.Pod) { p.CreationTimestamp = at }
}

// summary renders each action as "Kind object[@node]".
func summary(p daemonset.Plan) []string {
	out := []string{}
	for _, a := range p.Actions {
		s := string(a.Kind) + " " + a.Object.Name
		if a.Kind == daemonset.CreatePod {
			s = string(a.Kind) + " @" + a.Node
		}
		out = append(out, s)
	}
	return out
}

func eventSummary(p daemonset.Plan) []string {
	out := []string{}
	for _, e := range p.Events {
		msg := e.Message
		if name, ok := strings.CutPrefix(msg, "Created pod: "); ok && len(name) > 5 {
			msg = "Created pod: " + name[:len(name)-5] + "*"
		}
		out = append(out, e.Reason+": "+msg)
	}
	return out
}

func noteCodes(p daemonset.Plan) []string {
	out := []string{}
	for _, n := range p.Notes {
		out = append(out, string(n.Code))
	}
	return out
}
