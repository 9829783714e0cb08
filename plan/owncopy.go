package plan

import (
	"maps"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
)

// The copies the plan makes of input objects share nothing with the input.
// Within one copy, the label maps a write never changes (the labels, the
// selector's matchLabels and the template's labels) are one map when their
// contents are equal, as they usually are: the plan's objects are read-only
// (see Plan), and one map instead of up to three saves two allocations each.

// labelMaps copies the label maps of one object, giving maps of equal
// content one copy.
type labelMaps struct {
	from, to [3]map[string]string
	n        int
}

// clone returns a copy of m (nil for nil): the copy of an equal map cloned
// before, if any.
func (c *labelMaps) clone(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	for i := range c.n {
		if len(c.from[i]) == len(m) && maps.Equal(c.from[i], m) {
			return c.to[i]
		}
	}
	out := maps.Clone(m)
	if c.n < len(c.from) {
		c.from[c.n], c.to[c.n] = m, out
		c.n++
	}
	return out
}

// copySelector sets *dst to a copy of s sharing nothing with it, its match
// labels from c, and returns dst; nil for a nil s.
func copySelector(s *model.LabelSelector, c *labelMaps, dst *model.LabelSelector) *model.LabelSelector {
	if s == nil {
		return nil
	}
	*dst = *s
	dst.MatchLabels = c.clone(s.MatchLabels)
	if s.MatchExpressions != nil {
		dst.MatchExpressions = make([]model.LabelSelectorRequirement, len(s.MatchExpressions))
		for i, r := range s.MatchExpressions {
			r.Values = slices.Clone(r.Values)
			dst.MatchExpressions[i] = r
		}
	}
	return dst
}

// copyTemplate returns a copy of t sharing nothing with it, its labels from
// c.
func copyTemplate(t model.PodTemplate, c *labelMaps) model.PodTemplate {
	labels := t.Labels
	t.Labels = nil
	t = t.DeepCopy()
	t.Labels = c.clone(labels)
	return t
}

// specCopy holds what a copied DeploymentSpec points to.
type specCopy struct {
	selector                 model.LabelSelector
	ints                     [3]int32
	rollingUpdate            model.RollingUpdate
	maxSurge, maxUnavailable model.IntOrString
}

// ownMetaAndSpec makes d's metadata (but its annotations, which the caller
// copies on its own) and spec share nothing with what they were, what the
// spec points to placed in m, the label maps through one labelMaps.
func ownMetaAndSpec(d *model.Deployment, m *specCopy) {
	var c labelMaps
	meta := d.ObjectMeta
	meta.Labels, meta.Annotations = nil, nil
	meta = meta.DeepCopy()
	meta.Labels, meta.Annotations = c.clone(d.Labels), d.Annotations
	spec := d.Spec
	spec.Replicas = copyInt32(&m.ints[0], spec.Replicas)
	spec.RevisionHistoryLimit = copyInt32(&m.ints[1], spec.RevisionHistoryLimit)
	spec.ProgressDeadlineSeconds = copyInt32(&m.ints[2], spec.ProgressDeadlineSeconds)
	if ru := spec.Strategy.RollingUpdate; ru != nil {
		m.rollingUpdate = *ru
		m.rollingUpdate.MaxSurge = copyIntOrString(&m.maxSurge, ru.MaxSurge)
		m.rollingUpdate.MaxUnavailable = copyIntOrString(&m.maxUnavailable, ru.MaxUnavailable)
		spec.Strategy.RollingUpdate = &m.rollingUpdate
	}
	spec.Template = copyTemplate(d.Spec.Template, &c)
	spec.Selector = copySelector(d.Spec.Selector, &c, &m.selector)
	d.ObjectMeta, d.Spec = meta, spec
}

// copyIntOrString returns nil for a nil p, else dst holding *p.
func copyIntOrString(dst, p *model.IntOrString) *model.IntOrString {
	if p == nil {
		return nil
	}
	*dst = *p
	return dst
}

// replicaSetCopy is a copied ReplicaSet with its selector and the values
// its pointers point to: one allocation.
type replicaSetCopy struct {
	rs       model.ReplicaSet
	ints     [2]int32
	selector model.LabelSelector
}

// copyReplicaSet returns a copy of rs sharing nothing with it, its label
// maps through one labelMaps (its annotations are always its own).
func copyReplicaSet(rs *model.ReplicaSet) *model.ReplicaSet {
	return &copyReplicaSetTo(new(replicaSetCopy), rs).rs
}

// copyReplicaSetTo is copyReplicaSet into b, which it returns.
func copyReplicaSetTo(b *replicaSetCopy, rs *model.ReplicaSet) *replicaSetCopy {
	var c labelMaps
	out := &b.rs
	*out = *rs
	meta := rs.ObjectMeta
	meta.Labels = nil
	out.ObjectMeta = meta.DeepCopy()
	out.Labels = c.clone(rs.Labels)
	out.Spec.Replicas = copyInt32(&b.ints[0], rs.Spec.Replicas)
	out.Spec.Selector = copySelector(rs.Spec.Selector, &c, &b.selector)
	out.Spec.Template = copyTemplate(rs.Spec.Template, &c)
	out.Status.TerminatingReplicas = copyInt32(&b.ints[1], rs.Status.TerminatingReplicas)
	out.Status.Conditions = slices.Clone(rs.Status.Conditions)
	return b
}

// copyInt32 returns nil for a nil p, else dst holding *p.
func copyInt32(dst, p *int32) *int32 {
	if p == nil {
		return nil
	}
	*dst = *p
	return dst
}

// copyInput returns a copy of the input ReplicaSet rs to write: one
// sharing nothing with rs, or under shareInput a shallow copy (its one
// caller replaces the annotations it changes rather than change them in
// place, and later writes of the copy copy it again).
func (s *syncer) copyInput(rs *model.ReplicaSet) *model.ReplicaSet {
	if !s.cfg.shareInput {
		return copyReplicaSet(rs)
	}
	c := *rs
	return &c
}
