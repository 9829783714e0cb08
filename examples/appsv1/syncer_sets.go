package appsv1

import (
	"fmt"
	"sync"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
)

// StatefulSetSyncer is [SyncStatefulSet] with a cache of conversions, for
// a program that plans the same objects again and again, as a controller
// does from its informers' caches: [Syncer] for StatefulSets. It keeps,
// under each object's kind, UID and resourceVersion, the object's
// conversion (a set's and a revision's template is encoded as canonical
// JSON, a revision's data decoded, a claim encoded), the revision data of
// a set's template (upstream's encoding of the template, which the planner
// compares every revision with) and, for a revision, its template with the
// API defaulting applied and that template's data (which the planner
// compares with the set's when no revision's data equals it). A revision
// whose data has no template takes the set's and is converted at every
// call. It checks the pod spec of the set's template when it converts the
// set (model.ValidateTemplatePodSpec) and, when it passes, plans with
// statefulset.PodSpecsValidated, as [Syncer] does.
//
// Its results are those of [SyncStatefulSet] on the same arguments, for the
// reason [Syncer]'s are those of [Sync]: an object with a given UID and
// resourceVersion has one content. Objects without a UID or a
// resourceVersion are converted at every call. It forgets what it has not
// used for a while as a Syncer does, keeps no reference to the objects
// handed in, and what it returns shares no memory with the cache or the
// State. The zero value is ready to use and plans with no options but the
// adapter's, as [NewStatefulSetSyncer]() does; it is safe for concurrent
// use.
type StatefulSetSyncer struct {
	opts  []statefulset.Option
	cache convCache[*ssEntry]
}

// NewStatefulSetSyncer returns a StatefulSetSyncer that plans with opts,
// applied after the adapter's options as with [SyncStatefulSet].
func NewStatefulSetSyncer(opts ...statefulset.Option) *StatefulSetSyncer {
	return &StatefulSetSyncer{opts: opts}
}

// ssEntry is the conversion of one object version: one of set, pod, rev
// and claim, never modified once stored, and what is derived from it when
// first needed.
type ssEntry struct {
	set   *model.StatefulSet
	pod   *model.Pod
	rev   *model.ControllerRevision
	claim *model.PersistentVolumeClaim
	// specOK tells, for a set, whether its template passes
	// model.ValidateTemplatePodSpec.
	specOK bool

	// For a set, data is StatefulSetRevisionData of its template. For a
	// revision, defaulted is StatefulSetTemplateDefaults of its template
	// and data StatefulSetRevisionData of defaulted.
	dataOnce, defaultsOnce sync.Once
	data                   string
	dataErr                error
	defaulted              model.PodTemplate
	defaultsErr            error

	// tmpl is the apps/v1 template a revision's data restores, or for a
	// set the template its data restores (decoded as the Output's pods
	// are built from it).
	tmplOnce sync.Once
	tmpl     core.PodTemplateSpec
	tmplErr  error
}

// decoded is the template data restores, decoded once: data is the
// revision's (or the set's revision data).
func (e *ssEntry) decoded(data []byte) (*core.PodTemplateSpec, bool) {
	e.tmplOnce.Do(func() { e.tmpl, _, e.tmplErr = revisionTemplate(data, nil) })
	return &e.tmpl, e.tmplErr == nil
}

// setData is the revision data of the set's template.
func (e *ssEntry) setData() (string, error) {
	e.dataOnce.Do(func() { e.data, e.dataErr = StatefulSetRevisionData(e.set.Spec.Template) })
	return e.data, e.dataErr
}

// revisionDefaulted is the revision's template defaulted.
func (e *ssEntry) revisionDefaulted() (model.PodTemplate, error) {
	e.defaultsOnce.Do(func() { e.defaulted, e.defaultsErr = StatefulSetTemplateDefaults(e.rev.Template.DeepCopy()) })
	return e.defaulted, e.defaultsErr
}

// revisionDefaultedData is the revision data of the revision's defaulted
// template, which revisionDefaulted has computed without error.
func (e *ssEntry) revisionDefaultedData() (string, error) {
	e.dataOnce.Do(func() { e.data, e.dataErr = StatefulSetRevisionData(e.defaulted) })
	return e.data, e.dataErr
}

