package appsv1

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Syncer is [Sync] with a memory of conversions, for a program that plans
// the same objects again and again (a watch loop, a simulation, a
// benchmark). A Syncer converts each object once, keyed by its kind, UID
// and resourceVersion, and hands the same model object every time it sees
// that version again to its [plan.Planner], which then skips validating it
// and hashing its template again; the hash is upstream's, of the apps/v1
// template, as with Sync.
//
// Its results are those of [Sync] on the same arguments, provided an
// object with a given UID and resourceVersion never changes, as is true of
// objects read from one API server: change an object in place and it must
// get a new resourceVersion (or none; objects without a UID or a
// resourceVersion are converted on every call), and use one Syncer per
// cluster. The model objects are shared between calls and with the
// returned Plans (whose maps the Outputs share, see [Action]), which must
// therefore be treated as read-only (the planner never modifies its
// input).
//
// One Syncer serves any number of Deployments, as one controller does. It
// forgets: once it holds a limit of objects (65 536, or four times the
// largest State it has planned if more), it drops those no call has used
// since it last dropped any, so its memory stays within about twice the
// limit; its [plan.Planner] sizes its own memory to the Deployments it
// plans. The zero value is
// ready to use and plans with no options but the upstream hash, as
// [NewSyncer]() does; a Syncer is safe for concurrent use.
type Syncer struct {
	opts     []plan.Option
	initOnce sync.Once
	planner  *plan.Planner

	mu      sync.Mutex
	epoch   uint64 // times it has dropped unused entries
	limit   int    // entries at which it drops the unused; 0: minSyncerMemory
	entries map[syncerKey]*syncerEntry
	// byMeta finds the entry of an object handed in again (the same
	// pointer, as from an informer's cache) without hashing its UID and
	// resourceVersion: it maps each entry's meta to it.
	byMeta map[*metav1.ObjectMeta]*syncerEntry
	// byTemplate finds a Deployment's entry from its converted template,
	// for the Planner's hasher, which is handed only the template: it maps
	// the address of the bytes of the template's Spec string (the
	// entry's own conversion, which the planner passes on unchanged) to
	// the entry.
	byTemplate map[*byte]*syncerEntry
}

// NewSyncer returns a Syncer that plans with opts, applied after the
// upstream hash as with [Sync].
func NewSyncer(opts ...plan.Option) *Syncer {
	return &Syncer{opts: opts}
}

type syncerKey struct {
	kind byte // 'd', 'r' or 'p'
	uid  types.UID
	rv   string
}

// syncerEntry is what is remembered of one object version: its model
// object (one of d, rs, pod) and, for a Deployment, the hash state of its
// apps/v1 template.
type syncerEntry struct {
	epoch uint64 // the Syncer's epoch when last used
	key   syncerKey
	meta  *metav1.ObjectMeta // of the object last seen with key
	d     *model.Deployment
	rs    *model.ReplicaSet
	pod   *model.Pod
	// For a Deployment: the State it was last planned with (see
	// lastState).
	last *lastState
	// For a Deployment: the upstream hash state of its apps/v1 template
	// (set at conversion), and the calls planning with the entry now (an
	// entry in use stays in byTemplate).
	hash  hashMemo
	inUse atomic.Int32
}

// minSyncerMemory is the fewest entries a Syncer holds before it drops
// the unused ones (plan.Planner's minimum likewise).
const minSyncerMemory = 1 << 16

