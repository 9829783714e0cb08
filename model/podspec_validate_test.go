package model_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
)

// errorsOf returns "field: detail" of every field error of err.
func errorsOf(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *model.ValidationError
	require.True(t, errors.As(err, &ve), "%T %v", err, err)
	var out []string
	for _, fe := range ve.Errors {
		out = append(out, fe.Field+": "+fe.Detail)
	}
	return out
}

// TestValidatePodTemplateSpec checks the pod spec rules on a Deployment's
// template, in both forms a Spec takes (the template as the apps/v1 adapter
// writes it, and the bare pod spec). Source: upstream validateContainers,
// validateInitContainers, validateContainerCommon (container names are
// DNS-1123 labels, unique among containers and init containers; image
// required) and ValidatePodTemplateSpecForReplicaSet (restartPolicy Always);
// each case's verdict was also the v1.36.3 API server's in
// examples/controller/e2e TestValidationAgreesWithServer.
func TestValidatePodTemplateSpec(t *testing.T) {
	const cs = "deployment.spec.template.spec.containers"
	cases := []struct {
		name, podSpec string
		want          []string
	}{
		{"one container", `{"containers":[{"image":"nginx","name":"web"}]}`, nil},
		{"two containers and an init container", `{"containers":[{"image":"a","name":"a"},{"image":"b","name":"b"}],"initContainers":[{"image":"i","name":"init"}]}`, nil},
		{"restartPolicy Always", `{"containers":[{"image":"a","name":"a"}],"restartPolicy":"Always"}`, nil},
		{"restartPolicy empty (defaulted to Always)", `{"containers":[{"image":"a","name":"a"}],"restartPolicy":""}`, nil},
		{"white space image (allowed in templates)", `{"containers":[{"image":" ","name":"a"}]}`, nil},
		{"63-character name", `{"containers":[{"image":"a","name":"` + strings.Repeat("c", 63) + `"}]}`, nil},
		{"escaped name", `{"containers":[{"image":"a","name":"w\u0065b"}]}`, nil},
		{"white space between tokens", ` { "containers" : [ { "name" : "a" , "image" : "a" } ] , "x" : [ 1 , { } ] } `, nil},
		{"no containers", `{}`, []string{cs + ": Required value"}},
		{"empty containers", `{"containers":[]}`, []string{cs + ": Required value"}},
		{"null containers", `{"containers":null}`, []string{cs + ": Required value"}},
		{"only init containers", `{"initContainers":[{"image":"i","name":"i"}]}`, []string{cs + ": Required value"}},
		{"restartPolicy Never", `{"containers":[{"image":"a","name":"a"}],"restartPolicy":"Never"}`,
			[]string{"deployment.spec.template.spec.restartPolicy: supported values: \"Always\""}},
		{"restartPolicy OnFailure", `{"containers":[{"image":"a","name":"a"}],"restartPolicy":"OnFailure"}`,
			[]string{"deployment.spec.template.spec.restartPolicy: supported values: \"Always\""}},
		{"blank image", `{"containers":[{"image":"","name":"a"}]}`, []string{cs + "[0].image: Required value"}},
		{"no image", `{"containers":[{"name":"a"}]}`, []string{cs + "[0].image: Required value"}},
		{"no name", `{"containers":[{"image":"a"}]}`, []string{cs + "[0].name: Required value"}},
		{"upper case name", `{"containers":[{"image":"a","name":"Web"}]}`,
			[]string{cs + "[0].name: must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"}},
		{"dotted name", `{"containers":[{"image":"a","name":"web.1"}]}`,
			[]string{cs + "[0].name: must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"}},
		{"64-character name", `{"containers":[{"image":"a","name":"` + strings.Repeat("c", 64) + `"}]}`,
			[]string{cs + "[0].name: must be no more than 63 characters"}},
		{"duplicate names", `{"containers":[{"image":"a","name":"a"},{"image":"b","name":"a"}]}`, []string{cs + "[1].name: Duplicate value"}},
		{"init container named as a container", `{"containers":[{"image":"a","name":"a"}],"initContainers":[{"image":"i","name":"a"}]}`,
			[]string{"deployment.spec.template.spec.initContainers[0].name: Duplicate value"}},
		{"init container without image", `{"containers":[{"image":"a","name":"a"}],"initContainers":[{"name":"i"}]}`,
			[]string{"deployment.spec.template.spec.initContainers[0].image: Required value"}},
		{"every container checked", `{"containers":[{"name":"a"},{"image":"b"},{"image":"c","name":"-c"}]}`, []string{
			cs + "[0].image: Required value", cs + "[1].name: Required value",
			cs + "[2].name: must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, form := range []struct{ name, spec string }{
				{"pod spec", c.podSpec},
				{"template", `{"metadata":{},"spec":` + c.podSpec + `}`},
			} {
				d := validDeployment()
				d.Spec.Template.Spec = form.spec
				got := errorsOf(t, model.Validate(d, nil, nil))
				assert.Equal(t, c.want, got, "%s form: %s", form.name, form.spec)
			}
		})
	}
}

