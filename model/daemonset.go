package model

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
)

// Keys the DaemonSet controller reads and writes.
const (
	// DaemonSetTemplateGenerationAnnotation holds the DaemonSet's template
	// generation (the API server's legacy counter of template changes) as
	// a decimal int64. Upstream's name: apps.DeprecatedTemplateGeneration.
	DaemonSetTemplateGenerationAnnotation = "deprecated.daemonset.template.generation"
	// DaemonSetUniqueLabel labels a DaemonSet's ControllerRevisions and
	// pods with the hash of the template they were made from. Upstream's
	// name: apps.DefaultDaemonSetUniqueLabelKey.
	DaemonSetUniqueLabel = "controller-revision-hash"
	// DaemonSetTemplateGenerationLabel labels the pods the controller
	// creates with the template generation they were made from. Upstream's
	// name: extensions.DaemonSetTemplateGenerationKey.
	DaemonSetTemplateGenerationLabel = "pod-template-generation"
	// DaemonSetKind is the kind in a DaemonSet's controller references.
	DaemonSetKind = "DaemonSet"
)

// DaemonSetUpdateStrategyType is RollingUpdate or OnDelete.
type DaemonSetUpdateStrategyType string

// The two DaemonSet update strategies.
const (
	// DaemonSetRollingUpdate replaces old pods node by node within
	// maxUnavailable or maxSurge.
	DaemonSetRollingUpdate DaemonSetUpdateStrategyType = "RollingUpdate"
	// DaemonSetOnDelete replaces an old pod only after someone deletes it.
	DaemonSetOnDelete DaemonSetUpdateStrategyType = "OnDelete"
)

// Defaults [DefaultDaemonSet] applies (apps/v1 SetDefaults_DaemonSet).
const (
	DefaultDaemonSetMaxUnavailable       = 1
	DefaultDaemonSetMaxSurge             = 0
	DefaultDaemonSetRevisionHistoryLimit = 10
)

// DaemonSet is an apps/v1 DaemonSet, reduced to what the DaemonSet
// controller reads.
type DaemonSet struct {
	ObjectMeta `json:"metadata"`
	Spec       DaemonSetSpec   `json:"spec"`
	Status     DaemonSetStatus `json:"status"`
}

// DaemonSetSpec mirrors apps/v1 DaemonSetSpec.
type DaemonSetSpec struct {
	Selector *LabelSelector `json:"selector,omitempty"`
	// Template is the pod template, compared and hashed as a whole (see
	// [PodTemplate]).
	Template PodTemplate `json:"template"`
	// Scheduling is what the controller reads of the template's pod spec
	// to decide which nodes should run a daemon pod. It repeats fields
	// that Template.Spec also holds, as plain values: an adapter fills both
	// from the same pod spec, and they must agree.
	Scheduling      PodScheduling           `json:"scheduling"`
	UpdateStrategy  DaemonSetUpdateStrategy `json:"updateStrategy"`
	MinReadySeconds int32                   `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit is how many old ControllerRevisions to keep;
	// nil means 10 after [DefaultDaemonSet].
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
}

// PodScheduling is the part of a pod spec that decides which nodes a pod
// may run on, as the DaemonSet controller reads it.
type PodScheduling struct {
	// NodeName, when set in a DaemonSet's template, restricts the
	// DaemonSet to that one node.
	NodeName string `json:"nodeName,omitempty"`
	// NodeSelector is spec.nodeSelector: labels a node must carry.
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	// RequiredNodeAffinity is
	// spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.
	RequiredNodeAffinity *NodeSelector `json:"requiredNodeAffinity,omitempty"`
	// Tolerations are the template's own tolerations; the controller adds
	// the default daemon tolerations ([DaemonPodTolerations]).
	Tolerations []Toleration `json:"tolerations,omitempty"`
	// HostNetwork adds the network-unavailable toleration to the
	// defaults.
	HostNetwork bool `json:"hostNetwork,omitempty"`
}

// DeepCopy returns a copy sharing nothing with s.
func (s PodScheduling) DeepCopy() PodScheduling {
	out := s
	out.NodeSelector = maps.Clone(s.NodeSelector)
	out.RequiredNodeAffinity = s.RequiredNodeAffinity.DeepCopy()
	out.Tolerations = cloneTolerations(s.Tolerations)
	return out
}

// DaemonSetUpdateStrategy mirrors apps/v1 DaemonSetUpdateStrategy.
type DaemonSetUpdateStrategy struct {
	Type          DaemonSetUpdateStrategyType `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDaemonSet     `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDaemonSet holds the two fenceposts of a DaemonSet rolling
// update. Percentages resolve against the number of nodes that should run
// a daemon pod, both rounded up. Exactly one of them is non-zero.
type RollingUpdateDaemonSet struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty"`
}

