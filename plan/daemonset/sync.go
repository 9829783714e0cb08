package daemonset

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/replicaset"
)

// State is what one DaemonSet sync reads: the DaemonSet, every node of the
// cluster, the pods and ControllerRevisions of the DaemonSet's namespace
// (objects of other namespaces are ignored), and the controller's clock.
type State struct {
	DaemonSet *model.DaemonSet
	Nodes     []*model.Node
	Pods      []*model.Pod
	// PodNodeAffinity holds, by pod name, the required node affinity of
	// the pods that have one (spec.affinity.nodeAffinity.
	// requiredDuringSchedulingIgnoredDuringExecution), which model.Pod
	// does not carry. The controller reads it to find the node a pod not
	// yet scheduled is meant for (model.TargetNodeName); a pod without
	// spec.nodeName and without an entry here is ignored, as upstream
	// ignores a pod without such an affinity.
	PodNodeAffinity     map[string]*model.NodeSelector
	ControllerRevisions []*model.ControllerRevision
	// Now is the controller's clock: availability after minReadySeconds.
	Now time.Time
}

// Sync plans one sync of the DaemonSet controller (upstream syncDaemonSet)
// over s. It returns the Plan and nil; or the zero Plan and a
// *model.ValidationError naming every invalid field of s; or the Plan of
// what upstream did and the *[SyncError] its sync ended with. Sync never
// modifies s and the Plan shares no memory with it.
func Sync(s State, opts ...Option) (Plan, error) {
	cfg := newConfig(opts)
	var vopts []model.ValidateOption
	if cfg.podSpecsValidated {
		vopts = []model.ValidateOption{model.PodSpecsValidated}
	}
	if err := model.ValidateDaemonSetSnapshot(s.DaemonSet, s.Nodes, s.Pods, s.ControllerRevisions, vopts...); err != nil {
		return Plan{}, err
	}
	sy := newSyncer(s, cfg)
	sy.run()
	if sy.err != nil {
		return sy.p, sy.err
	}
	return sy.p, nil
}

// podInfo is a listed pod with the node it is meant for.
type podInfo struct {
	pod    *model.Pod
	target string
	ok     bool // target found
}

// claim is one adoption or release of a pod, repeated every time upstream
// lists the DaemonSet's pods.
type claim struct {
	pi    *podInfo
	adopt bool
	ref   model.OwnerReference
}

type syncer struct {
	s        State
	c        config
	ds       *model.DaemonSet
	ns       string
	selector model.Matcher
	nodes    []*model.Node
	// nodeIdx indexes nodes, and p.Nodes (their placements, in the same
	// order), by node name.
	nodeIdx    map[string]int
	terms      *podTerms
	listed     bool
	claims     []claim
	claimed    []*podInfo
	generation *int64
	hash       string
	ctrlRef    model.OwnerReference
	usedNames  map[string]bool // made when the first pod is named
	nameN      int
	backoff    map[string]bool
	delays     []time.Duration
	p          Plan
	err        *SyncError
}

func newSyncer(s State, c config) *syncer {
	ds := s.DaemonSet
	sy := &syncer{
		s: s, c: c, ds: ds, ns: ds.Namespace,
		selector: model.NewPreValidatedMatcher(ds.Spec.Selector),
		nodeIdx:  make(map[string]int, len(s.Nodes)),
		ctrlRef:  model.NewControllerRef(model.AppsV1APIVersion, model.DaemonSetKind, ds.Name, ds.UID),
	}
	if c.namer == nil {
		sy.c.namer = func(prefix string, n int) string { return replicaset.DefaultPodName(prefix, ds.UID, n) }
	}
	sy.generation, _ = ds.TemplateGeneration()
	sy.nodes = slices.Clone(s.Nodes)
	slices.SortFunc(sy.nodes, func(a, b *model.Node) int { return strings.Compare(a.Name, b.Name) })
	sy.terms = newPodTerms(ds)
	if len(sy.nodes) > 0 {
		sy.p.Nodes = make([]Placement, 0, len(sy.nodes))
	}
	for i, n := range sy.nodes {
		sy.nodeIdx[n.Name] = i
		sy.p.Nodes = append(sy.p.Nodes, nodeShouldRun(n, ds, sy.terms))
	}
	return sy
}

// node returns the node of that name, or nil.
func (s *syncer) node(name string) *model.Node {
	if i, ok := s.nodeIdx[name]; ok {
		return s.nodes[i]
	}
	return nil
}