// Sync plans one sync of s exactly as [Sync] does with the Syncer's
// options and then opts, with the conversions of earlier calls reused.
// Without opts, and with a Deployment that has a UID and a
// resourceVersion, it plans with the Syncer's Planner; otherwise with
// [plan.Sync].
func (c *Syncer) Sync(s State, opts ...plan.Option) (Output, plan.Plan, error) {
	in, dEntry, err := c.model(s)
	if err != nil {
		return Output{}, plan.Plan{}, err
	}
	if dEntry != nil {
		defer dEntry.inUse.Add(-1)
	}
	if dEntry == nil || len(opts) > 0 {
		memo := new(hashMemo)
		if dEntry != nil {
			memo = &dEntry.hash
		}
		all := append(c.opts[:len(c.opts):len(c.opts)], opts...)
		return syncInput(s, in, deploymentHasher(&s.Deployment.Spec.Template, in.Deployment.Spec.Template, memo), all)
	}
	c.initOnce.Do(func() {
		c.planner = plan.NewPlanner(append([]plan.Option{plan.WithHasher(c.hash)}, c.opts...)...)
	})
	p, err := c.planner.Sync(in)
	return output(s, &in, p, err)
}

// hash is the Planner's [plan.Hasher]: a Deployment's template that this
// Syncer converted is hashed from the apps/v1 template it came from (as
// [Sync] does); any other template by [PodTemplateHash].
func (c *Syncer) hash(t model.PodTemplate, collisionCount *int32) string {
	if t.Spec != "" {
		c.mu.Lock()
		e := c.byTemplate[unsafe.StringData(t.Spec)]
		c.mu.Unlock()
		if e != nil && identicalTemplates(t, e.d.Spec.Template) {
			if v := e.hash.v.Load(); v&(1<<32) != 0 { // always: hashed at conversion
				return finishHash(uint32(v), collisionCount)
			}
		}
	}
	return PodTemplateHash(t, collisionCount)
}

// model is planInput with the conversions remembered. It returns the
// Deployment's entry (nil when the Deployment cannot be cached), in use
// until the caller calls inUse.Add(-1). The errors are planInput's.
func (c *Syncer) model(s State) (plan.State, *syncerEntry, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[syncerKey]*syncerEntry{}
		c.byMeta = map[*metav1.ObjectMeta]*syncerEntry{}
		c.byTemplate = map[*byte]*syncerEntry{}
	}

	d := s.Deployment
	if d == nil {
		_, err := DeploymentToModel(nil)
		return plan.State{}, nil, err
	}
	dEntry, err := c.entry('d', &d.ObjectMeta, func(e *syncerEntry) (err error) {
		if t, ok := c.templateOfReplicaSets(s); ok {
			e.d = deploymentWithTemplate(d, t)
		} else {
			e.d, err = DeploymentToModel(d)
		}
		if err == nil {
			// Hashed now, from this object: a later call may hand in
			// another copy of this version, or this object changed in
			// place under a new version.
			e.hash.state(&d.Spec.Template)
		}
		return err
	})
	if err != nil {
		return plan.State{}, nil, err
	}
	if l := dEntry.last; l != nil && l.same(s) {
		l.use(c.epoch)
		return c.done(s, dEntry, plan.State{Deployment: dEntry.d, ReplicaSets: l.in.ReplicaSets, Pods: l.in.Pods, Now: s.Now})
	}
	out := plan.State{Deployment: dEntry.d, Now: s.Now}
	last := &lastState{rss: s.ReplicaSets, pods: s.Pods, all: true}
	if len(s.ReplicaSets) > 0 {
		out.ReplicaSets = make([]*model.ReplicaSet, len(s.ReplicaSets))
		last.rsEntries = make([]*syncerEntry, len(s.ReplicaSets))
	}
	for i, rs := range s.ReplicaSets {
		if rs == nil {
			_, err := ReplicaSetToModel(nil)
			return plan.State{}, nil, fmt.Errorf("replicaSets[%d]: %w", i, err)
		}
		e, err := c.entry('r', &rs.ObjectMeta, func(e *syncerEntry) (err error) {
			e.rs, err = replicaSetForPlan(rs, d, dEntry.d.Spec.Template.Spec)
			return err
		})
		if err != nil {
			return plan.State{}, nil, fmt.Errorf("replicaSets[%d]: %w", i, err)
		}
		out.ReplicaSets[i] = e.rs
		last.rsEntries[i], last.all = e, last.all && e.cached()
	}
	if len(s.Pods) > 0 {
		out.Pods = make([]*model.Pod, len(s.Pods))
		last.podEntries = make([]*syncerEntry, len(s.Pods))
	}
	for i, p := range s.Pods {
		e, err := c.entry('p', podMeta(p), func(e *syncerEntry) (err error) {
			e.pod, err = podForPlan(p)
			return err
		})
		if err != nil {
			return plan.State{}, nil, fmt.Errorf("pods[%d]: %w", i, err)
		}
		out.Pods[i] = e.pod
		last.podEntries[i], last.all = e, last.all && e.cached()
	}
	if dEntry.cached() && last.all {
		last.rss, last.pods = slices.Clone(last.rss), slices.Clone(last.pods)
		last.in = out
		dEntry.last = last
	}
	return c.done(s, dEntry, out)
}

