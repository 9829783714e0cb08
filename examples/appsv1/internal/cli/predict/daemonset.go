package predict

import (
	"fmt"
	"maps"

	apps "k8s.io/api/apps/v1"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	"github.com/rolloutplan/rolloutplan/plan/evidence"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// RunDaemonSet simulates the rest of the rollout of s from s.Now under w,
// with the upstream hash and revision data (as appsv1.SyncDaemonSet plans),
// over the snapshot's nodes (sim.RunDaemonSet): pods that are Running and
// Ready stay so, the others become ready w.ReadyAfter after their creation
// (without --ready-after, the delay the DaemonSet's pods showed, see
// [evidence.Assess]), or never with w.NeverReady for the DaemonSet's
// template (the pods the simulation creates from it, and those already
// labelled with its hash) and for the revision of a stalled pod.
// Invariants are checked at every sync, and the work is bounded by
// w.MaxWork; w.Fidelity is not read.
func RunDaemonSet(s appsv1.DaemonSetState, w World) (*Prediction, error) {
	m, err := s.Model()
	if err != nil {
		return nil, err
	}
	opts, hash, err := upstreamDaemonSetOptions(s.DaemonSet, m.DaemonSet.Spec.Template)
	if err != nil {
		return nil, err
	}
	cfg := sim.DaemonSetConfig{
		DaemonSet: m.DaemonSet, Nodes: m.Nodes, Pods: m.Pods, ControllerRevisions: m.ControllerRevisions, PodNodeAffinity: m.PodNodeAffinity,
		Start: s.Now, World: sim.World{ReadyAfter: w.ReadyAfter, TerminationGrace: w.Grace}, PlanOptions: opts, Check: true,
		MaxWork: w.MaxWork,
	}
	p := &Prediction{World: w, Start: s.Now, DaemonSet: m.DaemonSet, Fidelity: sim.Pods, nodes: len(m.Nodes)}
	for _, n := range m.Nodes {
		if daemonset.NodeShouldRunDaemonPod(n, m.DaemonSet).ShouldRun {
			p.desiredNodes++
		}
	}
	var never []func(model.PodTemplate) bool
	if w.NeverReady {
		current := m.DaemonSet.Spec.Template.Spec
		never = append(never, func(t model.PodTemplate) bool {
			return t.Spec == current || t.Labels[model.DaemonSetUniqueLabel] == hash
		})
		p.neverReady = append(p.neverReady, "those of the current template")
	}
	if w.FromPods() {
		a := evidence.Assess(SetPods(m.DaemonSet.UID, m.Pods), s.Now, evidence.Options{})
		p.Evidence, cfg.World.ReadyAfter = &a, a.ReadyAfter
		// A stalled pod's revision never becomes ready: the pods the
		// simulation makes of it carry the same hash label.
		hashes := map[string]bool{}
		byName := podsByName(m.Pods)
		for _, st := range a.Stalled() {
			if pod := byName[st.Pod]; pod != nil && pod.Labels[model.DaemonSetUniqueLabel] != "" {
				hashes[pod.Labels[model.DaemonSetUniqueLabel]] = true
			}
		}
		for _, h := range sortedKeys(hashes) {
			p.neverReady = append(p.neverReady, "those of revision hash "+h)
		}
		if len(hashes) > 0 {
			never = append(never, func(t model.PodTemplate) bool { return hashes[t.Labels[model.DaemonSetUniqueLabel]] })
		}
	}
	cfg.World.NeverReady = anyOf(never)
	trace, err := sim.RunDaemonSet(cfg)
	if err != nil {
		return nil, workBound(err, w, setWorkAdvice)
	}
	p.DaemonSetTrace = trace
	return p, nil
}

// upstreamDaemonSetOptions are the planner options that hash and record
// the DaemonSet's template as upstream does (controller.ComputeHash of the
// apps/v1 template, getPatch for the revision data), so that the live pods
// and revisions count as current; other templates (a revision a script
// would restore) keep the planner's own encoding. hash is the template's
// hash.
func upstreamDaemonSetOptions(ds *apps.DaemonSet, conv model.PodTemplate) ([]daemonset.Option, string, error) {
	patch, err := appsv1.DaemonSetPatch(&ds.Spec.Template)
	if err != nil {
		return nil, "", err
	}
	same := func(t model.PodTemplate) bool {
		return t.Spec == conv.Spec && (t.Labels == nil) == (conv.Labels == nil) && maps.Equal(t.Labels, conv.Labels) &&
			(t.Annotations == nil) == (conv.Annotations == nil) && maps.Equal(t.Annotations, conv.Annotations)
	}
	tmpl := ds.Spec.Template.DeepCopy()
	opts := []daemonset.Option{
		daemonset.WithHasher(func(t model.PodTemplate, collisionCount *int32) string {
			if same(t) {
				return appsv1.ComputeHash(tmpl, collisionCount)
			}
			return appsv1.PodTemplateHash(t, collisionCount)
		}),
		daemonset.WithPatcher(func(t model.PodTemplate) string {
			if same(t) {
				return string(patch)
			}
			return daemonset.DefaultPatch(t)
		}),
	}
	return opts, appsv1.ComputeHash(tmpl, ds.Status.CollisionCount), nil
}

// daemonSetStrategy says a DaemonSet's update strategy as the header
// prints it.
func daemonSetStrategy(ds *model.DaemonSet) string {
	u := ds.Spec.UpdateStrategy
	if u.Type != model.DaemonSetRollingUpdate || u.RollingUpdate == nil {
		return string(u.Type)
	}
	out := "RollingUpdate"
	if ru := u.RollingUpdate; ru.MaxSurge != nil && daemonset.AllowsSurge(ds) {
		out += " maxSurge " + ru.MaxSurge.String()
	} else if ru.MaxUnavailable != nil {
		out += " maxUnavailable " + ru.MaxUnavailable.String()
	}
	if ds.Spec.MinReadySeconds > 0 {
		out += fmt.Sprintf(", minReadySeconds %d", ds.Spec.MinReadySeconds)
	}
	return out
}
