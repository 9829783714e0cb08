package model

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// ValidateDeployment checks every rule the planners rely on: the apps/v1
// validation rules (required selector matching the template labels,
// well-formed non-negative fenceposts that are not both literally zero,
// maxUnavailable at most 100%, progressDeadlineSeconds greater than
// minReadySeconds, no rollingUpdate block on Recreate, the template's pod
// spec as [ValidateTemplatePodSpec] checks it, owner references with at
// most one controller...) plus what would make
// a planner misbehave on unvalidated input (nil replicas or fenceposts, i.e.
// undefaulted input; negative counts; an empty UID). It returns nil or a
// *[ValidationError] listing every problem.
func ValidateDeployment(d *Deployment) error {
	var errs fieldErrs
	validateDeployment(&errs, prefix{index: -1}, d, new(podSpecCheck))
	return errs.err()
}

// validateDeployment checks d; specs applies the pod spec rules to its template
// (nil: not applied; see PodSpecsValidated).
func validateDeployment(errs *fieldErrs, at prefix, d *Deployment, specs *podSpecCheck) {
	if d == nil {
		errs.add(at.nilPath("deployment"), "", "must not be nil")
		return
	}
	validateMeta(errs, at, &d.ObjectMeta)
	validateNamespace(errs, at, d.Namespace, true)
	s := &d.Spec
	if s.Replicas == nil {
		errs.add(at.field("spec.replicas"), "", "must be set (apply model.Default to undefaulted input)")
	} else if *s.Replicas < 0 {
		errs.add(at.field("spec.replicas"), itoa(*s.Replicas), "must be greater than or equal to 0")
	}
	selectorOK := validateSelector(errs, at, "spec.selector", s.Selector, true)
	validateTemplate(errs, at, "spec.template", s.Template)
	validateTemplateAnnotations(errs, at, "spec.template", s.Template.Annotations)
	if selectorOK && !s.Selector.matches(s.Template.Labels) {
		errs.add(at.field("spec.template.metadata.labels"), FormatLabels(s.Template.Labels), "`selector` does not match template `labels`")
	}
	specs.check(errs, at, "spec.template.spec", s.Template.Spec, workloadTemplate)
	validateStrategy(errs, at, s.Strategy)
	if s.MinReadySeconds < 0 {
		errs.add(at.field("spec.minReadySeconds"), itoa(s.MinReadySeconds), "must be greater than or equal to 0")
	}
	if s.RevisionHistoryLimit != nil && *s.RevisionHistoryLimit < 0 {
		errs.add(at.field("spec.revisionHistoryLimit"), itoa(*s.RevisionHistoryLimit), "must be greater than or equal to 0")
	}
	if p := s.ProgressDeadlineSeconds; p != nil {
		switch {
		case *p <= 0:
			errs.add(at.field("spec.progressDeadlineSeconds"), itoa(*p), "must be greater than 0")
		case *p <= s.MinReadySeconds:
			errs.add(at.field("spec.progressDeadlineSeconds"), itoa(*p), "must be greater than minReadySeconds")
		}
	}
	st := &d.Status
	nonNegative(errs, at, "status.replicas", st.Replicas)
	nonNegative(errs, at, "status.updatedReplicas", st.UpdatedReplicas)
	nonNegative(errs, at, "status.readyReplicas", st.ReadyReplicas)
	nonNegative(errs, at, "status.availableReplicas", st.AvailableReplicas)
	nonNegative(errs, at, "status.unavailableReplicas", st.UnavailableReplicas)
	if st.CollisionCount != nil {
		nonNegative(errs, at, "status.collisionCount", *st.CollisionCount)
	}
	if st.TerminatingReplicas != nil {
		nonNegative(errs, at, "status.terminatingReplicas", *st.TerminatingReplicas)
	}
	// Duplicate condition types are valid for the API (status.conditions
	// is a list keyed by nothing the server enforces); upstream reads the
	// first of a type and replaces them all when it sets one, and so does
	// the planner.
}

// validateStrategy checks spec.strategy. Its paths are constants, so that
// nothing is built for a valid strategy.
func validateStrategy(errs *fieldErrs, at prefix, s Strategy) {
	switch s.Type {
	case RecreateStrategy:
		if s.RollingUpdate != nil {
			errs.add(at.field("spec.strategy.rollingUpdate"), "", "may not be specified when strategy `type` is 'Recreate' (set it to nil when switching to Recreate; the API server refuses the leftover block too)")
		}
	case RollingUpdateStrategy:
		ru := s.RollingUpdate
		if ru == nil {
			errs.add(at.field("spec.strategy.rollingUpdate"), "", "must be set for strategy `type` 'RollingUpdate' (apply model.Default to undefaulted input)")
			return
		}
		surge, surgeOK := validateFencepost(errs, at, "spec.strategy.rollingUpdate.maxSurge", ru.MaxSurge, false)
		unav, unavOK := validateFencepost(errs, at, "spec.strategy.rollingUpdate.maxUnavailable", ru.MaxUnavailable, true)
		if surgeOK && unavOK && surge == 0 && unav == 0 {
			errs.add(at.field("spec.strategy.rollingUpdate.maxUnavailable"), ru.MaxUnavailable.String(), "may not be 0 when `maxSurge` is 0")
		}
	case "":
		errs.add(at.field("spec.strategy.type"), "", `supported values: "Recreate", "RollingUpdate" (apply model.Default to undefaulted input)`)
	default:
		errs.add(at.field("spec.strategy.type"), string(s.Type), `supported values: "Recreate", "RollingUpdate"`)
	}
}