// TestValidateOpaqueTemplateSpec: a Spec that is not a JSON object is the
// embedder's own encoding and is not read.
func TestValidateOpaqueTemplateSpec(t *testing.T) {
	for _, spec := range []string{"", "v1", "image: web:1", `["containers"]`, `"{}"`, `{"containers":[`, `{"containers":[{"name":"a"}]`, `{"spec":"x"}`, `{"containers":{}}`} {
		d := validDeployment()
		d.Spec.Template.Spec = spec
		assert.NoError(t, model.ValidateDeployment(d), "Spec %q", spec)
	}
}

// TestValidateTemplatesOfEveryWorkload: the rules apply to the templates of
// ReplicaSets, StatefulSets and DaemonSets as to Deployments' (upstream's
// ValidatePodTemplateSpecForReplicaSet, ValidateStatefulSetSpec,
// ValidateDaemonSetSpec), and to a pod's spec with the pod's restart
// policies and its stricter image rule (upstream ValidatePodSpec and
// validateContainersOnlyForPod).
func TestValidateTemplatesOfEveryWorkload(t *testing.T) {
	const never = `{"containers":[{"image":"a","name":"a"}],"restartPolicy":"Never"}`
	rs := validReplicaSet("web-abc", "uid-rs", 1)
	rs.Spec.Template.Spec = `{"spec":{}}`
	assert.Equal(t, []string{"spec.template.spec.containers: Required value"}, errorsOf(t, model.ValidateReplicaSet(rs)))
	rs.Spec.Template.Spec = never
	assert.Equal(t, []string{`spec.template.spec.restartPolicy: supported values: "Always"`}, errorsOf(t, model.ValidateReplicaSet(rs)))

	p := validPod("web-abc-x", "pod-uid")
	p.Spec.Body = never
	assert.NoError(t, model.ValidatePod(p), "a pod may have restartPolicy Never")
	p.Spec.Body = `{"containers":[{"image":"a","name":"a"}],"restartPolicy":"Sometimes"}`
	assert.Equal(t, []string{`spec.restartPolicy: supported values: "Always", "OnFailure", "Never"`}, errorsOf(t, model.ValidatePod(p)))
	p.Spec.Body = `{"containers":[{"image":" nginx","name":"a"}]}`
	assert.Equal(t, []string{"spec.containers[0].image: must not have leading or trailing whitespace"}, errorsOf(t, model.ValidatePod(p)))
	p.Spec.Body = `{"spec":{"containers":[]}}`
	assert.Equal(t, []string{"spec.containers: Required value"}, errorsOf(t, model.ValidatePod(p)), "a body copied from a template")

	ss := validSet()
	ss.Spec.Template.Spec = `{"spec":{"containers":[{"image":"a","name":"A"}]}}`
	require.Error(t, model.ValidateStatefulSet(ss))
	assert.Contains(t, model.ValidateStatefulSet(ss).Error(), "spec.template.spec.containers[0].name")

	ds := validDaemonSet()
	ds.Spec.Template.Spec = never
	assert.Equal(t, []string{`spec.template.spec.restartPolicy: supported values: "Always"`}, errorsOf(t, model.ValidateDaemonSet(ds)))
}

