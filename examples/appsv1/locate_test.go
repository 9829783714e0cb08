package appsv1_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
)

// A validation error names the object it is about, as a person finds it in
// the input: by kind, namespace and name, or, for a pod without a name, by
// its generateName and UID. The index into the state stays beside it.
func TestSyncErrorsNameTheObject(t *testing.T) {
	// The first recorded case with ReplicaSets and pods.
	var c appsv1.Case
	for _, l := range readSeeds(t) {
		if err := json.Unmarshal(l.Case, &c); err != nil {
			t.Fatal(err)
		}
		if len(c.ReplicaSets) > 0 && len(c.Pods) > 0 {
			break
		}
	}
	if len(c.ReplicaSets) == 0 || len(c.Pods) == 0 {
		t.Fatal("no recorded case has both ReplicaSets and pods")
	}
	s := c.State()
	s.ReplicaSets = append(s.ReplicaSets[:0:0], s.ReplicaSets...)
	s.Pods = append(s.Pods[:0:0], s.Pods...)

	rs := s.ReplicaSets[len(s.ReplicaSets)-1].DeepCopy()
	bad := int32(-1)
	rs.Spec.Replicas = &bad
	s.ReplicaSets[len(s.ReplicaSets)-1] = rs

	pod := s.Pods[0].DeepCopy()
	pod.Name, pod.GenerateName, pod.UID = "", "web-", "p-uid"
	s.Pods[0] = pod

	_, _, err := appsv1.Sync(s)
	if !errors.Is(err, model.ErrInvalid) {
		t.Fatalf("Sync: %v, want a validation error", err)
	}
	var ve *model.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("%v is not a *model.ValidationError", err)
	}
	msg := err.Error()
	for _, want := range []string{
		"ReplicaSet " + rs.Namespace + "/" + rs.Name + " (replicaSets[",
		"]): spec.replicas: invalid value \"-1\"",
		"Pod " + pod.Namespace + `/<unnamed: generateName "web-", uid "p-uid"> (pods[0]): metadata.name`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not contain %q", msg, want)
		}
	}

	var cached appsv1.Syncer
	if _, _, err2 := cached.Sync(s); err2 == nil || err2.Error() != msg {
		t.Errorf("Syncer.Sync: %v, want %q", err2, msg)
	}
}

// Errors that name no object, and nil, pass through unchanged.
func TestLocateLeavesOtherErrors(t *testing.T) {
	var s appsv1.State
	if err := s.Locate(nil); err != nil {
		t.Errorf("Locate(nil) = %v", err)
	}
	plain := errors.New("boom")
	if err := s.Locate(plain); err != plain {
		t.Errorf("Locate(plain) = %v", err)
	}
	fe := &model.FieldError{Field: "deployment.spec.replicas", Value: "-1", Detail: "must be at least 0"}
	if err := s.Locate(fe); err != fe {
		t.Errorf("Locate(deployment field) = %v, want the same error", err)
	}
	out := s.Locate(&model.FieldError{Field: "pods[3].metadata.uid"})
	if got := out.(*model.FieldError).Field; got != "pods[3].metadata.uid" {
		t.Errorf("an index past the state's pods: %q, want unchanged", got)
	}
}