// validateFencepost checks one of maxSurge/maxUnavailable and returns its
// literal number (the integer, or the percentage before resolution).
func validateFencepost(errs *fieldErrs, at prefix, path string, v *IntOrString, capAt100 bool) (int64, bool) {
	if v == nil {
		errs.add(at.field(path), "", "must be set (apply model.Default to undefaulted input)")
		return 0, false
	}
	switch v.Type {
	case Int:
		if v.IntVal < 0 {
			errs.add(at.field(path), v.String(), "must be greater than or equal to 0")
			return 0, false
		}
		return int64(v.IntVal), true
	case String:
		// a percentage, parsed below
	default:
		errs.add(at.field(path), v.StrVal, "unknown IntOrString type %d: must be an integer or a percentage", v.Type)
		return 0, false
	}
	n, err := ParsePercent(v.StrVal)
	if err != nil {
		errs.add(at.field(path), v.StrVal, "%s", err.Error())
		return 0, false
	}
	if capAt100 && n > 100 {
		errs.add(at.field(path), v.StrVal, "must not be greater than 100%%")
		return 0, false
	}
	return n, true
}

// ParsePercent reads a percentage the way apps/v1 validation accepts it: one
// or more decimal digits followed by "%" ("25%", "0%", "150%",
// "2147483648%"). Signs, spaces and fractions are rejected. The number is
// read as upstream's validation reads it, with a 64-bit strconv.Atoi whose
// error it ignores: digits beyond int64 give math.MaxInt64 (so
// "99999999999999999999%" is valid for maxSurge and over 100% for
// maxUnavailable).
func ParsePercent(s string) (int64, error) {
	digits, ok := strings.CutSuffix(s, "%")
	if !ok || digits == "" {
		return 0, fmt.Errorf(`must be an integer or a percentage such as "25%%"`)
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, fmt.Errorf(`must be an integer or a percentage such as "25%%"`)
		}
	}
	// Only digits remain, so the one possible error is ErrRange, with n
	// clamped to math.MaxInt64 as Atoi's result is.
	n, _ := strconv.ParseInt(digits, 10, 64)
	return n, nil
}

func validateMeta(errs *fieldErrs, at prefix, m *ObjectMeta) {
	if msg := checkDNSSubdomain(m.Name); msg != "" {
		errs.add(at.field("metadata.name"), m.Name, "%s", msg)
	}
	if m.UID == "" {
		errs.add(at.field("metadata.uid"), "", "must not be empty: owner references and pods are matched by UID")
	}
	validateUID(errs, at, m.UID)
	validateOwnerReferences(errs, at, m.OwnerReferences)
	if m.Generation < 0 {
		errs.add(at.field("metadata.generation"), strconv.FormatInt(m.Generation, 10), "must be greater than or equal to 0")
	}
}

// validateOwnerReferences applies the API server's owner reference rules
// (upstream's ValidateOwnerReferences): each names an API version, a kind,
// a name and a UID, no Event owns anything, and at most one is the
// controller. The planners follow the controller reference: with two,
// which one owns the object would be a matter of order.
func validateOwnerReferences(errs *fieldErrs, at prefix, refs []OwnerReference) {
	first := -1 // the first controller reference
	for i := range refs {
		r := &refs[i]
		versionSet := ownerVersionSet(r.APIVersion)
		if versionSet && r.Kind != "" && r.Name != "" && r.UID != "" && !r.Controller && !bannedOwner(r) {
			continue
		}
		p := func(f string) string { return at.field("metadata.ownerReferences[" + strconv.Itoa(i) + "]" + f) }
		if !versionSet {
			errs.add(p(".apiVersion"), r.APIVersion, "version must not be empty")
		}
		if r.Kind == "" {
			errs.add(p(".kind"), "", "must not be empty")
		}
		if r.Name == "" {
			errs.add(p(".name"), "", "must not be empty")
		}
		if r.UID == "" {
			errs.add(p(".uid"), "", "must not be empty")
		}
		if bannedOwner(r) {
			errs.add(p(""), r.APIVersion+", Kind="+r.Kind, "an Event is disallowed from being an owner")
		}
		if !r.Controller {
			continue
		}
		if first < 0 {
			first = i
			continue
		}
		f := &refs[first]
		errs.add(at.field("metadata.ownerReferences"), r.Kind+"/"+r.Name,
			"Only one reference can have Controller set to true. Found \"true\" in references for %s/%s and %s/%s", f.Kind, f.Name, r.Kind, r.Name)
	}
}

