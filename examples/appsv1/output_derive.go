package appsv1

import (
	"maps"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
)

// writer derives one plan's writes from the objects of s.
type writer struct {
	s State
	// in is s converted, or nil: templates are then converted on demand
	// (converted).
	in *plan.State
	// created are the ReplicaSets the plan created so far, the bases of
	// later updates of them.
	created []*apps.ReplicaSet
	// converted holds the templates converted on demand (in == nil):
	// index 0 the Deployment's, i+1 that of s.ReplicaSets[i].
	converted []*model.PodTemplate
}

// base returns the object an update of the ReplicaSet namespace/name
// applies to: the last one the plan created, else the last ReplicaSet of
// s with that name.
func (wr *writer) base(namespace, name string) *apps.ReplicaSet {
	for i := len(wr.created) - 1; i >= 0; i-- {
		if rs := wr.created[i]; rs.Name == name && rs.Namespace == namespace {
			return rs
		}
	}
	for i := len(wr.s.ReplicaSets) - 1; i >= 0; i-- {
		if rs := wr.s.ReplicaSets[i]; rs != nil && rs.Name == name && rs.Namespace == namespace {
			return rs
		}
	}
	return nil
}

// deploymentTemplate is the converted template of s.Deployment.
func (wr *writer) deploymentTemplate() (model.PodTemplate, error) {
	if wr.in != nil && wr.in.Deployment != nil {
		return wr.in.Deployment.Spec.Template, nil
	}
	return wr.convert(0, &wr.s.Deployment.Spec.Template)
}

// replicaSetTemplate is the converted template of s.ReplicaSets[i].
func (wr *writer) replicaSetTemplate(i int) (model.PodTemplate, error) {
	if wr.in != nil && i < len(wr.in.ReplicaSets) {
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
// with other labels. So m is a copy of the template of the object of s
// whose converted template has m's Spec, with m's labels and annotations
// (the template as upstream copies it, no JSON round trip); when none has,
// m is rebuilt as [TemplateFromModel] does.
func (wr *writer) template(m model.PodTemplate) (core.PodTemplateSpec, error) {
	if d := wr.s.Deployment; d != nil {
		if dt, err := wr.deploymentTemplate(); err == nil && dt.Spec == m.Spec {
			return withMaps(&d.Spec.Template, m), nil
		}
	}
	for i, rs := range wr.s.ReplicaSets {
		if rs == nil {
			continue
		}
		if rt, err := wr.replicaSetTemplate(i); err == nil && rt.Spec == m.Spec {
			return withMaps(&rs.Spec.Template, m), nil
		}
	}
	return TemplateFromModel(m)
}

// withMaps returns a copy of t with copies of m's labels and annotations.
func withMaps(t *core.PodTemplateSpec, m model.PodTemplate) core.PodTemplateSpec {
	rest := *t // shallow: only its labels and annotations are replaced before the deep copy
	rest.Labels, rest.Annotations = nil, nil
	out := *rest.DeepCopy()
	out.Labels, out.Annotations = maps.Clone(m.Labels), maps.Clone(m.Annotations)
	return out
}
