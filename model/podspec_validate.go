package model

import (
	"strconv"
	"strings"
)

// The pod spec rules the API server applies to every pod template and pod
// (upstream's validateContainers, validateInitContainers and
// validateContainerCommon; for pods validateContainersOnlyForPod and the
// pod restart policies; for workload templates the restart policy rule of
// ValidatePodTemplateSpecForReplicaSet and its StatefulSet and DaemonSet
// counterparts), checked on [PodTemplate.Spec] and [PodSpec.Body] when they
// are JSON objects.
//
// A template's Spec is the template without its labels and annotations
// ({"metadata":…,"spec":{pod spec}}, as the apps/v1 adapter writes it) or
// the pod spec itself; a pod spec has no member "spec", so the two cannot
// be confused. A pod's Body is read the same way. A document that is not a
// JSON object (empty, or an embedder's own encoding) stays opaque and is
// not checked.
//
// Reading the document is most of a validation's cost. A caller that sees
// each object version once (as an apps/v1 adapter's conversion cache does)
// checks the documents then, with [ValidateTemplatePodSpec] and
// [ValidatePodBody], and tells the snapshot validations (and, through their
// PodSpecsValidated options, the planners) with [PodSpecsValidated] that
// they need not read them again.

// ValidateOption adjusts the snapshot validations [Validate],
// [ValidateStatefulSetSnapshot] and [ValidateDaemonSetSnapshot]. Without
// options they apply every rule.
type ValidateOption int

// PodSpecsValidated is the caller's word that every template Spec of the
// snapshot passes [ValidateTemplatePodSpec] and every pod Body passes
// [ValidatePodBody]: the validation then does not read those documents
// again, and applies every other rule as without it. It is for a caller that
// checks each object once per version; given for a snapshot whose
// documents were not checked, it lets invalid templates through to the
// planner.
const PodSpecsValidated ValidateOption = 1

// ReplicaSetsAndPodsValidated is the caller's word that every ReplicaSet of
// the snapshot passes [ValidateReplicaSet] and every pod [ValidatePod], pod
// spec rules included: [Validate] then checks of them only that none is
// nil and that no two share a name or a UID, and checks the Deployment as
// without it. It is for a caller that validates each object once per
// version (an informer-fed controller, whose snapshots hold the same
// hundreds of objects sync after sync); given for objects that were not
// checked, it lets them through to the planner.
const ReplicaSetsAndPodsValidated ValidateOption = 2

// hasOption reports whether opts holds o.
func hasOption(opts []ValidateOption, o ValidateOption) bool {
	for _, x := range opts {
		if x == o {
			return true
		}
	}
	return false
}

// podSpecCheck applies the pod spec rules within one validation. It reads
// each distinct document once: a snapshot's ReplicaSets mostly hold their
// Deployment's template, and its pods their ReplicaSet's body, so a
// document equal to one that passed earlier in the same validation passes
// again without being read. It lives as long as the validation (nothing is
// kept between calls).
type podSpecCheck struct {
	passed [2][passedSpecs]string // by podSpecKind, filled in turn
	next   [2]int
}

// passedSpecs is how many documents of each kind podSpecCheck remembers.
const passedSpecs = 4

// newPodSpecCheck returns the check a snapshot validation with opts
// applies: nil, which applies nothing, under [PodSpecsValidated].
func newPodSpecCheck(opts []ValidateOption) *podSpecCheck {
	if hasOption(opts, PodSpecsValidated) {
		return nil
	}
	return new(podSpecCheck)
}

// check applies the rules to doc, whose pod spec is at path (see
// validatePodSpecDoc), unless c is nil or doc passed before.
func (c *podSpecCheck) check(errs *fieldErrs, at prefix, path, doc string, kind podSpecKind) {
	if c == nil || doc == "" {
		return
	}
	for _, d := range &c.passed[kind] {
		if d == doc {
			return
		}
	}
	before := len(errs.list)
	validatePodSpecDoc(errs, at, path, doc, kind)
	if len(errs.list) == before {
		c.passed[kind][c.next[kind]] = doc
		c.next[kind] = (c.next[kind] + 1) % passedSpecs
	}
}

// ValidateTemplatePodSpec checks the pod spec a workload template's Spec
// holds (a Deployment's, ReplicaSet's, StatefulSet's or DaemonSet's
// [PodTemplate.Spec]) with the API server's rules: at least one container;
// container and init container names set, DNS-1123 labels and unique among
// both lists; every image set; restartPolicy Always (or unset, which the
// server defaults to Always). Fields are named within the template
// ("spec.containers[0].image"). A Spec that is not a JSON object is not
// read and passes. It returns nil or a *[ValidationError].
func ValidateTemplatePodSpec(spec string) error {
	var errs fieldErrs
	validatePodSpecDoc(&errs, prefix{index: -1}, "spec", spec, workloadTemplate)
	return errs.err()
}

// ValidatePodBody checks a pod's [PodSpec.Body] with the rules of
// [ValidateTemplatePodSpec], except that restartPolicy may also be
// OnFailure or Never, and that images must not start or end with white
// space (the API server allows that in templates only). Fields are named
// within the pod ("spec.containers[0].image"). A Body that is not a JSON
// object is not read and passes. It returns nil or a *[ValidationError].
func ValidatePodBody(body string) error {
	var errs fieldErrs
	validatePodSpecDoc(&errs, prefix{index: -1}, "spec", body, podBody)
	return errs.err()
}