// DaemonSetStatus mirrors apps/v1 DaemonSetStatus.
type DaemonSetStatus struct {
	CurrentNumberScheduled int32 `json:"currentNumberScheduled"`
	NumberMisscheduled     int32 `json:"numberMisscheduled"`
	DesiredNumberScheduled int32 `json:"desiredNumberScheduled"`
	NumberReady            int32 `json:"numberReady"`
	ObservedGeneration     int64 `json:"observedGeneration,omitempty"`
	UpdatedNumberScheduled int32 `json:"updatedNumberScheduled,omitempty"`
	NumberAvailable        int32 `json:"numberAvailable,omitempty"`
	NumberUnavailable      int32 `json:"numberUnavailable,omitempty"`
	// CollisionCount is bumped on every ControllerRevision name collision
	// and mixed into the hash; nil and 0 hash differently.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
	// Conditions are kept as read: the controller writes none.
	Conditions []DaemonSetCondition `json:"conditions,omitempty"`
}

// DaemonSetCondition mirrors apps/v1 DaemonSetCondition.
type DaemonSetCondition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	LastTransitionTime time.Time       `json:"lastTransitionTime"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
}

// DeepCopy returns a copy sharing nothing with ds.
func (ds *DaemonSet) DeepCopy() *DaemonSet {
	if ds == nil {
		return nil
	}
	out := &DaemonSet{ObjectMeta: ds.ObjectMeta.DeepCopy(), Spec: ds.Spec, Status: ds.Status}
	out.Spec.Selector = ds.Spec.Selector.DeepCopy()
	out.Spec.Template = ds.Spec.Template.DeepCopy()
	out.Spec.Scheduling = ds.Spec.Scheduling.DeepCopy()
	if ru := ds.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		out.Spec.UpdateStrategy.RollingUpdate = &RollingUpdateDaemonSet{
			MaxUnavailable: copyDaemonPtr(ru.MaxUnavailable),
			MaxSurge:       copyDaemonPtr(ru.MaxSurge),
		}
	}
	out.Spec.RevisionHistoryLimit = copyDaemonPtr(ds.Spec.RevisionHistoryLimit)
	out.Status = ds.Status.DeepCopy()
	return out
}

// DeepCopy returns a copy sharing nothing with s.
func (s DaemonSetStatus) DeepCopy() DaemonSetStatus {
	out := s
	out.CollisionCount = copyDaemonPtr(s.CollisionCount)
	out.Conditions = slices.Clone(s.Conditions)
	return out
}

// copyDaemonPtr returns a pointer to a copy of *p, or nil.
func copyDaemonPtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// TemplateGeneration returns the template generation the
// deprecated.daemonset.template.generation annotation holds (upstream
// GetTemplateGeneration): nil without the annotation, and nil with the
// parse error for a value that is not a decimal int64. The controller
// treats an unparsable generation like a missing one.
func (ds *DaemonSet) TemplateGeneration() (*int64, error) {
	v, ok := ds.Annotations[DaemonSetTemplateGenerationAnnotation]
	if !ok {
		return nil, nil
	}
	g, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// DaemonPodTolerations returns the tolerations of a daemon pod made from a
// template with the given tolerations (upstream
// AddOrUpdateDaemonPodTolerations): each default toleration, all with
// operator Exists and no tolerationSeconds, in this order —
// not-ready:NoExecute, unreachable:NoExecute, disk-pressure:NoSchedule,
// memory-pressure:NoSchedule, pid-pressure:NoSchedule,
// unschedulable:NoSchedule, and network-unavailable:NoSchedule when
// hostNetwork is set — is added at the end unless the list already holds
// it. A template toleration with the same key, effect, operator and value
// but a tolerationSeconds is replaced by the default in place, unless an
// identical copy of the default also appears after it (upstream then keeps
// the list as it was). tolerations is not changed.
func DaemonPodTolerations(tolerations []Toleration, hostNetwork bool) []Toleration {
	defaults := [...]Toleration{
		{Key: TaintNodeNotReady, Operator: TolerationOpExists, Effect: TaintEffectNoExecute},
		{Key: TaintNodeUnreachable, Operator: TolerationOpExists, Effect: TaintEffectNoExecute},
		{Key: TaintNodeDiskPressure, Operator: TolerationOpExists, Effect: TaintEffectNoSchedule},
		{Key: TaintNodeMemoryPressure, Operator: TolerationOpExists, Effect: TaintEffectNoSchedule},
		{Key: TaintNodePIDPressure, Operator: TolerationOpExists, Effect: TaintEffectNoSchedule},
		{Key: TaintNodeUnschedulable, Operator: TolerationOpExists, Effect: TaintEffectNoSchedule},
		// Only for a pod on the host network.
		{Key: TaintNodeNetworkUnavailable, Operator: TolerationOpExists, Effect: TaintEffectNoSchedule},
	}
	n := len(defaults) - 1
	if hostNetwork {
		n++
	}
	// One list, large enough for every default: each is added in place.
	out := make([]Toleration, len(tolerations), len(tolerations)+n)
	for i, t := range tolerations {
		if t.TolerationSeconds != nil {
			t.TolerationSeconds = new(*t.TolerationSeconds)
		}
		out[i] = t
	}
	for _, d := range defaults[:n] {
		out = addOrUpdateToleration(out, d)
	}
	return out
}

// addOrUpdateToleration is upstream AddOrUpdateTolerationInPodSpec on a
// list it may change: when an entry matching t has no tolerationSeconds
// the list stays as it is; otherwise t replaces every entry it matches, or
// is appended when none does.
func addOrUpdateToleration(list []Toleration, t Toleration) []Toleration {
	matched := false
	for _, have := range list {
		if sameToleration(t, have) {
			if have.TolerationSeconds == nil {
				return list
			}
			matched = true
		}
	}
	if !matched {
		return append(list, t)
	}
	for i := range list {
		if sameToleration(t, list[i]) {
			list[i] = t
		}
	}
	return list
}

// TargetNodeName returns the node a daemon pod is meant for (upstream
// GetTargetNodeName): its spec.nodeName when set, otherwise the single
// value of the first matchFields requirement metadata.name In [...] of its
// required node affinity (affinity, which the controller writes into every
// pod it creates). It fails for a pod without either, or whose requirement
// has more than one value; the controller then ignores the pod.
func TargetNodeName(p *Pod, affinity *NodeSelector) (string, error) {
	if p.Spec.NodeName != "" {
		return p.Spec.NodeName, nil
	}
	if affinity == nil {
		return "", fmt.Errorf("no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod %s/%s", p.Namespace, p.Name)
	}
	if len(affinity.NodeSelectorTerms) == 0 {
		return "", fmt.Errorf("no nodeSelectorTerms in requiredDuringSchedulingIgnoredDuringExecution of pod %s/%s", p.Namespace, p.Name)
	}
	for _, term := range affinity.NodeSelectorTerms {
		for _, r := range term.MatchFields {
			if r.Key == NodeNameField && r.Operator == NodeSelectorOpIn {
				if len(r.Values) != 1 {
					return "", fmt.Errorf("the matchFields value of '%s' is not unique for pod %s/%s", NodeNameField, p.Namespace, p.Name)
				}
				return r.Values[0], nil
			}
		}
	}
	return "", fmt.Errorf("no node name found for pod %s/%s", p.Namespace, p.Name)
}

// DefaultDaemonSet returns a deep copy of ds with the apps/v1 defaults
// applied (upstream SetDefaults_DaemonSet): update strategy RollingUpdate
// when unset, and for RollingUpdate a rollingUpdate block with
// maxUnavailable 1 and maxSurge 0 where missing; revisionHistoryLimit 10.
// ds is not changed; nil gives nil.
func DefaultDaemonSet(ds *DaemonSet) *DaemonSet {
	out := ds.DeepCopy()
	if out == nil {
		return nil
	}
	us := &out.Spec.UpdateStrategy
	if us.Type == "" {
		us.Type = DaemonSetRollingUpdate
	}
	if us.Type == DaemonSetRollingUpdate {
		if us.RollingUpdate == nil {
			us.RollingUpdate = &RollingUpdateDaemonSet{}
		}
		if us.RollingUpdate.MaxUnavailable == nil {
			us.RollingUpdate.MaxUnavailable = IntOrStringPtr(FromInt(DefaultDaemonSetMaxUnavailable))
		}
		if us.RollingUpdate.MaxSurge == nil {
			us.RollingUpdate.MaxSurge = IntOrStringPtr(FromInt(DefaultDaemonSetMaxSurge))
		}
	}
	if out.Spec.RevisionHistoryLimit == nil {
		out.Spec.RevisionHistoryLimit = Int32Ptr(DefaultDaemonSetRevisionHistoryLimit)
	}
	return out
}

// ValidateDaemonSet checks a DaemonSet as apps/v1 validation does, plus
// what the planner needs of defaulted input: name, namespace and UID; a
// set, non-empty, valid selector that matches the template's labels; valid
// template labels and annotation keys; the template's pod spec as
// [ValidateTemplatePodSpec] checks it; owner references with at most one
// controller; valid tolerations and required node affinity; a supported
// update strategy, with for RollingUpdate a
// rollingUpdate block whose maxUnavailable and maxSurge are set,
// non-negative, at most 100% and not both zero (apps/v1 also refuses both
// non-zero; objects stored with both exist, and the controller lets
// maxSurge win, so the planner accepts them);
// non-negative minReadySeconds; a set, non-negative revisionHistoryLimit;
// non-negative status counts. It returns nil or a *[ValidationError].
func ValidateDaemonSet(ds *DaemonSet) error {
	var errs fieldErrs
	validateDaemonSet(&errs, prefix{index: -1}, ds, new(podSpecCheck))
	return errs.err()
}

// validateDaemonSet checks ds; specs applies the pod spec rules to its template
// (nil: not applied; see PodSpecsValidated).
func validateDaemonSet(errs *fieldErrs, at prefix, ds *DaemonSet, specs *podSpecCheck) {
	if ds == nil {
		errs.add(at.nilPath("daemonSet"), "", "must not be nil")
		return
	}
	validateMeta(errs, at, &ds.ObjectMeta)
	validateNamespace(errs, at, ds.Namespace, true)
	s := &ds.Spec
	selectorOK := false
	switch {
	case s.Selector == nil:
		errs.add(at.field("spec.selector"), "", "must be set: a nil selector matches nothing")
	case len(s.Selector.MatchLabels) == 0 && len(s.Selector.MatchExpressions) == 0:
		errs.add(at.field("spec.selector"), "{}", "empty selector is invalid for daemonset")
	default:
		if err := s.Selector.Check(); err != nil {
			errs.add(at.field("spec.selector"), "", "%s", err.Error())
		} else {
			selectorOK = true
		}
	}
	validateTemplate(errs, at, "spec.template", s.Template)
	validateTemplateAnnotations(errs, at, "spec.template", s.Template.Annotations)
	specs.check(errs, at, "spec.template.spec", s.Template.Spec, workloadTemplate)
	if selectorOK && !s.Selector.matches(s.Template.Labels) {
		errs.add(at.field("spec.template.metadata.labels"), FormatLabels(s.Template.Labels), "`selector` does not match template `labels`")
	}
	validateScheduling(errs, at, "spec.template.spec", &s.Scheduling)
	switch us := s.UpdateStrategy; us.Type {
	case DaemonSetOnDelete:
	case DaemonSetRollingUpdate:
		ru := us.RollingUpdate
		if ru == nil {
			errs.add(at.field("spec.updateStrategy.rollingUpdate"), "", "must be set for type 'RollingUpdate' (apply model.DefaultDaemonSet to undefaulted input)")
			break
		}
		unav, unavOK := validateFencepost(errs, at, "spec.updateStrategy.rollingUpdate.maxUnavailable", ru.MaxUnavailable, true)
		surge, surgeOK := validateFencepost(errs, at, "spec.updateStrategy.rollingUpdate.maxSurge", ru.MaxSurge, true)
		// apps/v1 also refuses both non-zero, but stored objects can carry
		// both (the controller lets maxSurge win), so that is accepted.
		if unavOK && surgeOK && unav == 0 && surge == 0 {
			errs.add(at.field("spec.updateStrategy.rollingUpdate.maxUnavailable"), ru.MaxUnavailable.String(), "cannot be 0 when maxSurge is 0")
		}
	case "":
		errs.add(at.field("spec.updateStrategy.type"), "", `supported values: "OnDelete", "RollingUpdate" (apply model.DefaultDaemonSet to undefaulted input)`)
	default:
		errs.add(at.field("spec.updateStrategy.type"), string(us.Type), `supported values: "OnDelete", "RollingUpdate"`)
	}
	if s.MinReadySeconds < 0 {
		errs.add(at.field("spec.minReadySeconds"), itoa(s.MinReadySeconds), "must be greater than or equal to 0")
	}
	if s.RevisionHistoryLimit == nil {
		errs.add(at.field("spec.revisionHistoryLimit"), "", "must be set (apply model.DefaultDaemonSet to undefaulted input)")
	} else if *s.RevisionHistoryLimit < 0 {
		errs.add(at.field("spec.revisionHistoryLimit"), itoa(*s.RevisionHistoryLimit), "must be greater than or equal to 0")
	}
	st := &ds.Status
	nonNegative(errs, at, "status.currentNumberScheduled", st.CurrentNumberScheduled)
	nonNegative(errs, at, "status.numberMisscheduled", st.NumberMisscheduled)
	nonNegative(errs, at, "status.desiredNumberScheduled", st.DesiredNumberScheduled)
	nonNegative(errs, at, "status.numberReady", st.NumberReady)
	nonNegative(errs, at, "status.updatedNumberScheduled", st.UpdatedNumberScheduled)
	nonNegative(errs, at, "status.numberAvailable", st.NumberAvailable)
	nonNegative(errs, at, "status.numberUnavailable", st.NumberUnavailable)
	if st.ObservedGeneration < 0 {
		errs.add(at.field("status.observedGeneration"), strconv.FormatInt(st.ObservedGeneration, 10), "must be greater than or equal to 0")
	}
	if st.CollisionCount != nil {
		nonNegative(errs, at, "status.collisionCount", *st.CollisionCount)
	}
}

// validateScheduling checks tolerations and the required node affinity as
// the API server's pod spec validation does (path is the pod spec's).
func validateScheduling(errs *fieldErrs, at prefix, path string, s *PodScheduling) {
	if !labelsValid(s.NodeSelector) {
		for _, k := range slices.Sorted(maps.Keys(s.NodeSelector)) {
			if msg := checkLabelKey(k); msg != "" {
				errs.add(at.field(path+".nodeSelector"), k, "%s", msg)
			}
			if msg := checkLabelValue(s.NodeSelector[k]); msg != "" {
				errs.add(at.field(path+".nodeSelector["+k+"]"), s.NodeSelector[k], "%s", msg)
			}
		}
	}
	for i, t := range s.Tolerations {
		p := at.field(path + ".tolerations[" + strconv.Itoa(i) + "]")
		if t.Key != "" {
			if msg := checkLabelKey(t.Key); msg != "" {
				errs.add(p+".key", t.Key, "%s", msg)
			}
		} else if t.Operator != TolerationOpExists {
			errs.add(p+".operator", string(t.Operator), "operator must be Exists when `key` is empty, which means \"match all values and all keys\"")
		}
		switch t.Operator {
		case "", TolerationOpEqual:
			if msg := checkLabelValue(t.Value); msg != "" {
				errs.add(p+".value", t.Value, "%s", msg)
			}
		case TolerationOpExists:
			if t.Value != "" {
				errs.add(p+".operator", t.Value, "value must be empty when `operator` is 'Exists'")
			}
		default:
			errs.add(p+".operator", string(t.Operator), `supported values: "Equal", "Exists"`)
		}
		switch t.Effect {
		case "", TaintEffectNoSchedule, TaintEffectPreferNoSchedule, TaintEffectNoExecute:
		default:
			errs.add(p+".effect", string(t.Effect), `supported values: "NoExecute", "NoSchedule", "PreferNoSchedule"`)
		}
		if t.TolerationSeconds != nil && t.Effect != TaintEffectNoExecute {
			errs.add(p+".effect", string(t.Effect), "effect must be 'NoExecute' when `tolerationSeconds` is set")
		}
	}
	na := s.RequiredNodeAffinity
	if na == nil {
		return
	}
	ap := path + ".affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
	if len(na.NodeSelectorTerms) == 0 {
		errs.add(at.field(ap), "", "must have at least one node selector term")
	}
	for i, term := range na.NodeSelectorTerms {
		tp := ap + "[" + strconv.Itoa(i) + "]"
		for j, r := range term.MatchExpressions {
			if err := r.checkExpression(); err != nil {
				errs.add(at.field(tp+".matchExpressions["+strconv.Itoa(j)+"]"), r.Key, "%s", err.Error())
			}
		}
		for j, r := range term.MatchFields {
			rp := at.field(tp + ".matchFields[" + strconv.Itoa(j) + "]")
			if r.Key != NodeNameField {
				errs.add(rp+".key", r.Key, `supported values: "metadata.name"`)
			}
			if err := r.checkField(); err != nil {
				errs.add(rp, r.Key, "%s", err.Error())
			}
		}
	}
}

// ValidateDaemonSetSnapshot checks the DaemonSet, every node, pod and
// ControllerRevision (with paths such as "nodes[2].spec.taints[0].effect"
// and "controllerRevisions[1].revision"), and that no two objects of one
// list share a name (in a namespace) or a UID. With [PodSpecsValidated] it
// leaves out the pod spec rules.
func ValidateDaemonSetSnapshot(ds *DaemonSet, nodes []*Node, pods []*Pod, revisions []*ControllerRevision, opts ...ValidateOption) error {
	var errs fieldErrs
	specs := newPodSpecCheck(opts)
	validateDaemonSet(&errs, prefix{list: "daemonSet", index: -1}, ds, specs)
	for i, n := range nodes {
		validateNode(&errs, prefix{list: "nodes", index: i}, n)
	}
	reportDuplicates(&errs, "nodes", "Node", nodes, nodeMeta)
	for i, p := range pods {
		validatePod(&errs, prefix{list: "pods", index: i}, p, specs)
	}
	reportDuplicates(&errs, "pods", "Pod", pods, podMeta)
	for i, r := range revisions {
		validateControllerRevision(&errs, prefix{list: "controllerRevisions", index: i}, r)
	}
	reportDuplicates(&errs, "controllerRevisions", "ControllerRevision", revisions, daemonRevisionMeta)
	return errs.err()
}

func nodeMeta(n *Node) *ObjectMeta { return &n.ObjectMeta }

func daemonRevisionMeta(r *ControllerRevision) *ObjectMeta { return &r.ObjectMeta }
