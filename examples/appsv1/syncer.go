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

// Syncer is [Sync] with a cache of conversions, for a program that plans
// the same objects again and again, as a controller does from its
// informers' caches. Converting a pod template to the planner's model
// encodes it as canonical JSON, and hashing it as upstream does dumps it:
// together most of an uncached sync's time. A Syncer keeps each object's
// conversion (and a Deployment's template hash) under the object's kind,
// UID and resourceVersion, and converts an object again only when it
// comes with a version it has not seen. It checks the pod spec of each
// template it converts then (model.ValidateTemplatePodSpec), and when
// every template of a State passes, plans with plan.PodSpecsValidated, so
// that the planner does not read them again at every sync.
//
// Its results are those of [Sync] on the same arguments, because an
// object with a given UID and resourceVersion has one content, as every
// object read from one API server (an informer's cache included) has: a
// change stored by the server comes with a new resourceVersion. An object
// without a UID or a resourceVersion (one built in a test, or a what-if
// copy with its resourceVersion cleared) is converted at every call. Use
// one Syncer per cluster.
//
// The cache holds only its own conversions: it keeps no reference to the
// objects handed in, and what it returns (the Output, the Plan) shares no
// memory with the cache or with the State, so a caller may change either.
//
// One Syncer serves any number of Deployments, as one controller does.
// It forgets what it has not used for a while: once it holds a limit of
// conversions (65 536, or four times the objects of the largest State it
// has planned if more), it starts a new generation, and drops the
// conversions the generation before that did not use, so it holds at most
// twice the limit. The zero value is ready to use and plans with no
// options but the upstream hash, as [NewSyncer]() does; a Syncer is safe
// for concurrent use.
type Syncer struct {
	opts []plan.Option

	mu sync.Mutex
	// cur holds the conversions used in this generation, prev those of
	// the generation before (moved to cur when used again).
	cur, prev map[syncerKey]*syncerEntry
	limit     int // conversions at which a new generation starts; 0: minSyncerMemory
}

// NewSyncer returns a Syncer that plans with opts, applied after the
// upstream hash as with [Sync].
func NewSyncer(opts ...plan.Option) *Syncer {
	return &Syncer{opts: opts}
}

// syncerKey names one version of one object.
type syncerKey struct {
	kind byte // 'd', 'r' or 'p'
	uid  types.UID
	rv   string
}

// keyOf is the key of the object version meta names; false when the object
// has no UID or no resourceVersion, and is then not cached.
func keyOf(kind byte, meta *metav1.ObjectMeta) (syncerKey, bool) {
	if meta.UID == "" || meta.ResourceVersion == "" {
		return syncerKey{}, false
	}
	return syncerKey{kind: kind, uid: meta.UID, rv: meta.ResourceVersion}, true
}

// syncerEntry is the conversion of one object version: one of d, rs and
// pod, never modified once stored (the planner never modifies its input,
// and what it returns shares nothing with it), for a Deployment or a
// ReplicaSet whether its template passes model.ValidateTemplatePodSpec,
// for a ReplicaSet or a pod whether it passes its model validation, and
// for a Deployment the upstream hash state of its apps/v1 template,
// computed when first needed.
type syncerEntry struct {
	d      *model.Deployment
	rs     *model.ReplicaSet
	pod    *model.Pod
	specOK bool
	// objOK: a ReplicaSet passes model.ValidateReplicaSet, a pod
	// model.ValidatePod.
	objOK bool
	hash  hashMemo
}

// minSyncerMemory is the fewest conversions a Syncer holds before it
// starts a new generation.
const minSyncerMemory = 1 << 16

// Sync plans one sync of s exactly as [Sync] does with the Syncer's
// options and then opts, with the conversions of earlier calls reused.
func (c *Syncer) Sync(s State, opts ...plan.Option) (Output, plan.Plan, error) {
	in, memo, known, err := c.model(s)
	if err != nil {
		return Output{}, plan.Plan{}, err
	}
	all := make([]plan.Option, 0, 2+len(c.opts)+len(opts))
	if known.specs {
		all = append(all, plan.PodSpecsValidated())
	}
	if known.objects {
		all = append(all, plan.ReplicaSetsAndPodsValidated())
	}
	all = append(append(all, c.opts...), opts...)
	return syncInput(s, in, deploymentHasher(&s.Deployment.Spec.Template, in.Deployment.Spec.Template, memo), all)
}

// validated is what a Syncer knows of a State's objects from their
// conversions: whether every template passes model.ValidateTemplatePodSpec
// (the pods' bodies are left empty, and pass), and whether every
// ReplicaSet and pod passes its model validation.
type validated struct{ specs, objects bool }