// done ends model: it drops unused entries and marks the Deployment's
// entry in use.
func (c *Syncer) done(s State, dEntry *syncerEntry, out plan.State) (plan.State, *syncerEntry, error) {
	c.evict(1 + len(s.ReplicaSets) + len(s.Pods))
	if !dEntry.cached() {
		return out, nil, nil
	}
	if t := dEntry.d.Spec.Template.Spec; t != "" {
		c.byTemplate[unsafe.StringData(t)] = dEntry
	}
	dEntry.inUse.Add(1)
	return out, dEntry, nil
}

// lastState is the State a Deployment's entry was last planned with, all
// of its objects remembered: a call that hands in the same objects (the
// same pointers, with the same UIDs and resourceVersions), as a controller
// does for a Deployment whose ReplicaSets and Pods did not change, reuses
// its conversion without looking each object up.
type lastState struct {
	rss                   []*apps.ReplicaSet
	pods                  []*core.Pod
	rsEntries, podEntries []*syncerEntry
	in                    plan.State // the model slices (the planner never changes them)
	all                   bool       // every object has an entry that is remembered
}

// same reports whether s holds l's objects, each at its remembered version.
func (l *lastState) same(s State) bool {
	if len(s.ReplicaSets) != len(l.rss) || len(s.Pods) != len(l.pods) {
		return false
	}
	for i, rs := range s.ReplicaSets {
		if rs != l.rss[i] || !l.rsEntries[i].is(&rs.ObjectMeta) {
			return false
		}
	}
	for i, p := range s.Pods {
		if p != l.pods[i] || !l.podEntries[i].is(&p.ObjectMeta) {
			return false
		}
	}
	return true
}

// use marks l's entries used in epoch.
func (l *lastState) use(epoch uint64) {
	for _, e := range l.rsEntries {
		e.epoch = epoch
	}
	for _, e := range l.podEntries {
		e.epoch = epoch
	}
}

// is reports whether e is the entry of the object version meta names.
func (e *syncerEntry) is(meta *metav1.ObjectMeta) bool {
	return e.key.uid == meta.UID && e.key.rv == meta.ResourceVersion
}

// templateOfReplicaSets is the converted template of s.Deployment when a
// ReplicaSet of s that the Syncer remembers at its version has a template
// equal to the Deployment's but for labels and annotations (see
// sameTemplateBody): a new version of a Deployment whose template did not
// change (a status write, a scale) then costs no encoding. c.mu is not
// held.
func (c *Syncer) templateOfReplicaSets(s State) (model.PodTemplate, bool) {
	var known []*syncerEntry
	c.mu.Lock()
	for _, rs := range s.ReplicaSets {
		if rs == nil {
			known = append(known, nil)
			continue
		}
		known = append(known, c.lookup('r', &rs.ObjectMeta))
	}
	c.mu.Unlock()
	for i, e := range known {
		if e != nil && e.rs != nil && sameTemplateBody(&s.ReplicaSets[i].Spec.Template, &s.Deployment.Spec.Template) {
			return withSpec(s.Deployment.Spec.Template, e.rs.Spec.Template.Spec), true
		}
	}
	return model.PodTemplate{}, false
}