// TestValidateObjectMetaRules: pod names are DNS-1123 subdomains (upstream
// ValidatePodName), owner references name their version, kind, name and UID,
// and at most one is the controller (upstream ValidateOwnerReferences).
func TestValidateObjectMetaRules(t *testing.T) {
	p := validPod("BAD NAME!", "pod-uid")
	assert.Equal(t, []string{"metadata.name: must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"},
		errorsOf(t, model.ValidatePod(p)))

	rs := validReplicaSet("web-abc", "uid-rs", 1)
	rs.OwnerReferences = append(rs.OwnerReferences, model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, "other", "uid-other"))
	assert.Equal(t, []string{`metadata.ownerReferences: Only one reference can have Controller set to true. Found "true" in references for Deployment/web and Deployment/other`}, errorsOf(t, model.ValidateReplicaSet(rs)))
	rs.OwnerReferences[1].Controller = false
	assert.NoError(t, model.ValidateReplicaSet(rs), "one controller and one other owner")

	for _, c := range []struct {
		edit func(r *model.OwnerReference)
		want string
	}{
		{func(r *model.OwnerReference) { r.APIVersion = "" }, "metadata.ownerReferences[0].apiVersion: version must not be empty"},
		{func(r *model.OwnerReference) { r.APIVersion = "apps/" }, "metadata.ownerReferences[0].apiVersion: version must not be empty"},
		{func(r *model.OwnerReference) { r.APIVersion = "a/b/v1" }, "metadata.ownerReferences[0].apiVersion: version must not be empty"},
		{func(r *model.OwnerReference) { r.Kind = "" }, "metadata.ownerReferences[0].kind: must not be empty"},
		{func(r *model.OwnerReference) { r.Name = "" }, "metadata.ownerReferences[0].name: must not be empty"},
		{func(r *model.OwnerReference) { r.UID = "" }, "metadata.ownerReferences[0].uid: must not be empty"},
	} {
		p := validPod("web-abc-x", "pod-uid")
		p.OwnerReferences = []model.OwnerReference{model.NewControllerRef("v1", "ReplicaSet", "web-abc", "uid-rs")}
		require.NoError(t, model.ValidatePod(p))
		c.edit(&p.OwnerReferences[0])
		assert.Equal(t, []string{c.want}, errorsOf(t, model.ValidatePod(p)))
	}
}

// TestValidateReplicaSetSelectorRules: upstream ValidateReplicaSetSpec
// refuses an empty selector and one that does not select the template's
// labels.
func TestValidateReplicaSetSelectorRules(t *testing.T) {
	rs := validReplicaSet("web-abc", "uid-rs", 1)
	rs.Spec.Template.Labels = map[string]string{"app": "other"}
	assert.Equal(t, []string{"spec.template.metadata.labels: `selector` does not match template `labels`"}, errorsOf(t, model.ValidateReplicaSet(rs)))
	rs.Spec.Selector = &model.LabelSelector{}
	assert.Equal(t, []string{"spec.selector: empty selector is invalid for deployment"}, errorsOf(t, model.ValidateReplicaSet(rs)))
}

// TestValidateOwnerReferenceEdges: upstream ValidateOwnerReferences reports
// every controller reference after the first, naming the first, and
// refuses a core v1 Event as an owner (BannedOwners).
func TestValidateOwnerReferenceEdges(t *testing.T) {
	p := validPod("web-abc-x", "pod-uid")
	for _, name := range []string{"a", "b", "c"} {
		p.OwnerReferences = append(p.OwnerReferences, model.NewControllerRef(model.AppsV1APIVersion, model.ReplicaSetKind, name, "uid-"+name))
	}
	assert.Equal(t, []string{
		`metadata.ownerReferences: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b`,
		`metadata.ownerReferences: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/c`,
	}, errorsOf(t, model.ValidatePod(p)))

	p.OwnerReferences = []model.OwnerReference{{APIVersion: "v1", Kind: "Event", Name: "e", UID: "uid-e"}}
	assert.Equal(t, []string{"metadata.ownerReferences[0]: an Event is disallowed from being an owner"}, errorsOf(t, model.ValidatePod(p)))
	p.OwnerReferences[0].APIVersion = "events.k8s.io/v1"
	assert.NoError(t, model.ValidatePod(p), "only the core group's Event is banned")
}

// TestValidatePodSpecDocuments: the standalone checks name fields within
// the template or pod, and apply the template's or the pod's restart
// policy and image rules (the rules of TestValidatePodTemplateSpec).
func TestValidatePodSpecDocuments(t *testing.T) {
	const never = `{"metadata":{},"spec":{"containers":[{"image":" a","name":"a"}],"restartPolicy":"Never"}}`
	assert.Equal(t, []string{`spec.restartPolicy: supported values: "Always"`}, errorsOf(t, model.ValidateTemplatePodSpec(never)))
	assert.Equal(t, []string{"spec.containers[0].image: must not have leading or trailing whitespace"}, errorsOf(t, model.ValidatePodBody(never)))
	assert.Equal(t, []string{"spec.containers: Required value"}, errorsOf(t, model.ValidateTemplatePodSpec(`{"spec":{}}`)))
	for _, opaque := range []string{"", "v1", `{"containers":[`} {
		assert.NoError(t, model.ValidateTemplatePodSpec(opaque), "%q", opaque)
		assert.NoError(t, model.ValidatePodBody(opaque), "%q", opaque)
	}
}

