package model_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/rolloutplan/rolloutplan/internal/casetest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// tc names a table case and says where its expected value comes from. Every
// table in this package embeds it; runCases refuses a case without a reason.
type tc struct {
	name string // subtest name
	why  string // one line: spec section/example or apps/v1 rule behind the expectation
}

func (c tc) info() tc { return c }

type namedCase interface{ info() tc }

// checkCases fails tb (Fatal) on a case without a name, without a reason, or
// with a duplicate name. It is split from runCases so that its refusal can be
// tested with a fake testing.TB.
func checkCases[C namedCase](tb casetest.TB, cases []C) {
	tb.Helper()
	casetest.Check(tb, cases, caseOf[C])
}

func caseOf[C namedCase](c C) casetest.Case {
	info := c.info()
	return casetest.Case{Name: info.name, Why: info.why}
}

// runCases checks the table and runs f for each case as a subtest.
func runCases[C namedCase](t *testing.T, cases []C, f func(t *testing.T, c C)) {
	t.Helper()
	casetest.Run(t, cases, caseOf[C], f)
}

// fatalRecorder is a testing.TB whose Fatal/Fatalf record the message and
// stop the caller (by panicking with errFatal), so a test can check that a
// helper refuses bad input.
type fatalRecorder struct {
	testing.TB
	msg string
}

var errFatal = errors.New("fatal called")

func (r *fatalRecorder) Helper() {}
func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	panic(errFatal)
}
func (r *fatalRecorder) Fatal(args ...any) { r.Fatalf("fatal") }

func callChecked[C namedCase](cases []C) (fataled bool, msg string) {
	r := &fatalRecorder{}
	defer func() {
		if p := recover(); p != nil {
			if p != errFatal {
				panic(p)
			}
			fataled, msg = true, r.msg
		}
	}()
	checkCases(r, cases)
	return false, ""
}

func TestCaseTableRefusesMissingReason(t *testing.T) {
	type c struct{ tc }
	if fataled, _ := callChecked([]c{{tc{"ok", "the library contract: every case has a reason"}}}); fataled {
		t.Fatal("a case with a reason was refused")
	}
	if fataled, msg := callChecked([]c{{tc{"no reason", ""}}}); !fataled || !strings.Contains(msg, "no reason") {
		t.Fatalf("a case without a reason was accepted (fataled=%v msg=%q)", fataled, msg)
	}
	if fataled, _ := callChecked([]c{{tc{"blank reason", "   "}}}); !fataled {
		t.Fatal("a case with a blank reason was accepted")
	}
	if fataled, _ := callChecked([]c{{tc{"", "a reason"}}}); !fataled {
		t.Fatal("a case without a name was accepted")
	}
	if fataled, _ := callChecked([]c{{tc{"x", "r"}}, {tc{"x", "r"}}}); !fataled {
		t.Fatal("duplicate case names were accepted")
	}
}

// ---- fixtures ----

var t0 = time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)

func i32(v int32) *int32 { return &v }

func ios(s string) *model.IntOrString { return model.IntOrStringPtr(model.FromString(s)) }
func ioi(i int32) *model.IntOrString  { return model.IntOrStringPtr(model.FromInt(i)) }

// validDeployment returns a defaulted, valid Deployment "web" selecting app=web.
func validDeployment() *model.Deployment {
	return &model.Deployment{
		ObjectMeta: model.ObjectMeta{
			Name: "web", Namespace: "default", UID: "uid-web", Generation: 1,
			CreationTimestamp: t0,
		},
		Spec: model.DeploymentSpec{
			Replicas: i32(3),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{
				Labels: map[string]string{"app": "web"},
				Spec:   `{"containers":[{"image":"nginx:1.25","name":"web"}]}`,
			},
			Strategy: model.Strategy{
				Type:          model.RollingUpdateStrategy,
				RollingUpdate: &model.RollingUpdate{MaxUnavailable: ios("25%"), MaxSurge: ios("25%")},
			},
			RevisionHistoryLimit:    i32(10),
			ProgressDeadlineSeconds: i32(600),
		},
	}
}

// validReplicaSet returns a valid ReplicaSet named name owned by "web".
func validReplicaSet(name, uid string, replicas int32) *model.ReplicaSet {
	return &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{
			Name: name, Namespace: "default", UID: uid, Generation: 1,
			CreationTimestamp: t0,
			Labels:            map[string]string{"app": "web", model.PodTemplateHashLabel: "abc"},
			OwnerReferences:   []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, "web", "uid-web")},
		},
		Spec: model.ReplicaSetSpec{
			Replicas: i32(replicas),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web", model.PodTemplateHashLabel: "abc"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web", model.PodTemplateHashLabel: "abc"}},
		},
		Status: model.ReplicaSetStatus{Replicas: replicas, ObservedGeneration: 1},
	}
}

// validPod returns a running, ready pod.
func validPod(name, uid string) *model.Pod {
	return &model.Pod{
		ObjectMeta: model.ObjectMeta{Name: name, Namespace: "default", UID: uid, CreationTimestamp: t0,
			Labels: map[string]string{"app": "web"}},
		Status: model.PodStatus{Phase: model.PodRunning,
			Conditions: []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: t0}}},
	}
}

// fieldsOf returns the Field of every entry of a *ValidationError, in order,
// failing t if err is not one (or does not satisfy the error contract).
func fieldsOf(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	if !errors.Is(err, model.ErrInvalid) {
		t.Errorf("errors.Is(err, model.ErrInvalid) = false for %v", err)
	}
	var ve *model.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("errors.As(*model.ValidationError) = false for %T %v", err, err)
	}
	var fe *model.FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("errors.As(*model.FieldError) = false for %v", err)
	}
	if len(ve.Errors) == 0 || fe != ve.Errors[0] {
		t.Errorf("errors.As(*FieldError) should give the first entry; got %v, entries %v", fe, ve.Errors)
	}
	out := make([]string, len(ve.Errors))
	for i, e := range ve.Errors {
		if e.Field == "" || e.Detail == "" {
			t.Errorf("entry %d has an empty Field or Detail: %+v", i, e)
		}
		if !strings.Contains(err.Error(), e.Field+": ") {
			t.Errorf("message %q does not name field %q", err.Error(), e.Field)
		}
		out[i] = e.Field
	}
	return out
}

// sameFields compares field lists as sets (order is the validator's business).
func sameFields(got, want []string) bool {
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	return slices.Equal(g, w)
}

// fataler is what both *testing.T and *rapid.T offer.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// snapshot is an independent record of a value, to tell whether something
// else changed it: encoding/json walks every map, slice and pointer.
func snapshot(t fataler, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return string(b)
}

// requireJSONRoundTrip fails t unless v marshals to JSON and back unchanged.
func requireJSONRoundTrip(t interface{ Fatalf(string, ...any) }, v model.IntOrString) {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %#v: %v", v, err)
	}
	var back model.IntOrString
	if err := json.Unmarshal(b, &back); err != nil || back != v {
		t.Fatalf("%#v -> %s -> %#v, %v", v, b, back, err)
	}
}
