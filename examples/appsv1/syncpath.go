package appsv1

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"sync/atomic"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
)

// The path [Sync] and [Syncer] share: convert what the planner reads, plan
// with the Deployment's template hashed from its apps/v1 form, and derive
// the writes from the objects read.

// planInput converts s as [State.Model] does, except that a Pod's spec body
// ([model.PodSpec.Body]) is left empty: the Deployment planner reads a
// Pod's metadata, phase and conditions, never its spec body, and encoding
// every pod spec as canonical JSON would be most of a sync's cost. A
// ReplicaSet whose template equals the Deployment's but for labels and
// annotations (the usual new ReplicaSet) takes the Deployment's converted
// Spec instead of encoding its own. The errors are those of [State.Model].
func planInput(s State) (plan.State, error) {
	d, err := DeploymentToModel(s.Deployment)
	if err != nil {
		return plan.State{}, err
	}
	out := plan.State{Deployment: d, Now: s.Now}
	if len(s.ReplicaSets) > 0 {
		out.ReplicaSets = make([]*model.ReplicaSet, 0, len(s.ReplicaSets))
	}
	for i, rs := range s.ReplicaSets {
		m, err := replicaSetForPlan(rs, s.Deployment, d.Spec.Template.Spec)
		if err != nil {
			return plan.State{}, fmt.Errorf("replicaSets[%d]: %w", i, err)
		}
		out.ReplicaSets = append(out.ReplicaSets, m)
	}
	if len(s.Pods) > 0 {
		out.Pods = make([]*model.Pod, 0, len(s.Pods))
	}
	for i, p := range s.Pods {
		m, err := podForPlan(p)
		if err != nil {
			return plan.State{}, fmt.Errorf("pods[%d]: %w", i, err)
		}
		out.Pods = append(out.Pods, m)
	}
	return out, nil
}

// replicaSetForPlan is [ReplicaSetToModel], except that when rs's template
// equals d's but for labels and annotations it takes dSpec, d's converted
// Spec, instead of encoding its own (see planInput).
func replicaSetForPlan(rs *apps.ReplicaSet, d *apps.Deployment, dSpec string) (*model.ReplicaSet, error) {
	if rs != nil && sameTemplateBody(&rs.Spec.Template, &d.Spec.Template) {
		return replicaSetWithTemplate(rs, withSpec(rs.Spec.Template, dSpec)), nil
	}
	return ReplicaSetToModel(rs)
}

// sameTemplateBody reports whether a and b are equal Go values but for
// their labels and annotations: then [TemplateToModel] gives them the same
// Spec (it encodes the same value).
func sameTemplateBody(a, b *core.PodTemplateSpec) bool {
	if !reflect.DeepEqual(&a.Spec, &b.Spec) {
		return false
	}
	am, bm := a.ObjectMeta, b.ObjectMeta
	am.Labels, am.Annotations, bm.Labels, bm.Annotations = nil, nil, nil, nil
	return reflect.DeepEqual(&am, &bm)
}

// podForPlan is [PodToModel] without the spec body (see planInput).
func podForPlan(p *core.Pod) (*model.Pod, error) {
	if p == nil {
		return nil, fmt.Errorf("pod: %w", ErrNil)
	}
	return podWithBody(p, ""), nil
}

// hashMemo remembers the upstream hash state of one apps/v1 template (see
// templateState). The zero value holds nothing; it is safe for concurrent
// use (racing computations store the same value).
type hashMemo struct {
	v atomic.Uint64 // bit 32 set: the low 32 bits are the state
}

func (m *hashMemo) state(t *core.PodTemplateSpec) uint32 {
	if v := m.v.Load(); v&(1<<32) != 0 {
		return uint32(v)
	}
	st := templateState(t)
	m.v.Store(1<<32 | uint64(st))
	return st
}

// deploymentHasher is the [plan.Hasher] of a sync: the template the
// Deployment orig was converted to (conv) is hashed from orig's apps/v1
// template, as upstream's ComputeHash hashes the object it holds, with its
// state kept in memo; any other template is hashed by [PodTemplateHash].
// The planner only hashes the Deployment's own template.
func deploymentHasher(orig *core.PodTemplateSpec, conv model.PodTemplate, memo *hashMemo) plan.Hasher {
	return func(t model.PodTemplate, collisionCount *int32) string {
		if !identicalTemplates(t, conv) {
			return PodTemplateHash(t, collisionCount)
		}
		return finishHash(memo.state(orig), collisionCount)
	}
}

// identicalTemplates reports whether a and b convert back to the same
// v1.PodTemplateSpec: same Spec, same maps, nil where the other is nil.
func identicalTemplates(a, b model.PodTemplate) bool {
	return a.Spec == b.Spec &&
		(a.Labels == nil) == (b.Labels == nil) && maps.Equal(a.Labels, b.Labels) &&
		(a.Annotations == nil) == (b.Annotations == nil) && maps.Equal(a.Annotations, b.Annotations)
}

// syncInput plans in, converted from s, and derives the writes.
func syncInput(s State, in plan.State, h plan.Hasher, opts []plan.Option) (Output, plan.Plan, error) {
	all := make([]plan.Option, 0, len(opts)+1)
	all = append(all, plan.WithHasher(h))
	p, err := plan.Sync(in, append(all, opts...)...)
	return output(s, &in, p, err)
}

// output derives the writes of p, planned from in (converted from s), with
// err, the planner's error: a *plan.SyncError (the sync's end, returned
// with its Output and Plan) or invalid input (located in s).
func output(s State, in *plan.State, p plan.Plan, err error) (Output, plan.Plan, error) {
	var syncErr *plan.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		return Output{}, plan.Plan{}, s.Locate(err)
	}
	out, oerr := toOutput(s, in, p)
	if oerr != nil {
		return Output{}, p, oerr
	}
	if syncErr != nil {
		out.Error = syncErr.Error()
		return out, p, err
	}
	return out, p, nil
}
