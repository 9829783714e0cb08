package model

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestStatefulSetDeepCopyAndJSON(t *testing.T) {
	s := &StatefulSet{
		ObjectMeta: ObjectMeta{Name: "db", Namespace: "ns", ResourceVersion: "3", Annotations: map[string]string{"a": "b"}},
		Spec:       StatefulSetSpec{Template: PodTemplate{Labels: map[string]string{"app": "db"}, Annotations: map[string]string{"x": "y"}, Spec: `{"containers":[]}`}},
	}
	c := s.DeepCopy()
	if !reflect.DeepEqual(c, s) {
		t.Fatalf("copy %+v", c)
	}
	c.Annotations["a"] = "changed"
	c.Spec.Template.Labels["app"] = "changed"
	c.Spec.Template.Annotations["x"] = "changed"
	if s.Annotations["a"] != "b" || s.Spec.Template.Labels["app"] != "db" || s.Spec.Template.Annotations["x"] != "y" {
		t.Error("copy shares maps")
	}
	if (*StatefulSet)(nil).DeepCopy() != nil {
		t.Error("nil copy")
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back StatefulSet
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(&back, s) {
		t.Errorf("round trip %+v %v", back, err)
	}
}