// podSpecKind tells which rules apply to a pod spec.
type podSpecKind int

const (
	// workloadTemplate is the template of a Deployment, ReplicaSet,
	// StatefulSet or DaemonSet: restartPolicy must be Always.
	workloadTemplate podSpecKind = iota
	// podBody is a pod's own spec: any supported restartPolicy, and
	// images without leading or trailing white space.
	podBody
)

// maxInlineNames is how many container names are kept for the duplicate
// check without allocating.
const maxInlineNames = 16

// validatePodSpecDoc checks doc, a template's Spec or a pod's Body, whose
// pod spec is at path ("spec.template.spec" for a Deployment's template,
// "spec" for a pod).
func validatePodSpecDoc(errs *fieldErrs, at prefix, path, doc string, kind podSpecKind) {
	i := skipSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return
	}
	// The template form: its pod spec is the member "spec".
	start := i
	it := members{doc: doc, i: i}
	for key, v := range it.all() {
		if strValue(doc, key) == "spec" {
			if doc[v] != '{' {
				return
			}
			start = v
			it.ok = true // what follows the pod spec is not read
			break
		}
	}
	if !it.ok {
		return
	}
	// Read the pod spec once. Its errors are kept apart until the walk
	// ends: a spec that cannot be walked is opaque, and reports nothing.
	var local fieldErrs
	var restartPolicy jsonStr
	var buf [maxInlineNames]jsonStr
	names, n := buf[:0], 0
	initContainers := -1
	spec := members{doc: doc, i: start}
	for key, v := range spec.all() {
		switch strValue(doc, key) {
		case "containers":
			var end int
			names, n, end = checkContainers(&local, at, path, kind, "containers", doc, v, names)
			if end < 0 {
				return
			}
			spec.next = end
		case "initContainers":
			// Checked once the regular containers' names are known.
			initContainers = v
		case "restartPolicy":
			restartPolicy = stringAt(doc, v)
		}
	}
	if !spec.ok {
		return
	}
	if initContainers >= 0 {
		if _, _, end := checkContainers(&local, at, path, kind, "initContainers", doc, initContainers, names); end < 0 {
			return
		}
	}
	if n == 0 {
		errs.add(at.field(path+".containers"), "", "Required value")
	}
	errs.list = append(errs.list, local.list...)
	if restartPolicy.set() {
		rp := strValue(doc, restartPolicy)
		switch {
		case rp == "" || rp == "Always":
			// "" is defaulted to Always by the API server.
		case kind == workloadTemplate:
			errs.add(at.field(path+".restartPolicy"), rp, `supported values: "Always"`)
		case rp != "OnFailure" && rp != "Never":
			errs.add(at.field(path+".restartPolicy"), rp, `supported values: "Always", "OnFailure", "Never"`)
		}
	}
}

// checkContainers checks the containers of the list at doc[v]: names
// required, DNS-1123 labels, unique among the list and seen (the regular
// containers' names, for init containers); images required and, for a pod,
// without leading or trailing white space. It returns seen with the list's
// names appended, how many containers the list holds, and the index just
// past the list, or -1 when the list is neither null nor an array of
// objects that can be walked.
func checkContainers(errs *fieldErrs, at prefix, path string, kind podSpecKind, list, doc string, v int, seen []jsonStr) ([]jsonStr, int, int) {
	if strings.HasPrefix(doc[v:], "null") {
		return seen, 0, v + len("null")
	}
	if doc[v] != '[' {
		return seen, 0, -1
	}
	field := func(i int, f string) string {
		return at.field(path + "." + list + "[" + strconv.Itoa(i) + "]." + f)
	}
	arr := elements{doc: doc, i: v}
	n := 0
	for e := range arr.all() {
		if doc[e] != '{' {
			return seen, 0, -1
		}
		var name, image jsonStr
		m := members{doc: doc, i: e}
		for key, val := range m.all() {
			switch strValue(doc, key) {
			case "name":
				name = stringAt(doc, val)
			case "image":
				image = stringAt(doc, val)
			}
		}
		if !m.ok {
			return seen, 0, -1
		}
		arr.next = m.end
		nameText := strValue(doc, name)
		switch {
		case nameText == "":
			errs.add(field(n, "name"), "", "Required value")
		case checkDNSLabel(nameText) != "":
			errs.add(field(n, "name"), nameText, "%s", checkDNSLabel(nameText))
		case duplicateName(doc, nameText, seen):
			errs.add(field(n, "name"), nameText, "Duplicate value")
		}
		if nameText != "" {
			seen = append(seen, name)
		}
		img := strValue(doc, image)
		switch {
		case img == "":
			errs.add(field(n, "image"), "", "Required value")
		case kind == podBody && strings.TrimSpace(img) != img:
			errs.add(field(n, "image"), img, "must not have leading or trailing whitespace")
		}
		n++
	}
	if !arr.ok {
		return seen, 0, -1
	}
	return seen, n, arr.end
}

// duplicateName reports whether name is among the set names of seen.
func duplicateName(doc, name string, seen []jsonStr) bool {
	for _, o := range seen {
		if o.set() && strValue(doc, o) == name {
			return true
		}
	}
	return false
}