// model is planInput with the conversions cached; it also returns where
// the hash state of the Deployment's template is kept, and what is known
// valid. The errors are planInput's.
func (c *Syncer) model(s State) (plan.State, *hashMemo, validated, error) {
	d := s.Deployment
	if d == nil {
		_, err := DeploymentToModel(nil)
		return plan.State{}, nil, validated{}, err
	}
	// Look every object up at once; convert the others outside the lock.
	dEntry, rsEntries, podEntries := c.lookup(s)
	var added []keyed
	if dEntry == nil {
		dEntry = &syncerEntry{}
		if t, rsE := templateOfReplicaSets(s, rsEntries); rsE != nil {
			dEntry.d = deploymentWithTemplate(d, t)
			dEntry.specOK = rsE.specOK // the same Spec
		} else {
			var err error
			if dEntry.d, err = DeploymentToModel(d); err != nil {
				return plan.State{}, nil, validated{}, err
			}
			dEntry.specOK = model.ValidateTemplatePodSpec(dEntry.d.Spec.Template.Spec) == nil
		}
		if k, ok := keyOf('d', &d.ObjectMeta); ok {
			added = append(added, keyed{k, dEntry})
		}
	}
	out := plan.State{Deployment: dEntry.d, Now: s.Now}
	known := validated{specs: dEntry.specOK, objects: true}
	if len(s.ReplicaSets) > 0 {
		out.ReplicaSets = make([]*model.ReplicaSet, len(s.ReplicaSets))
	}
	for i, rs := range s.ReplicaSets {
		if e := rsEntries[i]; e != nil {
			out.ReplicaSets[i] = e.rs
			known.specs = known.specs && e.specOK
			known.objects = known.objects && e.objOK
			continue
		}
		m, err := replicaSetForPlan(rs, d, dEntry.d.Spec.Template.Spec)
		if err != nil {
			return plan.State{}, nil, validated{}, fmt.Errorf("replicaSets[%d]: %w", i, err)
		}
		out.ReplicaSets[i] = m
		// The usual ReplicaSet holds the Deployment's Spec (see
		// replicaSetForPlan), whose verdict is known.
		rsOK := dEntry.specOK
		if m.Spec.Template.Spec != dEntry.d.Spec.Template.Spec {
			rsOK = model.ValidateTemplatePodSpec(m.Spec.Template.Spec) == nil
		}
		objOK := model.ValidateReplicaSet(m) == nil
		known.specs = known.specs && rsOK
		known.objects = known.objects && objOK
		if k, ok := keyOf('r', &rs.ObjectMeta); ok {
			added = append(added, keyed{k, &syncerEntry{rs: m, specOK: rsOK, objOK: objOK}})
		}
	}
	if len(s.Pods) > 0 {
		out.Pods = make([]*model.Pod, len(s.Pods))
	}
	for i, p := range s.Pods {
		if e := podEntries[i]; e != nil {
			out.Pods[i] = e.pod
			known.objects = known.objects && e.objOK
			continue
		}
		m, err := podForPlan(p)
		if err != nil {
			return plan.State{}, nil, validated{}, fmt.Errorf("pods[%d]: %w", i, err)
		}
		out.Pods[i] = m
		objOK := model.ValidatePod(m) == nil
		known.objects = known.objects && objOK
		if k, ok := keyOf('p', &p.ObjectMeta); ok {
			added = append(added, keyed{k, &syncerEntry{pod: m, objOK: objOK}})
		}
	}
	if len(added) > 0 {
		c.add(added, 1+len(s.ReplicaSets)+len(s.Pods))
	}
	return out, &dEntry.hash, known, nil
}

type keyed struct {
	k syncerKey
	e *syncerEntry
}

// lookup returns the cached conversions of s's objects (nil where there is
// none).
func (c *Syncer) lookup(s State) (d *syncerEntry, rss, pods []*syncerEntry) {
	rss = make([]*syncerEntry, len(s.ReplicaSets))
	pods = make([]*syncerEntry, len(s.Pods))
	c.mu.Lock()
	defer c.mu.Unlock()
	d = c.get('d', &s.Deployment.ObjectMeta)
	for i, rs := range s.ReplicaSets {
		if rs != nil {
			rss[i] = c.get('r', &rs.ObjectMeta)
		}
	}
	for i, p := range s.Pods {
		if p != nil {
			pods[i] = c.get('p', &p.ObjectMeta)
		}
	}
	return d, rss, pods
}

// get returns the cached conversion of the object version meta names, or
// nil, and keeps it in the current generation. c.mu is held.
func (c *Syncer) get(kind byte, meta *metav1.ObjectMeta) *syncerEntry {
	k, ok := keyOf(kind, meta)
	if !ok {
		return nil
	}
	if e := c.cur[k]; e != nil {
		return e
	}
	e := c.prev[k]
	if e != nil {
		delete(c.prev, k)
		c.put(k, e)
	}
	return e
}

// add caches new conversions; n is the number of objects of the call.
func (c *Syncer) add(added []keyed, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.limit == 0 {
		c.limit = minSyncerMemory
	}
	c.limit = max(c.limit, 4*n)
	for _, a := range added {
		if c.cur[a.k] == nil { // another call may have converted it meanwhile
			c.put(a.k, a.e)
		}
	}
}

// put stores e in the current generation, starting a new one when the
// current one is full. c.mu is held.
func (c *Syncer) put(k syncerKey, e *syncerEntry) {
	if c.limit == 0 {
		c.limit = minSyncerMemory
	}
	if len(c.cur) >= c.limit {
		c.prev, c.cur = c.cur, nil
	}
	if c.cur == nil {
		c.cur = make(map[syncerKey]*syncerEntry)
	}
	c.cur[k] = e
}

// templateOfReplicaSets is the converted template of s.Deployment when a
// ReplicaSet of s whose conversion is cached (rsEntries) has a template
// equal to the Deployment's but for labels and annotations (see
// sameTemplateBody), with that ReplicaSet's entry (nil when there is
// none): a new version of a Deployment whose template did not change
// (after a status write, a scale) then costs no encoding and no check.
func templateOfReplicaSets(s State, rsEntries []*syncerEntry) (model.PodTemplate, *syncerEntry) {
	for i, e := range rsEntries {
		if e != nil && sameTemplateBody(&s.ReplicaSets[i].Spec.Template, &s.Deployment.Spec.Template) {
			return withSpec(s.Deployment.Spec.Template, e.rs.Spec.Template.Spec), e
		}
	}
	return model.PodTemplate{}, nil
}

// withSpec is the model template of t whose Spec, converted, is spec.
func withSpec(t core.PodTemplateSpec, spec string) model.PodTemplate {
	return model.PodTemplate{Labels: maps.Clone(t.Labels), Annotations: maps.Clone(t.Annotations), Spec: spec}
}
