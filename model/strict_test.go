package model_test

import (
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// Cheap strictness: what the API server would refuse, or what a planner
// would otherwise accept silently, is a validation error naming the field.
func TestStrictMeta(t *testing.T) {
	type c struct {
		tc
		edit func(d *model.Deployment, rs *model.ReplicaSet, p *model.Pod)
		want []string
	}
	runCases(t, []c{
		{tc{"deployment namespace empty", "every write of a sync lands in the Deployment's namespace"},
			func(d *model.Deployment, _ *model.ReplicaSet, _ *model.Pod) { d.Namespace = "" }, []string{"deployment.metadata.namespace"}},
		{tc{"deployment namespace syntax", "namespaces are DNS-1123 labels"},
			func(d *model.Deployment, _ *model.ReplicaSet, _ *model.Pod) { d.Namespace = "Bad NS/.." }, []string{"deployment.metadata.namespace"}},
		{tc{"deployment namespace length", "a DNS-1123 label has at most 63 characters"},
			func(d *model.Deployment, _ *model.ReplicaSet, _ *model.Pod) { d.Namespace = strings.Repeat("a", 64) }, []string{"deployment.metadata.namespace"}},
		{tc{"namespace of 63", "63 characters is the limit, inclusive"},
			func(d *model.Deployment, rs *model.ReplicaSet, p *model.Pod) {
				d.Namespace, rs.Namespace, p.Namespace = strings.Repeat("a", 63), strings.Repeat("a", 63), strings.Repeat("a", 63)
			}, nil},
		{tc{"replicaset namespace empty is allowed", "an object of another namespace (the empty one too) is ignored, not refused"},
			func(_ *model.Deployment, rs *model.ReplicaSet, _ *model.Pod) { rs.Namespace = "" }, nil},
		{tc{"replicaset namespace syntax", "a set namespace must be a DNS-1123 label"},
			func(_ *model.Deployment, rs *model.ReplicaSet, _ *model.Pod) { rs.Namespace = "Prod" }, []string{"replicaSets[0].metadata.namespace"}},
		{tc{"pod namespace syntax", "a set namespace must be a DNS-1123 label"},
			func(_ *model.Deployment, _ *model.ReplicaSet, p *model.Pod) { p.Namespace = "a_b" }, []string{"pods[0].metadata.namespace"}},
		{tc{"uid too long", "UIDs are 36-character UUIDs; 128 is the limit"},
			func(d *model.Deployment, _ *model.ReplicaSet, _ *model.Pod) { d.UID = strings.Repeat("u", 10000) }, []string{"deployment.metadata.uid"}},
		{tc{"uid of 128", "128 is the limit, inclusive"},
			func(d *model.Deployment, _ *model.ReplicaSet, _ *model.Pod) { d.UID = strings.Repeat("u", 128) }, nil},
		{tc{"uid with space", "UIDs are printable ASCII without spaces"},
			func(_ *model.Deployment, rs *model.ReplicaSet, _ *model.Pod) { rs.UID = "a b" }, []string{"replicaSets[0].metadata.uid"}},
		{tc{"pod uid control character", "UIDs are printable ASCII without spaces"},
			func(_ *model.Deployment, _ *model.ReplicaSet, p *model.Pod) { p.UID = "a\x00" }, []string{"pods[0].metadata.uid"}},
		{tc{"template annotation key", "annotation keys are qualified names (ValidateAnnotations)"},
			func(d *model.Deployment, _ *model.ReplicaSet, _ *model.Pod) {
				d.Spec.Template.Annotations = map[string]string{"ok.example/fine": "x", "bad key": "x", "/x": "y"}
			}, []string{"deployment.spec.template.metadata.annotations", "deployment.spec.template.metadata.annotations"}},
		{tc{"upper-case annotation key", "the API server lower-cases annotation keys before checking them"},
			func(d *model.Deployment, _ *model.ReplicaSet, _ *model.Pod) {
				d.Spec.Template.Annotations = map[string]string{"Example.COM/Key": "x"}
			}, nil},
	}, func(t *testing.T, c c) {
		d := validDeployment()
		rs := validReplicaSet("web-1", "uid-rs", 1)
		p := validPod("web-1-a", "uid-pod")
		c.edit(d, rs, p)
		got := fieldsOf(t, model.Validate(d, []*model.ReplicaSet{rs}, []*model.Pod{p}))
		if !sameFields(got, c.want) {
			t.Fatalf("failing fields %q, want %q", got, c.want)
		}
	})
}

// A long bad value is cut in the message, with its length.
func TestLongValueCutInMessage(t *testing.T) {
	d := validDeployment()
	d.UID = strings.Repeat("é", 5000) // 10000 bytes
	err := model.ValidateDeployment(d)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if len(msg) > 400 || !strings.Contains(msg, "… (10000 bytes)") {
		t.Fatalf("message of %d bytes: %.300s", len(msg), msg)
	}
	var fe *model.FieldError
	if !errorsAsField(err, &fe) || len(fe.Value) != 10000 {
		t.Fatal("the FieldError keeps the whole value")
	}
}

func errorsAsField(err error, target **model.FieldError) bool {
	ve, ok := err.(*model.ValidationError)
	if !ok || len(ve.Errors) == 0 {
		return false
	}
	*target = ve.Errors[0]
	return true
}

// CanonicalJSON says where a repeated key or a byte that is not UTF-8 is.
func TestCanonicalJSONSaysWhere(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":1,"a":2}`, `invalid JSON: duplicate key "a" at offset 7`},
		{`{"x":{"b":1, "b":2}}`, `invalid JSON: duplicate key "b" at offset 13`},
		{"{\"a\":\"ok\",\"b\":\"\xff\"}", `invalid JSON: invalid UTF-8 at offset 15`},
		{`{"a":1,"\u0061":2}`, `invalid JSON: duplicate key "a" at offset 7`},
		{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"ka":0,"kb":0,"kc":0,"kd":0,"ke":0,"kf":0,"kg":0,"k3":0}`, `invalid JSON: duplicate key "k3" at offset 120`},
	} {
		_, err := model.CanonicalJSON([]byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("CanonicalJSON(%q) error %v, want %s", c.in, err, c.want)
		}
	}
}