// TestPodSpecsValidated: the option leaves out the pod spec rules of every
// snapshot validation, and only them.
func TestPodSpecsValidated(t *testing.T) {
	const bad = `{"spec":{"containers":[]}}`
	podSpecFields := func(err error) (podSpec, other int) {
		for _, f := range fieldsOf(t, err) {
			if strings.Contains(f, "spec.containers") {
				podSpec++
			} else {
				other++
			}
		}
		return podSpec, other
	}
	check := func(name string, validate func(...model.ValidateOption) error, wantPodSpec int) {
		t.Helper()
		ps, other := podSpecFields(validate())
		assert.Equal(t, wantPodSpec, ps, "%s: pod spec errors without the option", name)
		assert.Equal(t, 1, other, "%s: other errors without the option", name)
		ps, other = podSpecFields(validate(model.PodSpecsValidated))
		assert.Equal(t, 0, ps, "%s: pod spec errors with PodSpecsValidated", name)
		assert.Equal(t, 1, other, "%s: other errors with PodSpecsValidated", name)
	}

	d := validDeployment()
	d.Spec.Template.Spec = bad
	d.Spec.MinReadySeconds = -1
	rs := validReplicaSet("web-abc", "uid-rs", 1)
	rs.Spec.Template.Spec = bad
	p := validPod("web-abc-x", "pod-uid")
	p.Spec.Body = bad
	check("Validate", func(o ...model.ValidateOption) error {
		return model.Validate(d, []*model.ReplicaSet{rs}, []*model.Pod{p}, o...)
	}, 3)

	ss := validSet()
	ss.Spec.Template.Spec = bad
	ss.Spec.MinReadySeconds = -1
	check("ValidateStatefulSetSnapshot", func(o ...model.ValidateOption) error {
		return model.ValidateStatefulSetSnapshot(ss, []*model.Pod{p}, nil, nil, o...)
	}, 2)

	ds := validDaemonSet()
	ds.Spec.Template.Spec = bad
	ds.Spec.MinReadySeconds = -1
	check("ValidateDaemonSetSnapshot", func(o ...model.ValidateOption) error {
		return model.ValidateDaemonSetSnapshot(ds, nil, []*model.Pod{p}, nil, o...)
	}, 2)
}

// TestValidateStatefulSetName: a StatefulSet's name is a DNS-1123 label,
// not just a subdomain (upstream ValidateStatefulSetName); kube-apiserver
// v1.36.3 refused a 253-character name the model accepted before
// (examples/controller/e2e TestValidationAgreesWithServer).
func TestValidateStatefulSetName(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"web", ""},
		{strings.Repeat("a", 63), ""},
		{strings.Repeat("a", 64), "metadata.name: must be no more than 63 characters"},
		{"web.prod", "metadata.name: must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"},
		{"Web", "metadata.name: must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"},
	} {
		s := validSet()
		s.Name = c.name
		var want []string
		if c.want != "" {
			want = []string{c.want}
		}
		assert.Equal(t, want, errorsOf(t, model.ValidateStatefulSet(s)), "name %q", c.name)
	}
}

// TestReplicaSetsAndPodsValidated: the option leaves out the rules of each
// ReplicaSet and pod, and only them: the Deployment is checked as without
// it, nil objects and duplicate names and UIDs are still reported.
func TestReplicaSetsAndPodsValidated(t *testing.T) {
	d := validDeployment()
	d.Spec.MinReadySeconds = -1
	rs := validReplicaSet("web-abc", "uid-rs", 1)
	rs.Spec.Template.Spec = `{"spec":{"containers":[]}}`
	rs.Status.Replicas = -1
	p := validPod("BAD NAME", "pod-uid")
	twin := validPod("BAD NAME", "pod-uid-2")
	pods := []*model.Pod{p, twin, nil}
	rss := []*model.ReplicaSet{rs, nil}

	require.Equal(t, []string{
		"deployment.spec.minReadySeconds",
		"replicaSets[0].spec.template.spec.containers",
		"replicaSets[0].status.replicas",
		"replicaSets[1]",
		"pods[0].metadata.name",
		"pods[1].metadata.name",
		"pods[2]",
		"pods[1].metadata.name", // the duplicate name, reported after the objects
	}, fieldsOf(t, model.Validate(d, rss, pods)))
	require.Equal(t, []string{
		"deployment.spec.minReadySeconds",
		"replicaSets[1]",
		"pods[2]",
		"pods[1].metadata.name",
	}, fieldsOf(t, model.Validate(d, rss, pods, model.ReplicaSetsAndPodsValidated)))
	// The Deployment's template is still checked unless PodSpecsValidated
	// says so too.
	d = validDeployment()
	d.Spec.Template.Spec = `{"spec":{"containers":[]}}`
	require.Equal(t, []string{"deployment.spec.template.spec.containers"},
		fieldsOf(t, model.Validate(d, nil, nil, model.ReplicaSetsAndPodsValidated)))
	require.NoError(t, model.Validate(d, nil, nil, model.ReplicaSetsAndPodsValidated, model.PodSpecsValidated))
}
