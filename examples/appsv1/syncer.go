package appsv1

import (
	"fmt"
	"maps"
	"sync"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Syncer is [Sync] with a memory of conversions, for a program that plans
// the same objects again and again (a watch loop, a simulation, a
// benchmark). Converting a pod template or a pod spec to the model's
// canonical form is most of the cost of [Sync]; a Syncer converts each
// object once, keyed by its UID and resourceVersion, and keeps the upstream
// hash of the Deployment's template with it.
//
// Its results are those of [Sync] on the same arguments, provided an
// object with a given UID and resourceVersion never changes, as is true of
// objects read from the API server: change an object in place and it must
// get a new resourceVersion (or none; objects without a UID or a
// resourceVersion are converted on every call). A Syncer keeps what the
// previous call used and drops the rest, so its memory is bounded by the
// size of one State. The zero value is ready to use; a Syncer is safe for
// concurrent use.
type Syncer struct {
	mu        sync.Mutex
	cur, prev map[syncerKey]*syncerEntry
}

type syncerKey struct {
	kind byte // 'd', 'r' or 'p'
	uid  types.UID
	rv   string
}

// syncerEntry is what is remembered of one object: the canonical form of
// its template (Deployment, ReplicaSet) or of its pod spec (Pod), and for a
// Deployment the hash state of its template.
type syncerEntry struct {
	canonical string
	hashState uint32
	hashed    bool // hashState is set
	hashable  bool // the template converts back (see modelTemplateState)
}

// Sync plans one sync of s exactly as [Sync] does, with the conversions of
// earlier calls reused.
func (c *Syncer) Sync(s State, opts ...plan.Option) (Output, plan.Plan, error) {
	in, dEntry, err := c.model(s)
	if err != nil {
		return Output{}, plan.Plan{}, err
	}
	p, err := plan.Sync(in, append([]plan.Option{plan.WithHasher(c.hasher(in.Deployment.Spec.Template, dEntry))}, opts...)...)
	if err != nil {
		return Output{}, plan.Plan{}, s.Locate(err)
	}
	out, err := ToOutput(s, p)
	if err != nil {
		return Output{}, p, err
	}
	return out, p, nil
}

// hasher is [PodTemplateHash], with the state of the Deployment's own
// template computed once per Deployment version.
func (c *Syncer) hasher(dt model.PodTemplate, e *syncerEntry) plan.Hasher {
	return func(t model.PodTemplate, collisionCount *int32) string {
		if e == nil || !identicalTemplates(t, dt) {
			return PodTemplateHash(t, collisionCount)
		}
		c.mu.Lock()
		state, hashed, hashable := e.hashState, e.hashed, e.hashable
		c.mu.Unlock()
		if !hashed {
			state, hashable = modelTemplateState(dt)
			c.mu.Lock()
			e.hashState, e.hashed, e.hashable = state, true, hashable
			c.mu.Unlock()
		}
		if !hashable {
			return PodTemplateHash(t, collisionCount)
		}
		return finishHash(state, collisionCount)
	}
}

// identicalTemplates reports whether a and b convert back to the same
// v1.PodTemplateSpec: same Spec, same maps, nil where the other is nil.
func identicalTemplates(a, b model.PodTemplate) bool {
	return a.Spec == b.Spec &&
		(a.Labels == nil) == (b.Labels == nil) && maps.Equal(a.Labels, b.Labels) &&
		(a.Annotations == nil) == (b.Annotations == nil) && maps.Equal(a.Annotations, b.Annotations)
}

// model is [State.Model] with cached conversions. It returns the entry of
// the Deployment (nil when not cacheable).
func (c *Syncer) model(s State) (plan.State, *syncerEntry, error) {
	c.mu.Lock()
	c.prev, c.cur = c.cur, map[syncerKey]*syncerEntry{}
	c.mu.Unlock()

	d := s.Deployment
	if d == nil {
		_, err := DeploymentToModel(nil)
		return plan.State{}, nil, err
	}
	tmpl, dEntry, err := c.template('d', &d.ObjectMeta, &d.Spec.Template)
	if err != nil {
		return plan.State{}, nil, fmt.Errorf("deployment %s/%s: spec.%w", d.Namespace, d.Name, err)
	}
	out := plan.State{Deployment: deploymentWithTemplate(d, tmpl), Now: s.Now}
	for i, rs := range s.ReplicaSets {
		if rs == nil {
			_, err := ReplicaSetToModel(nil)
			return plan.State{}, nil, fmt.Errorf("replicaSets[%d]: %w", i, err)
		}
		tmpl, _, err := c.template('r', &rs.ObjectMeta, &rs.Spec.Template)
		if err != nil {
			return plan.State{}, nil, fmt.Errorf("replicaSets[%d]: replicaset %s/%s: spec.%w", i, rs.Namespace, rs.Name, err)
		}
		out.ReplicaSets = append(out.ReplicaSets, replicaSetWithTemplate(rs, tmpl))
	}
	for i, p := range s.Pods {
		if p == nil {
			_, err := PodToModel(nil)
			return plan.State{}, nil, fmt.Errorf("pods[%d]: %w", i, err)
		}
		e := c.lookup('p', &p.ObjectMeta)
		if e == nil {
			m, err := PodToModel(p)
			if err != nil {
				return plan.State{}, nil, fmt.Errorf("pods[%d]: %w", i, err)
			}
			c.store('p', &p.ObjectMeta, &syncerEntry{canonical: m.Spec.Body})
			out.Pods = append(out.Pods, m)
			continue
		}
		out.Pods = append(out.Pods, podWithBody(p, e.canonical))
	}
	return out, dEntry, nil
}

// template is [TemplateToModel] of the template of the object with meta,
// converted once per version; it also returns the object's entry.
func (c *Syncer) template(kind byte, meta *metav1.ObjectMeta, t *core.PodTemplateSpec) (model.PodTemplate, *syncerEntry, error) {
	if e := c.lookup(kind, meta); e != nil {
		return model.PodTemplate{Labels: maps.Clone(t.Labels), Annotations: maps.Clone(t.Annotations), Spec: e.canonical}, e, nil
	}
	m, err := TemplateToModel(t)
	if err != nil {
		return model.PodTemplate{}, nil, err
	}
	return m, c.store(kind, meta, &syncerEntry{canonical: m.Spec}), nil
}

func cacheKey(kind byte, meta *metav1.ObjectMeta) (syncerKey, bool) {
	return syncerKey{kind: kind, uid: meta.UID, rv: meta.ResourceVersion}, meta.UID != "" && meta.ResourceVersion != ""
}

// lookup returns the entry of the object's version, keeping it for the
// next call, or nil.
func (c *Syncer) lookup(kind byte, meta *metav1.ObjectMeta) *syncerEntry {
	k, ok := cacheKey(kind, meta)
	if !ok {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.cur[k]
	if e == nil {
		if e = c.prev[k]; e != nil {
			c.cur[k] = e
		}
	}
	return e
}

// store remembers e for the object's version (when it has one) and
// returns it, or nil when the object cannot be cached.
func (c *Syncer) store(kind byte, meta *metav1.ObjectMeta, e *syncerEntry) *syncerEntry {
	k, ok := cacheKey(kind, meta)
	if !ok {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur == nil {
		c.cur = map[syncerKey]*syncerEntry{}
	}
	c.cur[k] = e
	return e
}
