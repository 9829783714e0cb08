package appsv1

import (
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
)

// writer derives one plan's writes from the objects of s.
type writer struct {
	s State
	// in is s converted, when hasIn; else templates are converted on
	// demand (converted). A copy rather than a pointer: a pointer kept
	// here would move every sync's plan.State to the heap.
	in    plan.State
	hasIn bool
	// actions are the writes derived so far: the ReplicaSets created are
	// the bases of later updates of them.
	actions []Action
	// converted holds the templates converted on demand (!hasIn):
	// index 0 the Deployment's, i+1 that of s.ReplicaSets[i].
	converted []*model.PodTemplate
}

// base returns the object an update of the ReplicaSet namespace/name
// derives from: the last ReplicaSet of s with that name, else the first
// one the plan created.
func (wr *writer) base(namespace, name string) *apps.ReplicaSet {
	for i := len(wr.s.ReplicaSets) - 1; i >= 0; i-- {
		if rs := wr.s.ReplicaSets[i]; rs != nil && rs.Name == name && rs.Namespace == namespace {
			return rs
		}
	}
	for _, w := range wr.actions {
		if rs, ok := w.Object.(*apps.ReplicaSet); ok && w.Kind == plan.CreateReplicaSet && rs.Name == name && rs.Namespace == namespace {
			return rs
		}
	}
	return nil
}

// deploymentTemplate is the converted template of s.Deployment.
func (wr *writer) deploymentTemplate() (model.PodTemplate, error) {
	if wr.hasIn && wr.in.Deployment != nil {
		return wr.in.Deployment.Spec.Template, nil
	}
	return wr.convert(0, &wr.s.Deployment.Spec.Template)
}

// replicaSetTemplate is the converted template of s.ReplicaSets[i].
func (wr *writer) replicaSetTemplate(i int) (model.PodTemplate, error) {
	if wr.hasIn && i < len(wr.in.ReplicaSets) {
		return wr.in.ReplicaSets[i].Spec.Template, nil
	}
	return wr.convert(i+1, &wr.s.ReplicaSets[i].Spec.Template)
}

func (wr *writer) convert(slot int, t *core.PodTemplateSpec) (model.PodTemplate, error) {
	if wr.converted == nil {
		wr.converted = make([]*model.PodTemplate, len(wr.s.ReplicaSets)+1)
	}
	if m := wr.converted[slot]; m != nil {
		return *m, nil
	}
	m, err := TemplateToModel(t)
	if err != nil {
		return model.PodTemplate{}, err
	}
	wr.converted[slot] = &m
	return m, nil
}

// template returns the apps/v1 form of m, a template the plan writes. The
// planner builds every template it writes from one it was given: a new
// ReplicaSet's from the Deployment's, a rollback's from a ReplicaSet's,
// with other labels. So m is taken from the object of s whose converted
// template has m's Spec, with m's labels and annotations (the template as
// upstream copies it, no JSON round trip); when none has, m is rebuilt
// as [TemplateFromModel] does, with m's maps.
func (wr *writer) template(m model.PodTemplate) (core.PodTemplateSpec, error) {
	if d := wr.s.Deployment; d != nil {
		if dt, err := wr.deploymentTemplate(); err == nil && dt.Spec == m.Spec {
			return withMaps(d.Spec.Template, m), nil
		}
	}
	for i, rs := range wr.s.ReplicaSets {
		if rs == nil {
			continue
		}
		if rt, err := wr.replicaSetTemplate(i); err == nil && rt.Spec == m.Spec {
			return withMaps(rs.Spec.Template, m), nil
		}
	}
	t, err := templateSpecFromModel(m.Spec)
	if err != nil {
		return core.PodTemplateSpec{}, err
	}
	return withMaps(t, m), nil
}

// withMaps returns t (a shallow copy: it shares t's pod spec) with m's
// labels and annotations (the plan's maps, see Action).
func withMaps(t core.PodTemplateSpec, m model.PodTemplate) core.PodTemplateSpec {
	t.Labels = m.Labels
	t.Annotations = m.Annotations
	return t
}