// withSpec is the model template of t whose Spec, converted, is spec.
func withSpec(t core.PodTemplateSpec, spec string) model.PodTemplate {
	return model.PodTemplate{Labels: maps.Clone(t.Labels), Annotations: maps.Clone(t.Annotations), Spec: spec}
}

// lookup returns the remembered entry of the object version meta names,
// or nil, without marking it used. c.mu is held.
func (c *Syncer) lookup(kind byte, meta *metav1.ObjectMeta) *syncerEntry {
	if e := c.byMeta[meta]; e != nil && e.key.kind == kind && e.is(meta) {
		return e
	}
	if meta.UID == "" || meta.ResourceVersion == "" {
		return nil
	}
	return c.entries[syncerKey{kind: kind, uid: meta.UID, rv: meta.ResourceVersion}]
}

// podMeta is the metadata of p, or of no object for a nil p (whose
// conversion then fails as podForPlan's).
func podMeta(p *core.Pod) *metav1.ObjectMeta {
	if p == nil {
		return &metav1.ObjectMeta{}
	}
	return &p.ObjectMeta
}

// entry returns the entry of the object version meta names, converting it
// with conv when it is not remembered. c.mu is held, except while conv
// runs (encoding a template takes microseconds; other calls go on
// meanwhile). An object without a UID or a resourceVersion gets a fresh
// entry that is not remembered.
func (c *Syncer) entry(kind byte, meta *metav1.ObjectMeta, conv func(*syncerEntry) error) (*syncerEntry, error) {
	if e := c.lookup(kind, meta); e != nil {
		c.see(e, meta)
		return e, nil
	}
	k := syncerKey{kind: kind, uid: meta.UID, rv: meta.ResourceVersion}
	cacheable := k.uid != "" && k.rv != ""
	e := &syncerEntry{}
	c.mu.Unlock()
	err := conv(e)
	c.mu.Lock()
	if err != nil {
		return nil, err
	}
	if cacheable {
		if old := c.entries[k]; old != nil { // converted by another call meanwhile
			c.see(old, meta)
			return old, nil
		}
		e.key = k
		c.entries[k] = e
		c.see(e, meta)
	}
	return e, nil
}

// see records that this call used e, seen as the object with meta.
func (c *Syncer) see(e *syncerEntry, meta *metav1.ObjectMeta) {
	e.epoch = c.epoch
	if e.meta != meta {
		if e.meta != nil && c.byMeta[e.meta] == e {
			delete(c.byMeta, e.meta)
		}
		e.meta = meta
		c.byMeta[meta] = e
	}
}

// cached reports whether e is remembered (as opposed to a fresh entry of
// an object without UID or resourceVersion).
func (e *syncerEntry) cached() bool { return e.key.uid != "" }

// evict drops the entries not used since the last time it dropped any once
// the Syncer holds its limit, at least minSyncerMemory and four times n,
// the objects of the current call. When most entries are in use, it
// doubles the limit rather than scan them again at every call.
// (limit is set lower by tests only.)
func (c *Syncer) evict(n int) {
	if c.limit == 0 {
		c.limit = minSyncerMemory
	}
	c.limit = max(c.limit, 4*n)
	if len(c.entries) < c.limit {
		return
	}
	defer func() {
		c.epoch++
		if len(c.entries) > c.limit*3/4 {
			c.limit *= 2
		}
	}()
	for k, e := range c.entries {
		if e.epoch < c.epoch && e.inUse.Load() == 0 {
			delete(c.entries, k)
			if c.byMeta[e.meta] == e {
				delete(c.byMeta, e.meta)
			}
			if e.d != nil && e.d.Spec.Template.Spec != "" {
				delete(c.byTemplate, unsafe.StringData(e.d.Spec.Template.Spec))
			}
		}
	}
}