// Sync plans one sync of s exactly as [SyncStatefulSet] does with the
// StatefulSetSyncer's options and then opts, with the conversions of
// earlier calls reused.
func (c *StatefulSetSyncer) Sync(s StatefulSetState, opts ...statefulset.Option) (StatefulSetOutput, statefulset.Plan, error) {
	in, setEntry, revs, err := c.model(s)
	if err != nil {
		return StatefulSetOutput{}, statefulset.Plan{}, err
	}
	// The planner encodes the set's template, and in the semantic
	// comparison the latest revision's template defaulted: both are
	// remembered with the objects' conversions.
	var defaulted []*ssEntry // the revisions whose defaulted template this sync asked for
	encode := func(t model.PodTemplate) (string, error) {
		if identicalTemplates(t, setEntry.set.Spec.Template) {
			return setEntry.setData()
		}
		for _, e := range defaulted {
			if identicalTemplates(t, e.defaulted) {
				return e.revisionDefaultedData()
			}
		}
		return StatefulSetRevisionData(t)
	}
	defaults := func(t model.PodTemplate) (model.PodTemplate, error) {
		for _, e := range revs {
			if identicalTemplates(t, e.rev.Template) {
				d, err := e.revisionDefaulted()
				if err != nil {
					return model.PodTemplate{}, err
				}
				defaulted = append(defaulted, e)
				return d.DeepCopy(), nil
			}
		}
		return StatefulSetTemplateDefaults(t)
	}
	all := make([]statefulset.Option, 0, 3+len(c.opts)+len(opts))
	all = append(all, statefulset.WithEncoder(encode), statefulset.WithRevisionDefaults(defaults))
	if setEntry.specOK { // the pods' bodies are left empty, and pass
		all = append(all, statefulset.PodSpecsValidated())
	}
	all = append(append(all, c.opts...), opts...)
	known := func(r *apps.ControllerRevision, data []byte) (*core.PodTemplateSpec, bool) {
		if r == nil {
			if d, err := setEntry.setData(); err == nil && d == string(data) {
				return setEntry.decoded(data)
			}
			return nil, false
		}
		for _, e := range revs {
			if e.rev.Name == r.Name && e.rev.Namespace == r.Namespace && e.rev.Data == string(data) {
				return e.decoded(data)
			}
		}
		return nil, false
	}
	return syncStatefulSetInput(s, in, all, known)
}

// model converts s as SyncStatefulSet does, with the cached conversions;
// it also returns the set's entry and the cached entries of the revisions
// whose defaulted templates were computed.
func (c *StatefulSetSyncer) model(s StatefulSetState) (statefulset.State, *ssEntry, []*ssEntry, error) {
	if s.StatefulSet == nil {
		_, err := StatefulSetModel(nil)
		return statefulset.State{}, nil, nil, err
	}
	setE, pods, revs, claims := c.lookup(s)
	var added adder[*ssEntry]
	if setE == nil {
		set, err := StatefulSetModel(s.StatefulSet)
		if err != nil {
			return statefulset.State{}, nil, nil, err
		}
		setE = &ssEntry{set: set, specOK: model.ValidateTemplatePodSpec(set.Spec.Template.Spec) == nil}
		added.note('S', &s.StatefulSet.ObjectMeta, setE)
	}
	out := statefulset.State{StatefulSet: setE.set, Now: s.Now}
	var err error
	out.Pods, err = convertEach(&added, 'p', "pods", s.Pods, pods, statefulSetPodForPlan,
		func(e *ssEntry) *model.Pod { return e.pod }, func(m *model.Pod) *ssEntry { return &ssEntry{pod: m} })
	if err != nil {
		return statefulset.State{}, nil, nil, err
	}
	if len(s.ControllerRevisions) > 0 {
		out.ControllerRevisions = make([]*model.ControllerRevision, len(s.ControllerRevisions))
	}
	var revEntries []*ssEntry
	for i, r := range s.ControllerRevisions {
		if e := revs[i]; e != nil {
			out.ControllerRevisions[i] = e.rev
			revEntries = append(revEntries, e)
			continue
		}
		m, fromSet, err := controllerRevisionToModel(r, &s.StatefulSet.Spec.Template)
		if err != nil {
			return statefulset.State{}, nil, nil, fmt.Errorf("controllerRevisions[%d]: %w", i, err)
		}
		out.ControllerRevisions[i] = m
		if !fromSet {
			e := &ssEntry{rev: m}
			revEntries = append(revEntries, e)
			added.note('r', &r.ObjectMeta, e)
		}
	}
	out.Claims, err = convertEach(&added, 'c', "pvcs", s.PVCs, claims, PersistentVolumeClaimToModel,
		func(e *ssEntry) *model.PersistentVolumeClaim { return e.claim },
		func(m *model.PersistentVolumeClaim) *ssEntry { return &ssEntry{claim: m} })
	if err != nil {
		return statefulset.State{}, nil, nil, err
	}
	c.cache.add(added, 1+len(s.Pods)+len(s.ControllerRevisions)+len(s.PVCs))
	return out, setE, revEntries, nil
}