// bannedOwner reports whether r names a core v1 Event, which upstream's
// BannedOwners forbids as an owner.
func bannedOwner(r *OwnerReference) bool { return r.APIVersion == "v1" && r.Kind == "Event" }

// ownerVersionSet reports whether an owner reference's apiVersion has a
// version as upstream's ParseGroupVersion reads it: "v1" or "apps/v1", not
// "", "apps/" or "a/b/c" (the group is optional, the version is not).
func ownerVersionSet(apiVersion string) bool {
	switch strings.Count(apiVersion, "/") {
	case 0:
		return apiVersion != ""
	case 1:
		return !strings.HasSuffix(apiVersion, "/")
	}
	return false
}

// validateSelector reports whether s is set, not empty and valid.
func validateSelector(errs *fieldErrs, at prefix, path string, s *LabelSelector, required bool) bool {
	if s == nil {
		if required {
			errs.add(at.field(path), "", "must be set: a nil selector matches nothing")
		}
		return false
	}
	if len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0 {
		errs.add(at.field(path), "{}", "empty selector is invalid for deployment")
		return false
	}
	if err := s.Check(); err != nil {
		errs.add(at.field(path), "", "%s", err.Error())
		return false
	}
	return true
}

func validateTemplate(errs *fieldErrs, at prefix, path string, t PodTemplate) {
	if labelsValid(t.Labels) {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(t.Labels)) {
		v := t.Labels[k]
		if msg := checkLabelKey(k); msg != "" {
			errs.add(at.field(path+".metadata.labels"), k, "%s", msg)
		}
		if msg := checkLabelValue(v); msg != "" {
			errs.add(at.field(path+".metadata.labels["+k+"]"), v, "%s", msg)
		}
	}
}

// labelsValid is the allocation-free check behind the sorted error report.
func labelsValid(labels map[string]string) bool {
	for k, v := range labels {
		if checkLabelKey(k) != "" || checkLabelValue(v) != "" {
			return false
		}
	}
	return true
}

// ValidateReplicaSet checks a ReplicaSet: name, UID and owner references,
// a set non-negative spec.replicas, a valid non-empty selector that selects
// the template's labels, the template's pod spec
// ([ValidateTemplatePodSpec]), and non-negative status counts.
func ValidateReplicaSet(rs *ReplicaSet) error {
	var errs fieldErrs
	validateReplicaSet(&errs, prefix{index: -1}, rs, new(podSpecCheck))
	return errs.err()
}

// validateReplicaSet checks rs; specs applies the pod spec rules to its template
// (nil: not applied; see PodSpecsValidated).
func validateReplicaSet(errs *fieldErrs, at prefix, rs *ReplicaSet, specs *podSpecCheck) {
	if rs == nil {
		errs.add(at.nilPath("replicaSet"), "", "must not be nil")
		return
	}
	validateMeta(errs, at, &rs.ObjectMeta)
	validateNamespace(errs, at, rs.Namespace, false)
	if rs.Spec.Replicas == nil {
		errs.add(at.field("spec.replicas"), "", "must be set (apply model.DefaultReplicaSet to undefaulted input)")
	} else if *rs.Spec.Replicas < 0 {
		errs.add(at.field("spec.replicas"), itoa(*rs.Spec.Replicas), "must be greater than or equal to 0")
	}
	if rs.Spec.MinReadySeconds < 0 {
		errs.add(at.field("spec.minReadySeconds"), itoa(rs.Spec.MinReadySeconds), "must be greater than or equal to 0")
	}
	switch sel := rs.Spec.Selector; {
	case sel == nil:
		errs.add(at.field("spec.selector"), "", "must be set")
	case len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0:
		// Upstream's ValidateReplicaSetSpec words it so, "deployment"
		// included.
		errs.add(at.field("spec.selector"), "{}", "empty selector is invalid for deployment")
	default:
		if err := sel.Check(); err != nil {
			errs.add(at.field("spec.selector"), "", "%s", err.Error())
		} else if !sel.matches(rs.Spec.Template.Labels) {
			// A ReplicaSet whose pods its selector does not select would
			// create pods forever; the API server refuses it.
			errs.add(at.field("spec.template.metadata.labels"), FormatLabels(rs.Spec.Template.Labels), "`selector` does not match template `labels`")
		}
	}
	// The template's label and annotation syntax is left unchecked: the
	// planners only match the labels, and every ReplicaSet they create
	// copies a validated Deployment template.
	specs.check(errs, at, "spec.template.spec", rs.Spec.Template.Spec, workloadTemplate)
	st := rs.Status
	nonNegative(errs, at, "status.replicas", st.Replicas)
	nonNegative(errs, at, "status.fullyLabeledReplicas", st.FullyLabeledReplicas)
	nonNegative(errs, at, "status.readyReplicas", st.ReadyReplicas)
	nonNegative(errs, at, "status.availableReplicas", st.AvailableReplicas)
	if st.TerminatingReplicas != nil {
		nonNegative(errs, at, "status.terminatingReplicas", *st.TerminatingReplicas)
	}
	if st.ObservedGeneration < 0 {
		errs.add(at.field("status.observedGeneration"), strconv.FormatInt(st.ObservedGeneration, 10), "must be greater than or equal to 0")
	}
}

