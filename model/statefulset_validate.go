package model

import (
	"fmt"
	"strconv"
)

// Defaults of apps/v1 StatefulSets, applied by [DefaultStatefulSet].
const (
	DefaultStatefulSetRevisionHistoryLimit = 10
	DefaultPartition                       = 0
)

// DefaultStatefulSet returns a deep copy of s with the apps/v1 defaults
// applied, as the API server applies them before any controller sees the
// object (with the MaxUnavailableStatefulSet gate at its v1.36 default, off):
//   - podManagementPolicy OrderedReady;
//   - an empty updateStrategy.type becomes RollingUpdate with an empty
//     rollingUpdate block (a type given as RollingUpdate without a block
//     keeps none);
//   - a RollingUpdate block gets partition 0;
//   - the claim retention policy, and each of its halves, Retain;
//   - replicas 1 and revisionHistoryLimit 10.
//
// s is not changed. Objects read from a cluster are already defaulted.
func DefaultStatefulSet(s *StatefulSet) *StatefulSet {
	out := s.DeepCopy()
	if out == nil {
		return nil
	}
	sp := &out.Spec
	if sp.PodManagementPolicy == "" {
		sp.PodManagementPolicy = OrderedReadyPodManagement
	}
	if sp.UpdateStrategy.Type == "" {
		sp.UpdateStrategy.Type = RollingUpdateStatefulSetStrategyType
		if sp.UpdateStrategy.RollingUpdate == nil {
			sp.UpdateStrategy.RollingUpdate = &RollingUpdateStatefulSetStrategy{}
		}
	}
	if ru := sp.UpdateStrategy.RollingUpdate; sp.UpdateStrategy.Type == RollingUpdateStatefulSetStrategyType && ru != nil && ru.Partition == nil {
		ru.Partition = Int32Ptr(DefaultPartition)
	}
	if sp.PersistentVolumeClaimRetentionPolicy == nil {
		sp.PersistentVolumeClaimRetentionPolicy = &StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	if p := sp.PersistentVolumeClaimRetentionPolicy; p.WhenDeleted == "" {
		p.WhenDeleted = RetainPersistentVolumeClaimRetentionPolicyType
	}
	if p := sp.PersistentVolumeClaimRetentionPolicy; p.WhenScaled == "" {
		p.WhenScaled = RetainPersistentVolumeClaimRetentionPolicyType
	}
	if sp.Replicas == nil {
		sp.Replicas = Int32Ptr(DefaultReplicas)
	}
	if sp.RevisionHistoryLimit == nil {
		sp.RevisionHistoryLimit = Int32Ptr(DefaultStatefulSetRevisionHistoryLimit)
	}
	return out
}

// ValidateStatefulSet checks a StatefulSet against the apps/v1 rules the
// StatefulSet planner relies on (a non-empty selector matching the template
// labels, a known pod management policy and update strategy, a partition and
// maxUnavailable in range, known retention policies, a valid serviceName and
// claim template names, a name that is a DNS-1123 label, the template's pod
// spec as [ValidateTemplatePodSpec] checks it, owner references with at
// most one controller, non-negative counts and start ordinal), plus what
// undefaulted input would leave unset (replicas, revisionHistoryLimit, the
// partition of a rollingUpdate block). It returns nil or a
// *[ValidationError] listing every problem with its field path.
//
// Two claim templates of the same name are rejected, although the API server
// accepts them: the controller would mount and create only one of them.
func ValidateStatefulSet(s *StatefulSet) error {
	var errs fieldErrs
	validateStatefulSet(&errs, prefix{index: -1}, s, new(podSpecCheck))
	return errs.err()
}

// ValidateStatefulSetSnapshot checks a whole StatefulSet snapshot: the set,
// every Pod, ControllerRevision and claim (with paths such as
// "pods[2].metadata.name" and "statefulSet.spec.replicas"), and that no two
// objects of one list share a name (in a namespace) or a UID. With
// [PodSpecsValidated] it leaves out the pod spec rules.
func ValidateStatefulSetSnapshot(s *StatefulSet, pods []*Pod, revisions []*ControllerRevision, claims []*PersistentVolumeClaim, opts ...ValidateOption) error {
	var errs fieldErrs
	specs := newPodSpecCheck(opts)
	validateStatefulSet(&errs, prefix{list: "statefulSet", index: -1}, s, specs)
	for i, p := range pods {
		validatePod(&errs, prefix{list: "pods", index: i}, p, specs)
	}
	reportDuplicates(&errs, "pods", "Pod", pods, podMeta)
	for i, r := range revisions {
		validateControllerRevision(&errs, prefix{list: "controllerRevisions", index: i}, r)
	}
	reportDuplicates(&errs, "controllerRevisions", "ControllerRevision", revisions, func(r *ControllerRevision) *ObjectMeta { return &r.ObjectMeta })
	for i, c := range claims {
		validateClaim(&errs, prefix{list: "claims", index: i}, c)
	}
	reportDuplicates(&errs, "claims", "PersistentVolumeClaim", claims, func(c *PersistentVolumeClaim) *ObjectMeta { return &c.ObjectMeta })
	return errs.err()
}

// ValidateControllerRevision checks a ControllerRevision: a valid name, a
// valid namespace and UID when set, and a non-negative revision number.
func ValidateControllerRevision(r *ControllerRevision) error {
	var errs fieldErrs
	validateControllerRevision(&errs, prefix{index: -1}, r)
	return errs.err()
}

// ValidatePersistentVolumeClaim checks a claim: a valid name, and a valid
// namespace and UID when set.
func ValidatePersistentVolumeClaim(c *PersistentVolumeClaim) error {
	var errs fieldErrs
	validateClaim(&errs, prefix{index: -1}, c)
	return errs.err()
}

// validateStatefulSet checks s; specs applies the pod spec rules to its template
// (nil: not applied; see PodSpecsValidated).
func validateStatefulSet(errs *fieldErrs, at prefix, s *StatefulSet, specs *podSpecCheck) {
	if s == nil {
		errs.add(at.nilPath("statefulSet"), "", "must not be nil")
		return
	}
	validateMeta(errs, at, &s.ObjectMeta)
	// A set's name is also a DNS-1123 label (upstream
	// ValidateStatefulSetName): its pods are named and hostnamed after it.
	// validateMeta has reported a name that is not even a subdomain.
	if checkDNSSubdomain(s.Name) == "" {
		if msg := checkDNSLabel(s.Name); msg != "" {
			errs.add(at.field("metadata.name"), s.Name, "%s", msg)
		}
	}
	validateNamespace(errs, at, s.Namespace, true)
	sp := &s.Spec
	if sp.Replicas == nil {
		errs.add(at.field("spec.replicas"), "", "must be set (apply model.DefaultStatefulSet to undefaulted input)")
	} else if *sp.Replicas < 0 {
		errs.add(at.field("spec.replicas"), itoa(*sp.Replicas), "must be greater than or equal to 0")
	}
	validateStatefulSetSelector(errs, at, sp)
	validateTemplate(errs, at, "spec.template", sp.Template)
	validateTemplateAnnotations(errs, at, "spec.template", sp.Template.Annotations)
	specs.check(errs, at, "spec.template.spec", sp.Template.Spec, workloadTemplate)
	validateClaimTemplates(errs, at, sp.VolumeClaimTemplates)
	if sp.ServiceName != "" {
		if msg := checkDNSLabel(sp.ServiceName); msg != "" {
			errs.add(at.field("spec.serviceName"), sp.ServiceName, "%s", msg)
		}
	}
	switch sp.PodManagementPolicy {
	case OrderedReadyPodManagement, ParallelPodManagement:
	case "":
		errs.add(at.field("spec.podManagementPolicy"), "", `supported values: "OrderedReady", "Parallel" (apply model.DefaultStatefulSet to undefaulted input)`)
	default:
		errs.add(at.field("spec.podManagementPolicy"), string(sp.PodManagementPolicy), `supported values: "OrderedReady", "Parallel"`)
	}
	validateStatefulSetStrategy(errs, at, sp.UpdateStrategy)
	if sp.RevisionHistoryLimit == nil {
		errs.add(at.field("spec.revisionHistoryLimit"), "", "must be set (apply model.DefaultStatefulSet to undefaulted input)")
	}
	if sp.MinReadySeconds < 0 {
		errs.add(at.field("spec.minReadySeconds"), itoa(sp.MinReadySeconds), "must be greater than or equal to 0")
	}
	if p := sp.PersistentVolumeClaimRetentionPolicy; p != nil {
		validateRetention(errs, at, "spec.persistentVolumeClaimRetentionPolicy.whenDeleted", p.WhenDeleted)
		validateRetention(errs, at, "spec.persistentVolumeClaimRetentionPolicy.whenScaled", p.WhenScaled)
	}
	if o := sp.Ordinals; o != nil && o.Start < 0 {
		errs.add(at.field("spec.ordinals.start"), itoa(o.Start), "must be greater than or equal to 0")
	}
	st := &s.Status
	if st.ObservedGeneration < 0 {
		errs.add(at.field("status.observedGeneration"), strconv.FormatInt(st.ObservedGeneration, 10), "must be greater than or equal to 0")
	}
	nonNegative(errs, at, "status.replicas", st.Replicas)
	nonNegative(errs, at, "status.readyReplicas", st.ReadyReplicas)
	nonNegative(errs, at, "status.currentReplicas", st.CurrentReplicas)
	nonNegative(errs, at, "status.updatedReplicas", st.UpdatedReplicas)
	nonNegative(errs, at, "status.availableReplicas", st.AvailableReplicas)
	if st.CollisionCount != nil {
		nonNegative(errs, at, "status.collisionCount", *st.CollisionCount)
	}
}

// validateStatefulSetSelector checks spec.selector and that it selects the
// template's labels.
func validateStatefulSetSelector(errs *fieldErrs, at prefix, sp *StatefulSetSpec) {
	s := sp.Selector
	switch {
	case s == nil:
		errs.add(at.field("spec.selector"), "", "must be set: a nil selector matches nothing")
		return
	case len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0:
		errs.add(at.field("spec.selector"), "{}", "empty selector is invalid for statefulset")
		return
	}
	if err := s.Check(); err != nil {
		errs.add(at.field("spec.selector"), "", "%s", err.Error())
		return
	}
	if !s.matches(sp.Template.Labels) {
		errs.add(at.field("spec.template.metadata.labels"), FormatLabels(sp.Template.Labels), "`selector` does not match template `labels`")
	}
}

// validateClaimTemplates checks the names of spec.volumeClaimTemplates: each
// becomes a pod volume name, so a DNS-1123 label, and they must differ.
func validateClaimTemplates(errs *fieldErrs, at prefix, templates []PersistentVolumeClaim) {
	seen := make(map[string]int, len(templates))
	for i := range templates {
		name := templates[i].Name
		path := fmt.Sprintf("spec.volumeClaimTemplates[%d].metadata.name", i)
		if msg := checkDNSLabel(name); msg != "" {
			errs.add(at.field(path), name, "%s", msg)
			continue
		}
		if j, dup := seen[name]; dup {
			errs.add(at.field(path), name, "duplicate claim template name (also volumeClaimTemplates[%d]): pods would mount only one claim of that name", j)
			continue
		}
		seen[name] = i
	}
}

// validateStatefulSetStrategy checks spec.updateStrategy.
func validateStatefulSetStrategy(errs *fieldErrs, at prefix, s StatefulSetUpdateStrategy) {
	switch s.Type {
	case OnDeleteStatefulSetStrategyType:
		if s.RollingUpdate != nil {
			errs.add(at.field("spec.updateStrategy.rollingUpdate"), "", "only allowed for updateStrategy 'RollingUpdate'")
		}
	case RollingUpdateStatefulSetStrategyType:
		ru := s.RollingUpdate
		if ru == nil {
			return
		}
		if ru.Partition == nil {
			errs.add(at.field("spec.updateStrategy.rollingUpdate.partition"), "", "must be set (apply model.DefaultStatefulSet to undefaulted input)")
		} else if *ru.Partition < 0 {
			errs.add(at.field("spec.updateStrategy.rollingUpdate.partition"), itoa(*ru.Partition), "must be greater than or equal to 0")
		}
		if ru.MaxUnavailable != nil {
			validateStatefulSetMaxUnavailable(errs, at, *ru.MaxUnavailable)
		}
	case "":
		errs.add(at.field("spec.updateStrategy.type"), "", `supported values: "OnDelete", "RollingUpdate" (apply model.DefaultStatefulSet to undefaulted input)`)
	default:
		errs.add(at.field("spec.updateStrategy.type"), string(s.Type), `supported values: "OnDelete", "RollingUpdate"`)
	}
}

// validateStatefulSetMaxUnavailable checks maxUnavailable as apps/v1 does:
// a non-negative integer or a percentage, not zero, at most 100%.
func validateStatefulSetMaxUnavailable(errs *fieldErrs, at prefix, v IntOrString) {
	const path = "spec.updateStrategy.rollingUpdate.maxUnavailable"
	switch v.Type {
	case Int:
		switch {
		case v.IntVal < 0:
			errs.add(at.field(path), v.String(), "must be greater than or equal to 0")
		case v.IntVal == 0:
			errs.add(at.field(path), v.String(), "cannot be 0")
		}
	case String:
		n, err := ParsePercent(v.StrVal)
		switch {
		case err != nil:
			errs.add(at.field(path), v.StrVal, "%s", err.Error())
		case n == 0:
			errs.add(at.field(path), v.StrVal, "cannot be 0")
		case n > 100:
			errs.add(at.field(path), v.StrVal, "must not be greater than 100%%")
		}
	default:
		errs.add(at.field(path), v.StrVal, "unknown IntOrString type %d: must be an integer or a percentage", v.Type)
	}
}

// validateRetention checks one half of the claim retention policy.
func validateRetention(errs *fieldErrs, at prefix, path string, p PersistentVolumeClaimRetentionPolicyType) {
	switch p {
	case RetainPersistentVolumeClaimRetentionPolicyType, DeletePersistentVolumeClaimRetentionPolicyType:
	case "":
		errs.add(at.field(path), "", `supported values: "Delete", "Retain" (apply model.DefaultStatefulSet to undefaulted input)`)
	default:
		errs.add(at.field(path), string(p), `supported values: "Delete", "Retain"`)
	}
}

func validateControllerRevision(errs *fieldErrs, at prefix, r *ControllerRevision) {
	if r == nil {
		errs.add(at.nilPath("controllerRevision"), "", "must not be nil")
		return
	}
	if msg := checkDNSSubdomain(r.Name); msg != "" {
		errs.add(at.field("metadata.name"), r.Name, "%s", msg)
	}
	validateNamespace(errs, at, r.Namespace, false)
	validateUID(errs, at, r.UID)
	if r.Revision < 0 {
		errs.add(at.field("revision"), strconv.FormatInt(r.Revision, 10), "must be greater than or equal to 0")
	}
}

func validateClaim(errs *fieldErrs, at prefix, c *PersistentVolumeClaim) {
	if c == nil {
		errs.add(at.nilPath("persistentVolumeClaim"), "", "must not be nil")
		return
	}
	if msg := checkDNSSubdomain(c.Name); msg != "" {
		errs.add(at.field("metadata.name"), c.Name, "%s", msg)
	}
	validateNamespace(errs, at, c.Namespace, false)
	validateUID(errs, at, c.UID)
}