// placement is the placement of the node of that name (the zero Placement
// for a node the State lacks).
func (s *syncer) placement(name string) Placement {
	if i, ok := s.nodeIdx[name]; ok {
		return s.p.Nodes[i]
	}
	return Placement{}
}

func (s *syncer) note(r Reason) { s.p.Notes = append(s.p.Notes, r) }

func (s *syncer) event(typ, reason, format string, args ...any) {
	s.p.Events = append(s.p.Events, Event{
		Type: typ, Reason: reason, Message: fmt.Sprintf(format, args...),
		Object: model.DaemonSetKind + "/" + s.ds.Name, AfterWrites: len(s.p.Actions),
	})
}

func (s *syncer) fail(kind ErrorKind, format string, args ...any) {
	s.err = &SyncError{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

func (s *syncer) add(a Action) { s.p.Actions = append(s.p.Actions, a) }

func (s *syncer) ref(m *model.ObjectMeta) plan.ObjectRef {
	return plan.ObjectRef{Namespace: m.Namespace, Name: m.Name, UID: m.UID, ResourceVersion: m.ResourceVersion}
}

// run is upstream syncDaemonSet after the DaemonSet was read.
func (s *syncer) run() {
	if s.ds.DeletionTimestamp != nil {
		s.note(reason(NoteDeleting, nil, "DaemonSet %s/%s is being deleted: upstream does not sync it", s.ns, s.ds.Name))
		s.p.Nodes = nil
		return
	}
	s.otherNamespaces()
	cur, old, ok := s.constructHistory()
	if !ok {
		return
	}
	s.hash = cur.labels[model.DaemonSetUniqueLabel]
	s.p.Hash = s.hash
	s.listPods()
	creates, deletes := s.manage()
	rollingErr := false
	switch {
	case creates+deletes > 0:
		s.note(reason(NoteRollingUpdateDeferred, []Value{val("creates", int64(creates)), val("deletes", int64(deletes))},
			"this sync creates %d and deletes %d pods: the update strategy runs once they are observed, in a later sync", creates, deletes))
	case s.ds.Spec.UpdateStrategy.Type == model.DaemonSetRollingUpdate:
		rollingErr = !s.rollingUpdate()
	default:
		s.onDeleteNote()
	}
	if !rollingErr {
		s.cleanupHistory(old)
	}
	s.updateStatus()
	s.p.Requeue = requeueAfter(s.delays)
}

// otherNamespaces notes the pods and revisions outside the namespace.
func (s *syncer) otherNamespaces() {
	pods, revs := 0, 0
	for _, p := range s.s.Pods {
		if p.Namespace != s.ns {
			pods++
		}
	}
	for _, r := range s.s.ControllerRevisions {
		if r.Namespace != s.ns {
			revs++
		}
	}
	if pods+revs > 0 {
		s.note(reason(NoteOtherNamespace, []Value{val("pods", int64(pods)), val("controllerRevisions", int64(revs))},
			"%d pods and %d ControllerRevisions outside namespace %s are ignored", pods, revs, s.ns))
	}
}

// listPods claims the pods once (upstream claims them every time it lists
// them, with the same outcome, since its cache does not see its own
// writes): the pods the DaemonSet controls by kind, name and UID, and the
// orphans of its namespace, in name order.
func (s *syncer) listPods() {
	if s.listed {
		return
	}
	s.listed = true
	listed := make([]*model.Pod, 0, len(s.s.Pods))
	for _, p := range s.s.Pods {
		if p.Namespace != s.ns {
			continue
		}
		ref := p.ControllerRef()
		if ref == nil || (ref.Kind == model.DaemonSetKind && ref.Name == s.ds.Name && ref.UID == s.ds.UID) {
			listed = append(listed, p)
		}
	}
	slices.SortFunc(listed, func(a, b *model.Pod) int { return strings.Compare(a.Name, b.Name) })
	s.claimed = make([]*podInfo, 0, len(listed))
	infos := make([]podInfo, len(listed))
	for i, p := range listed {
		pi := &infos[i]
		pi.pod = p
		target, err := model.TargetNodeName(p, s.s.PodNodeAffinity[p.Name])
		pi.target, pi.ok = target, err == nil
		match := s.selector.Matches(p.Labels)
		if ref := p.ControllerRef(); ref != nil {
			if match {
				s.claimed = append(s.claimed, pi)
			} else {
				s.claims = append(s.claims, claim{pi: pi, ref: *ref})
			}
			continue
		}
		if !match || p.DeletionTimestamp != nil {
			continue
		}
		s.claims = append(s.claims, claim{pi: pi, adopt: true, ref: s.ctrlRef})
		s.claimed = append(s.claimed, pi)
	}
	for _, pi := range s.claimed {
		if !pi.ok {
			s.note(reason(NoteNoTargetNode, nil, "pod %s has no spec.nodeName and no metadata.name node affinity: ignored", pi.pod.Name))
		}
	}
}

// emitClaims plans the adoptions and releases of one listing of the pods.
func (s *syncer) emitClaims() {
	for _, c := range s.claims {
		p := c.pi.pod
		ref := c.ref
		if c.adopt {
			s.add(Action{Kind: AdoptPod, Object: s.ref(&p.ObjectMeta), OwnerReference: &ref,
				Reason: reason(ReasonAdoptPod, nil, "pod %s has no controller and matches the selector", p.Name)})
		} else {
			s.add(Action{Kind: ReleasePod, Object: s.ref(&p.ObjectMeta), OwnerReference: &ref,
				Reason: reason(ReasonReleasePod, nil, "pod %s no longer matches the selector", p.Name)})
		}
	}
}

// group is upstream getNodesToDaemonPods after the claim: the claimed
// pods by the node they are meant for, skipping pods without one and,
// unless includeDeletedTerminal, finished pods being deleted.
//
// Each node's pods keep the claimed pods' order; they share one array, each
// node's slice capped at its length, so that an append to one reallocates
// instead of writing over the next node's.
func (s *syncer) group(includeDeletedTerminal bool) map[string][]*podInfo {
	buf := make([]*podInfo, 0, len(s.claimed))
	for _, pi := range s.claimed {
		p := pi.pod
		if !includeDeletedTerminal && p.IsTerminal() && p.DeletionTimestamp != nil {
			continue
		}
		if !pi.ok {
			continue
		}
		buf = append(buf, pi)
	}
	slices.SortStableFunc(buf, func(a, b *podInfo) int { return strings.Compare(a.target, b.target) })
	out := map[string][]*podInfo{}
	for i := 0; i < len(buf); {
		j := i + 1
		for j < len(buf) && buf[j].target == buf[i].target {
			j++
		}
		out[buf[i].target] = buf[i:j:j]
		i = j
	}
	return out
}

// podOrder is upstream podByCreationTimestampAndPhase: scheduled pods
// first, then oldest first, then by name.
func podOrder(a, b *podInfo) int {
	as, bs := a.pod.Spec.NodeName != "", b.pod.Spec.NodeName != ""
	switch {
	case as && !bs:
		return -1
	case !as && bs:
		return 1
	}
	if c := a.pod.CreationTimestamp.Compare(b.pod.CreationTimestamp); c != 0 {
		return c
	}
	return strings.Compare(a.pod.Name, b.pod.Name)
}

// IsPodUpdated reports whether pod belongs to the current revision
// (upstream util.IsPodUpdated): its controller-revision-hash label equals a
// non-empty hash, or its pod-template-generation label equals the
// DaemonSet's template generation.
func IsPodUpdated(pod *model.Pod, hash string, generation *int64) bool {
	templateMatches := generation != nil && pod.Labels[model.DaemonSetTemplateGenerationLabel] == strconv.FormatInt(*generation, 10)
	hashMatches := hash != "" && pod.Labels[model.DaemonSetUniqueLabel] == hash
	return hashMatches || templateMatches
}

func (s *syncer) updated(pi *podInfo) bool { return IsPodUpdated(pi.pod, s.hash, s.generation) }

func (s *syncer) available(pi *podInfo) bool {
	return model.IsPodAvailable(pi.pod, s.ds.Spec.MinReadySeconds, s.s.Now)
}

// toDelete is a pod a step wants deleted, with why.
type toDelete struct {
	pi     *podInfo
	reason Reason
}

// toCreate is a node a step wants a pod created on, with why.
type toCreate struct {
	node   string
	reason Reason
}

// manage is upstream manage: every node's pods against the predicate.
func (s *syncer) manage() (creates, deletes int) {
	s.emitClaims()
	byNode := s.group(false)
	var needing []toCreate
	var victims []toDelete
	for _, n := range s.nodes {
		c, d := s.podsShouldBeOnNode(n, byNode)
		needing = append(needing, c...)
		victims = append(victims, d...)
	}
	var missing []string // nodes the pods are meant for that the State lacks
	for name := range byNode {
		if s.node(name) == nil {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	for _, name := range missing {
		for _, pi := range byNode[name] {
			if pi.pod.Spec.NodeName == "" {
				victims = append(victims, toDelete{pi, reason(ReasonUnscheduledOnMissingNode, nil,
					"pod %s is not scheduled and is meant for node %s, which does not exist", pi.pod.Name, name)})
			}
		}
	}
	return s.syncNodes(victims, needing)
}

// podsShouldBeOnNode is upstream podsShouldBeOnNode for one node.
func (s *syncer) podsShouldBeOnNode(n *model.Node, byNode map[string][]*podInfo) (needing []toCreate, victims []toDelete) {
	pl := s.placement(n.Name)
	pods, exists := byNode[n.Name]
	switch {
	case pl.ShouldRun && !exists:
		needing = append(needing, toCreate{n.Name, reason(ReasonNodeNeedsPod, nil, "node %s should run a daemon pod and has none", n.Name)})
	case pl.ShouldContinueRunning:
		var running []*podInfo
		for _, pi := range pods {
			p := pi.pod
			switch {
			case p.DeletionTimestamp != nil:
			case p.Status.Phase == model.PodFailed:
				if s.backoff[n.Name] {
					// The backoff entry this sync started for the node
					// is still fresh: upstream waits for it.
					s.delays = append(s.delays, time.Second)
					s.note(reason(NoteFailedPodBackoff, []Value{val("backoffSeconds", 1)},
						"failed pod %s on node %s waits for the failed-pod backoff (1s): another failed pod there is deleted this sync", p.Name, n.Name))
					continue
				}
				if s.backoff == nil {
					s.backoff = map[string]bool{}
				}
				s.backoff[n.Name] = true
				s.event(model.EventTypeWarning, EventFailedDaemonPod, "Found failed daemon pod %s/%s on node %s, will try to kill it", p.Namespace, p.Name, n.Name)
				victims = append(victims, toDelete{pi, reason(ReasonFailedPod, nil, "pod %s on node %s has failed", p.Name, n.Name)})
			case p.Status.Phase == model.PodSucceeded:
				s.event(model.EventTypeNormal, EventSucceededDaemonPod, "Found succeeded daemon pod %s/%s on node %s, will try to delete it", p.Namespace, p.Name, n.Name)
				victims = append(victims, toDelete{pi, reason(ReasonSucceededPod, nil, "pod %s on node %s has succeeded", p.Name, n.Name)})
			default:
				running = append(running, pi)
			}
		}
		if !AllowsSurge(s.ds) {
			if len(running) <= 1 {
				break
			}
			slices.SortFunc(running, podOrder)
			for _, pi := range running[1:] {
				victims = append(victims, toDelete{pi, reason(ReasonExcessPod, []Value{val("running", int64(len(running)))},
					"node %s runs %d daemon pods; all but the oldest, %s, go", n.Name, len(running), running[0].pod.Name)})
			}
			break
		}
		if len(running) <= 1 {
			if len(running) == 0 && pl.ShouldRun {
				needing = append(needing, toCreate{n.Name, reason(ReasonNodeNeedsPod, nil, "node %s should run a daemon pod and has none that is not being deleted", n.Name)})
			}
			break
		}
		slices.SortFunc(running, podOrder)
		var oldestNew, oldestOld *podInfo
		for _, pi := range running {
			if pi.pod.Labels[model.DaemonSetUniqueLabel] == s.hash {
				if oldestNew == nil {
					oldestNew = pi
					continue
				}
			} else if oldestOld == nil {
				oldestOld = pi
				continue
			}
			victims = append(victims, toDelete{pi, reason(ReasonExcessPod, []Value{val("running", int64(len(running)))},
				"node %s runs %d daemon pods; only the oldest of the current revision and the oldest of the others may stay", n.Name, len(running))})
		}
		if oldestNew != nil && oldestOld != nil {
			switch {
			case !model.IsPodReady(oldestOld.pod):
				victims = append(victims, toDelete{oldestOld, reason(ReasonOldPodNotReady, nil,
					"old pod %s on node %s is not ready and new pod %s is there", oldestOld.pod.Name, n.Name, oldestNew.pod.Name)})
			case s.available(oldestNew):
				victims = append(victims, toDelete{oldestOld, reason(ReasonNewPodAvailable, nil,
					"new pod %s on node %s is available, so old pod %s goes", oldestNew.pod.Name, n.Name, oldestOld.pod.Name)})
			}
		}
	case exists:
		for _, pi := range pods {
			if pi.pod.DeletionTimestamp != nil {
				continue
			}
			victims = append(victims, toDelete{pi, reason(ReasonNodeShouldNotRun, nil, "%s", pl.Reason.Message)})
		}
	}
	return needing, victims
}

// syncNodes is upstream syncNodes: the creates, then the deletes, each
// capped at BurstReplicas. It returns how many of each it planned.
func (s *syncer) syncNodes(victims []toDelete, needing []toCreate) (creates, deletes int) {
	creates, deletes = min(len(needing), BurstReplicas), min(len(victims), BurstReplicas)
	if len(needing) > creates || len(victims) > deletes {
		s.note(reason(NoteBurstLimit, []Value{val("creates", int64(len(needing))), val("deletes", int64(len(victims))), val("burst", BurstReplicas)},
			"%d pods to create and %d to delete, at most %d of each per sync", len(needing), len(victims), BurstReplicas))
	}
	for _, c := range needing[:creates] {
		s.createPod(c)
	}
	for _, v := range victims[:deletes] {
		p := v.pi.pod
		s.add(Action{Kind: DeletePod, Object: s.ref(&p.ObjectMeta), Node: v.pi.target, Reason: v.reason})
		s.event(model.EventTypeNormal, EventSuccessfulDelete, "Deleted pod: %s", p.Name)
	}
	return creates, deletes
}

// createPod plans one pod of the current revision on node c.node
// (upstream CreatePodTemplate, ReplaceDaemonSetPodNodeNameNodeAffinity and
// the pod control's GetPodFromTemplate).
func (s *syncer) createPod(c toCreate) {
	t := s.ds.Spec.Template
	labels := maps.Clone(t.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	if s.generation != nil {
		labels[model.DaemonSetTemplateGenerationLabel] = strconv.FormatInt(*s.generation, 10)
	}
	if s.hash != "" {
		labels[model.DaemonSetUniqueLabel] = s.hash
	}
	generateName := replicaset.GenerateName(s.ds.Name)
	name := s.podName(generateName)
	// The template's scheduling with the node's affinity and the daemon
	// tolerations the predicate used (made once per sync), copied.
	base := s.ds.Spec.Scheduling
	base.RequiredNodeAffinity, base.Tolerations = nil, nil
	sch := base.DeepCopy()
	sch.RequiredNodeAffinity = model.NodeNameAffinity(c.node)
	sch.Tolerations = cloneTolerations(s.terms.tolerations)
	pod := &model.Pod{
		ObjectMeta: model.ObjectMeta{
			Name: name, Namespace: s.ns, Labels: labels, Annotations: maps.Clone(t.Annotations),
			OwnerReferences: []model.OwnerReference{s.ctrlRef},
		},
		Spec: model.PodSpec{NodeName: sch.NodeName, Body: t.Spec},
	}
	s.add(Action{Kind: CreatePod, Object: plan.ObjectRef{Namespace: s.ns, Name: name}, Node: c.node,
		GenerateName: generateName, Pod: pod, Scheduling: &sch, Reason: c.reason})
	s.event(model.EventTypeNormal, EventSuccessfulCreate, "Created pod: %s", name)
}

// podName returns the next candidate name no pod of the namespace, nor
// one planned before, has. A namer that keeps repeating names in use is
// given up after as many tries as there are such names, and the default
// namer (injective) takes over.
func (s *syncer) podName(prefix string) string {
	if s.usedNames == nil {
		s.usedNames = map[string]bool{}
		for _, p := range s.s.Pods {
			if p.Namespace == s.ns {
				s.usedNames[p.Name] = true
			}
		}
	}
	for tries := 0; tries <= len(s.usedNames); tries++ {
		name := s.c.namer(prefix, s.nameN)
		s.nameN++
		if !s.usedNames[name] {
			s.usedNames[name] = true
			return name
		}
	}
	for n := 0; ; n++ {
		name := replicaset.DefaultPodName(prefix, s.ds.UID, n)
		if !s.usedNames[name] {
			s.usedNames[name] = true
			return name
		}
	}
}

// onDeleteNote says how many pods wait for a manual delete.
func (s *syncer) onDeleteNote() {
	old := 0
	for _, pi := range s.claimed {
		if pi.pod.DeletionTimestamp == nil && !pi.pod.IsTerminal() && !s.updated(pi) {
			old++
		}
	}
	s.note(reason(NoteOnDelete, []Value{val("oldPods", int64(old))},
		"update strategy OnDelete: %d pods of older revisions are replaced only when someone deletes them", old))
}

// cloneTolerations is a deep copy of ts (nil stays nil).
func cloneTolerations(ts []model.Toleration) []model.Toleration {
	if ts == nil {
		return nil
	}
	out := slices.Clone(ts)
	for i := range out {
		if p := out[i].TolerationSeconds; p != nil {
			v := *p
			out[i].TolerationSeconds = &v
		}
	}
	return out
}