// lookup returns the cached conversions of s's objects (nil where there is
// none).
func (c *StatefulSetSyncer) lookup(s StatefulSetState) (set *ssEntry, pods, revs, claims []*ssEntry) {
	all := make([]*ssEntry, len(s.Pods)+len(s.ControllerRevisions)+len(s.PVCs))
	pods, revs, claims = all[:len(s.Pods)], all[len(s.Pods):len(s.Pods)+len(s.ControllerRevisions)], all[len(s.Pods)+len(s.ControllerRevisions):]
	c.cache.mu.Lock()
	defer c.cache.mu.Unlock()
	set, _ = c.cache.getLocked('S', s.StatefulSet)
	getEachLocked(&c.cache, 'p', s.Pods, pods)
	getEachLocked(&c.cache, 'r', s.ControllerRevisions, revs)
	getEachLocked(&c.cache, 'c', s.PVCs, claims)
	return set, pods, revs, claims
}

// DaemonSetSyncer is [SyncDaemonSet] with a cache of conversions: [Syncer]
// for DaemonSets. It keeps, under each object's kind, UID and
// resourceVersion, the object's conversion (a DaemonSet's template is
// encoded as canonical JSON, a revision's data decoded) and, for a
// DaemonSet, upstream's hash state and revision data of its template, and
// whether the template's pod spec passes model.ValidateTemplatePodSpec
// (checked once per version: when it does, it plans with
// daemonset.PodSpecsValidated, as [Syncer] does).
//
// Its results are those of [SyncDaemonSet] on the same arguments, for the
// reason [Syncer]'s are those of [Sync]. Objects without a UID or a
// resourceVersion are converted at every call. It forgets what it has not
// used for a while as a Syncer does, keeps no reference to the objects
// handed in, and what it returns shares no memory with the cache or the
// State. The zero value is ready to use and plans with no options but the
// adapter's, as [NewDaemonSetSyncer]() does; it is safe for concurrent use.
type DaemonSetSyncer struct {
	opts  []daemonset.Option
	cache convCache[*dsEntry]
}

// NewDaemonSetSyncer returns a DaemonSetSyncer that plans with opts,
// applied after the adapter's hasher and patcher as with [SyncDaemonSet].
func NewDaemonSetSyncer(opts ...daemonset.Option) *DaemonSetSyncer {
	return &DaemonSetSyncer{opts: opts}
}

// dsEntry is the conversion of one object version: one of ds (with its
// template's revision data, hash state and pod spec check), node, pod
// (with its required node affinity) and rev, never modified once stored.
type dsEntry struct {
	ds       *model.DaemonSet
	specOK   bool
	patch    string
	hash     hashMemo
	node     *model.Node
	pod      *model.Pod
	affinity *model.NodeSelector
	rev      *model.ControllerRevision
}

// Sync plans one sync of s exactly as [SyncDaemonSet] does with the
// DaemonSetSyncer's options and then opts, with the conversions of earlier
// calls reused.
func (c *DaemonSetSyncer) Sync(s DaemonSetState, opts ...daemonset.Option) (Output, daemonset.Plan, error) {
	in, dsE, err := c.model(s)
	if err != nil {
		return Output{}, daemonset.Plan{}, err
	}
	all := opts
	if len(c.opts) > 0 || dsE.specOK {
		all = make([]daemonset.Option, 0, 1+len(c.opts)+len(opts))
		if dsE.specOK { // the pods' bodies are left empty, and pass
			all = append(all, daemonset.PodSpecsValidated())
		}
		all = append(append(all, c.opts...), opts...)
	}
	return syncDaemonSetInput(s, in, &dsE.hash, dsE.patch, all)
}

// model converts s as SyncDaemonSet does, with the cached conversions; it
// also returns the DaemonSet's entry.
func (c *DaemonSetSyncer) model(s DaemonSetState) (daemonset.State, *dsEntry, error) {
	if s.DaemonSet == nil {
		_, err := DaemonSetToModel(nil)
		return daemonset.State{}, nil, err
	}
	dsE, nodes, pods, revs := c.lookup(s)
	var added adder[*dsEntry]
	if dsE == nil {
		ds, err := DaemonSetToModel(s.DaemonSet)
		if err != nil {
			return daemonset.State{}, nil, err
		}
		dsE = &dsEntry{ds: ds, specOK: model.ValidateTemplatePodSpec(ds.Spec.Template.Spec) == nil}
	}
	out := daemonset.State{DaemonSet: dsE.ds, Now: s.Now}
	var err error
	out.Nodes, err = convertEach(&added, 'n', "nodes", s.Nodes, nodes, NodeToModel,
		func(e *dsEntry) *model.Node { return e.node }, func(m *model.Node) *dsEntry { return &dsEntry{node: m} })
	if err != nil {
		return daemonset.State{}, nil, err
	}
	if len(s.Pods) > 0 {
		out.Pods = make([]*model.Pod, len(s.Pods))
	}
	for i, p := range s.Pods {
		e := pods[i]
		if e == nil {
			m, err := podForPlan(p)
			if err != nil {
				return daemonset.State{}, nil, fmt.Errorf("pods[%d]: %w", i, err)
			}
			e = &dsEntry{pod: m, affinity: requiredNodeAffinity(p.Spec.Affinity)}
			added.note('p', &p.ObjectMeta, e)
		}
		out.Pods[i] = e.pod
		if e.affinity != nil {
			if out.PodNodeAffinity == nil {
				out.PodNodeAffinity = make(map[string]*model.NodeSelector, len(s.Pods)-i)
			}
			out.PodNodeAffinity[p.Name] = e.affinity
		}
	}
	if len(s.ControllerRevisions) > 0 {
		out.ControllerRevisions = make([]*model.ControllerRevision, len(s.ControllerRevisions))
	}
	for i, r := range s.ControllerRevisions {
		if e := revs[i]; e != nil {
			out.ControllerRevisions[i] = e.rev
			continue
		}
		if r == nil {
			return daemonset.State{}, nil, fmt.Errorf("controllerRevisions[%d]: %w", i, ErrNil)
		}
		m := daemonRevisionToModel(r)
		out.ControllerRevisions[i] = m
		added.note('r', &r.ObjectMeta, &dsEntry{rev: m})
	}
	if dsE.patch == "" { // not cached: encoded after the objects are converted, as SyncDaemonSet does
		patch, err := DaemonSetPatch(&s.DaemonSet.Spec.Template)
		if err != nil {
			return daemonset.State{}, nil, err
		}
		dsE.patch = string(patch)
		added.note('D', &s.DaemonSet.ObjectMeta, dsE)
	}
	c.cache.add(added, 1+len(s.Nodes)+len(s.Pods)+len(s.ControllerRevisions))
	return out, dsE, nil
}

// lookup returns the cached conversions of s's objects (nil where there is
// none).
func (c *DaemonSetSyncer) lookup(s DaemonSetState) (ds *dsEntry, nodes, pods, revs []*dsEntry) {
	all := make([]*dsEntry, len(s.Nodes)+len(s.Pods)+len(s.ControllerRevisions))
	nodes, pods, revs = all[:len(s.Nodes)], all[len(s.Nodes):len(s.Nodes)+len(s.Pods)], all[len(s.Nodes)+len(s.Pods):]
	c.cache.mu.Lock()
	defer c.cache.mu.Unlock()
	ds, _ = c.cache.getLocked('D', s.DaemonSet)
	getEachLocked(&c.cache, 'n', s.Nodes, nodes)
	getEachLocked(&c.cache, 'p', s.Pods, pods)
	getEachLocked(&c.cache, 'r', s.ControllerRevisions, revs)
	return ds, nodes, pods, revs
}