// ValidatePod checks the pod fields the planners read and the rules the
// API server applies to them: a name that is a DNS-1123 subdomain, a valid
// namespace and UID when set, owner references (at most one controller),
// the pod spec of its Body ([ValidatePodBody]), and no negative restart
// counts.
func ValidatePod(p *Pod) error {
	var errs fieldErrs
	validatePod(&errs, prefix{index: -1}, p, new(podSpecCheck))
	return errs.err()
}

// validatePod checks p; specs applies the pod spec rules to its Body
// (nil: not applied; see PodSpecsValidated).
func validatePod(errs *fieldErrs, at prefix, p *Pod, specs *podSpecCheck) {
	if p == nil {
		errs.add(at.nilPath("pod"), "", "must not be nil")
		return
	}
	if msg := checkDNSSubdomain(p.Name); msg != "" {
		errs.add(at.field("metadata.name"), p.Name, "%s", msg)
	}
	validateNamespace(errs, at, p.Namespace, false)
	validateUID(errs, at, p.UID)
	validateOwnerReferences(errs, at, p.OwnerReferences)
	specs.check(errs, at, "spec", p.Spec.Body, podBody)
	for i, c := range p.Status.ContainerStatuses {
		if c.RestartCount < 0 {
			errs.add(at.field(fmt.Sprintf("status.containerStatuses[%d].restartCount", i)), itoa(c.RestartCount), "must be greater than or equal to 0")
		}
	}
}

// Validate checks a whole snapshot: the Deployment, every ReplicaSet and Pod
// (with paths such as "replicaSets[2].spec.replicas"), and that no two
// ReplicaSets share a name or UID and no two Pods share a name or UID.
// With [PodSpecsValidated] it leaves out the pod spec rules; with
// [ReplicaSetsAndPodsValidated], the rules of each ReplicaSet and pod.
func Validate(d *Deployment, replicaSets []*ReplicaSet, pods []*Pod, opts ...ValidateOption) error {
	var errs fieldErrs
	specs := newPodSpecCheck(opts)
	validateDeployment(&errs, prefix{list: "deployment", index: -1}, d, specs)
	listed := !hasOption(opts, ReplicaSetsAndPodsValidated)
	for i, rs := range replicaSets {
		if listed || rs == nil {
			validateReplicaSet(&errs, prefix{list: "replicaSets", index: i}, rs, specs)
		}
	}
	reportDuplicates(&errs, "replicaSets", "ReplicaSet", replicaSets, replicaSetMeta)
	for i, p := range pods {
		if listed || p == nil {
			validatePod(&errs, prefix{list: "pods", index: i}, p, specs)
		}
	}
	reportDuplicates(&errs, "pods", "Pod", pods, podMeta)
	return errs.err()
}

func nonNegative(errs *fieldErrs, at prefix, field string, v int32) {
	if v < 0 {
		errs.add(at.field(field), itoa(v), "must be greater than or equal to 0")
	}
}

// prefix is where an object sits in what is validated: alone, or as
// "deployment", "replicaSets[2]" or "pods[7]" of a snapshot. It is rendered
// only when an error is reported, so valid input allocates nothing for
// paths.
type prefix struct {
	list  string // "" when the object is validated alone
	index int    // -1 when list names a single object
}

// field returns the path of a field of the object, e.g.
// "replicaSets[2].spec.replicas".
func (p prefix) field(f string) string {
	switch {
	case p.list == "":
		return f
	case p.index < 0:
		return p.list + "." + f
	}
	return p.list + "[" + strconv.Itoa(p.index) + "]." + f
}

// nilPath names a nil object: its kind when validated alone ("deployment"),
// its place in a snapshot otherwise ("replicaSets[2]").
func (p prefix) nilPath(kind string) string {
	switch {
	case p.list == "":
		return kind
	case p.index < 0:
		return p.list
	}
	return p.list + "[" + strconv.Itoa(p.index) + "]"
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }
