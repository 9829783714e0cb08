package model_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
)

// ---- generators ----

var (
	// anyStr is any short UTF-8 string, for fields the model never interprets.
	anyStr = rapid.StringN(0, 6, -1)
	// labelName is a valid qualified-name name part / non-empty label value.
	labelName = rapid.StringMatching(`[a-zA-Z0-9]([-a-zA-Z0-9_.]{0,14}[a-zA-Z0-9])?`)
	// labelKey is a valid label key, sometimes with a DNS subdomain prefix.
	labelKey = rapid.Custom(func(t *rapid.T) string {
		prefix := rapid.SampledFrom([]string{"", "", "example.com/", "app.kubernetes.io/", "a-1.b2/"}).Draw(t, "prefix")
		return prefix + labelName.Draw(t, "name")
	})
	labelValue = rapid.OneOf(rapid.Just(""), labelName)
	// validLabels is nil, empty or a map of valid labels.
	validLabels = rapid.OneOf(
		rapid.Just(map[string]string(nil)),
		rapid.MapOfN(labelKey, labelValue, 0, 5),
	)
	// anyLabels is nil, empty or a map of arbitrary strings.
	anyLabels = rapid.OneOf(
		rapid.Just(map[string]string(nil)),
		rapid.MapOfN(anyStr, anyStr, 0, 5),
	)
	anyTime = rapid.Custom(func(t *rapid.T) time.Time {
		if rapid.Bool().Draw(t, "zero") {
			return time.Time{}
		}
		return t0.Add(time.Duration(rapid.Int64Range(-1e15, 1e15).Draw(t, "offset")))
	})
	anyIntOrString = rapid.Custom(func(t *rapid.T) model.IntOrString {
		return model.IntOrString{
			Type:   rapid.SampledFrom([]model.IntOrStringType{model.Int, model.String}).Draw(t, "type"),
			IntVal: rapid.Int32().Draw(t, "int"),
			StrVal: rapid.SampledFrom([]string{"", "25%", "0%", "x"}).Draw(t, "str"),
		}
	})
	anyStrings = rapid.OneOf(rapid.Just([]string(nil)), rapid.SliceOfN(anyStr, 0, 3))
)

func anySelector(t *rapid.T, label string) *model.LabelSelector {
	if rapid.IntRange(0, 4).Draw(t, label+".nil") == 0 {
		return nil
	}
	s := &model.LabelSelector{MatchLabels: anyLabels.Draw(t, label+".matchLabels")}
	if rapid.Bool().Draw(t, label+".hasExpr") {
		s.MatchExpressions = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) model.LabelSelectorRequirement {
			return model.LabelSelectorRequirement{
				Key:      anyStr.Draw(t, "key"),
				Operator: rapid.SampledFrom([]model.SelectorOperator{model.SelectorOpIn, model.SelectorOpNotIn, model.SelectorOpExists, model.SelectorOpDoesNotExist, "Bogus"}).Draw(t, "op"),
				Values:   anyStrings.Draw(t, "values"),
			}
		}), 0, 3).Draw(t, label+".matchExpressions")
	}
	return s
}

func anyMeta(t *rapid.T) model.ObjectMeta {
	m := model.ObjectMeta{
		Name: anyStr.Draw(t, "name"), Namespace: anyStr.Draw(t, "namespace"), UID: anyStr.Draw(t, "uid"),
		ResourceVersion:   anyStr.Draw(t, "rv"),
		Generation:        rapid.Int64().Draw(t, "generation"),
		CreationTimestamp: anyTime.Draw(t, "created"),
		Labels:            anyLabels.Draw(t, "labels"),
		Annotations:       anyLabels.Draw(t, "annotations"),
	}
	if rapid.Bool().Draw(t, "deleting") {
		m.DeletionTimestamp = model.TimePtr(anyTime.Draw(t, "deleted"))
	}
	switch rapid.IntRange(0, 2).Draw(t, "owners") {
	case 1:
		m.OwnerReferences = []model.OwnerReference{}
	case 2:
		m.OwnerReferences = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) model.OwnerReference {
			return model.OwnerReference{APIVersion: anyStr.Draw(t, "api"), Kind: anyStr.Draw(t, "kind"), Name: anyStr.Draw(t, "n"),
				UID: anyStr.Draw(t, "u"), Controller: rapid.Bool().Draw(t, "c"), BlockOwnerDeletion: rapid.Bool().Draw(t, "b")}
		}), 1, 3).Draw(t, "refs")
	}
	return m
}

func anyTemplate(t *rapid.T) model.PodTemplate {
	return model.PodTemplate{Labels: anyLabels.Draw(t, "tlabels"), Annotations: anyLabels.Draw(t, "tannotations"), Spec: anyStr.Draw(t, "tspec")}
}

var anyInt32Ptr = rapid.Ptr(rapid.Int32(), true)

var anyDeployment = rapid.Custom(func(t *rapid.T) *model.Deployment {
	d := &model.Deployment{ObjectMeta: anyMeta(t)}
	s := &d.Spec
	s.Replicas = anyInt32Ptr.Draw(t, "replicas")
	s.Selector = anySelector(t, "selector")
	s.Template = anyTemplate(t)
	s.Strategy.Type = rapid.SampledFrom([]model.StrategyType{"", model.RollingUpdateStrategy, model.RecreateStrategy, "Other"}).Draw(t, "strategy")
	if rapid.Bool().Draw(t, "hasRU") {
		s.Strategy.RollingUpdate = &model.RollingUpdate{
			MaxUnavailable: rapid.Ptr(anyIntOrString, true).Draw(t, "maxUnavailable"),
			MaxSurge:       rapid.Ptr(anyIntOrString, true).Draw(t, "maxSurge"),
		}
	}
	s.MinReadySeconds = rapid.Int32().Draw(t, "minReady")
	s.RevisionHistoryLimit = anyInt32Ptr.Draw(t, "rhl")
	s.Paused = rapid.Bool().Draw(t, "paused")
	s.ProgressDeadlineSeconds = anyInt32Ptr.Draw(t, "pds")
	st := &d.Status
	st.ObservedGeneration = rapid.Int64().Draw(t, "og")
	st.Replicas = rapid.Int32().Draw(t, "sr")
	st.UpdatedReplicas = rapid.Int32().Draw(t, "su")
	st.ReadyReplicas = rapid.Int32().Draw(t, "sready")
	st.AvailableReplicas = rapid.Int32().Draw(t, "sa")
	st.UnavailableReplicas = rapid.Int32().Draw(t, "sun")
	st.TerminatingReplicas = anyInt32Ptr.Draw(t, "st")
	st.CollisionCount = anyInt32Ptr.Draw(t, "cc")
	if rapid.Bool().Draw(t, "hasConds") {
		st.Conditions = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) model.DeploymentCondition {
			return model.DeploymentCondition{
				Type:           rapid.SampledFrom([]model.DeploymentConditionType{model.DeploymentAvailable, model.DeploymentProgressing, model.DeploymentReplicaFailure}).Draw(t, "type"),
				Status:         rapid.SampledFrom([]model.ConditionStatus{model.ConditionTrue, model.ConditionFalse, model.ConditionUnknown}).Draw(t, "status"),
				LastUpdateTime: anyTime.Draw(t, "lut"), LastTransitionTime: anyTime.Draw(t, "ltt"),
				Reason: anyStr.Draw(t, "reason"), Message: anyStr.Draw(t, "message"),
			}
		}), 0, 3).Draw(t, "conditions")
	}
	return d
})

var anyReplicaSet = rapid.Custom(func(t *rapid.T) *model.ReplicaSet {
	rs := &model.ReplicaSet{ObjectMeta: anyMeta(t)}
	rs.Spec = model.ReplicaSetSpec{Replicas: anyInt32Ptr.Draw(t, "replicas"), MinReadySeconds: rapid.Int32().Draw(t, "minReady"),
		Selector: anySelector(t, "selector"), Template: anyTemplate(t)}
	rs.Status = model.ReplicaSetStatus{Replicas: rapid.Int32().Draw(t, "r"), FullyLabeledReplicas: rapid.Int32().Draw(t, "fl"),
		ReadyReplicas: rapid.Int32().Draw(t, "ready"), AvailableReplicas: rapid.Int32().Draw(t, "a"),
		TerminatingReplicas: anyInt32Ptr.Draw(t, "term"), ObservedGeneration: rapid.Int64().Draw(t, "og")}
	if rapid.Bool().Draw(t, "hasConds") {
		rs.Status.Conditions = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) model.ReplicaSetCondition {
			return model.ReplicaSetCondition{Type: model.ReplicaSetReplicaFailure, Status: model.ConditionTrue,
				LastTransitionTime: anyTime.Draw(t, "ltt"), Reason: anyStr.Draw(t, "reason"), Message: anyStr.Draw(t, "msg")}
		}), 0, 2).Draw(t, "conditions")
	}
	return rs
})

var anyPod = rapid.Custom(func(t *rapid.T) *model.Pod {
	p := &model.Pod{ObjectMeta: anyMeta(t)}
	p.Spec = model.PodSpec{NodeName: anyStr.Draw(t, "node"), Body: anyStr.Draw(t, "body")}
	p.Status.Phase = rapid.SampledFrom([]model.PodPhase{"", model.PodPending, model.PodRunning, model.PodSucceeded, model.PodFailed, model.PodUnknown}).Draw(t, "phase")
	if rapid.Bool().Draw(t, "hasConds") {
		p.Status.Conditions = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) model.PodCondition {
			return model.PodCondition{Type: rapid.SampledFrom([]model.PodConditionType{model.PodReady, "ContainersReady"}).Draw(t, "type"),
				Status:             rapid.SampledFrom([]model.ConditionStatus{model.ConditionTrue, model.ConditionFalse}).Draw(t, "status"),
				LastTransitionTime: anyTime.Draw(t, "ltt")}
		}), 0, 3).Draw(t, "conditions")
	}
	if rapid.Bool().Draw(t, "hasCS") {
		p.Status.ContainerStatuses = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) model.ContainerStatus {
			return model.ContainerStatus{Name: anyStr.Draw(t, "name"), RestartCount: rapid.Int32().Draw(t, "restarts")}
		}), 0, 3).Draw(t, "containerStatuses")
	}
	return p
})

// fencepost draws a well-formed maxSurge (capAt100 false) or maxUnavailable
// (capAt100 true) value.
func fencepost(t *rapid.T, label string, capAt100 bool) model.IntOrString {
	if rapid.Bool().Draw(t, label+".isInt") {
		return model.FromInt(rapid.Int32Range(0, 1000).Draw(t, label+".int"))
	}
	hi := int32(1000)
	if capAt100 {
		hi = 100
	}
	n := rapid.Int32Range(0, hi).Draw(t, label+".pct")
	zeros := rapid.SampledFrom([]string{"", "", "", "0", "00"}).Draw(t, label+".zeros")
	return model.FromString(zeros + strconv.Itoa(int(n)) + "%")
}

// validishDeployment draws a Deployment that is valid once defaulted: any
// field Default fills may be left unset.
var validishDeployment = rapid.Custom(func(t *rapid.T) *model.Deployment {
	d := &model.Deployment{ObjectMeta: model.ObjectMeta{
		Name:       rapid.StringMatching(`[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?(\.[a-z0-9]{1,5})?`).Draw(t, "name"),
		Namespace:  rapid.SampledFrom([]string{"default", "prod", "a-b-1"}).Draw(t, "ns"),
		UID:        rapid.StringMatching(`[a-f0-9]{1,12}`).Draw(t, "uid"),
		Generation: rapid.Int64Range(0, 100).Draw(t, "generation"),
		Labels:     validLabels.Draw(t, "labels"),
	}}
	tl := rapid.MapOfN(labelKey, labelValue, 1, 5).Draw(t, "templateLabels")
	keys := slices.Sorted(maps.Keys(tl))
	k := rapid.SampledFrom(keys).Draw(t, "selKey")
	sel := &model.LabelSelector{}
	switch rapid.IntRange(0, 3).Draw(t, "selKind") {
	case 0:
		sel.MatchLabels = map[string]string{k: tl[k]}
	case 1:
		sel.MatchExpressions = []model.LabelSelectorRequirement{req(k, model.SelectorOpIn, tl[k], "other")}
	case 2:
		sel.MatchExpressions = []model.LabelSelectorRequirement{req(k, model.SelectorOpExists), req("absent-key", model.SelectorOpDoesNotExist)}
	case 3:
		sel = model.SelectorFromLabels(tl)
	}
	d.Spec.Selector = sel
	d.Spec.Template = model.PodTemplate{Labels: tl, Annotations: validLabels.Draw(t, "templateAnnotations"), Spec: anyStr.Draw(t, "spec")}
	d.Spec.Replicas = rapid.Ptr(rapid.Int32Range(0, 1000), true).Draw(t, "replicas")
	d.Spec.Strategy.Type = rapid.SampledFrom([]model.StrategyType{"", model.RollingUpdateStrategy, model.RecreateStrategy}).Draw(t, "strategy")
	if d.Spec.Strategy.Type != model.RecreateStrategy && rapid.Bool().Draw(t, "hasRU") {
		ru := &model.RollingUpdate{}
		if rapid.Bool().Draw(t, "hasUnav") {
			ru.MaxUnavailable = model.IntOrStringPtr(fencepost(t, "maxUnavailable", true))
		}
		if rapid.Bool().Draw(t, "hasSurge") {
			ru.MaxSurge = model.IntOrStringPtr(fencepost(t, "maxSurge", false))
		}
		if ru.MaxSurge != nil && ru.MaxUnavailable != nil && ru.MaxSurge.IsZeroLiteral() && ru.MaxUnavailable.IsZeroLiteral() {
			ru.MaxSurge = ioi(1)
		}
		d.Spec.Strategy.RollingUpdate = ru
	}
	if rapid.Bool().Draw(t, "hasDeadline") {
		pds := rapid.Int32Range(1, model.NoLimit).Draw(t, "pds")
		d.Spec.ProgressDeadlineSeconds = &pds
		d.Spec.MinReadySeconds = rapid.Int32Range(0, pds-1).Draw(t, "minReady")
	} else {
		d.Spec.MinReadySeconds = rapid.Int32Range(0, model.DefaultProgressDeadlineSeconds-1).Draw(t, "minReady")
	}
	d.Spec.RevisionHistoryLimit = rapid.Ptr(rapid.Int32Range(0, model.NoLimit), true).Draw(t, "rhl")
	d.Spec.Paused = rapid.Bool().Draw(t, "paused")
	nn := rapid.Int32Range(0, 1000)
	d.Status = model.DeploymentStatus{
		ObservedGeneration: rapid.Int64Range(0, 100).Draw(t, "og"),
		Replicas:           nn.Draw(t, "sr"), UpdatedReplicas: nn.Draw(t, "su"), ReadyReplicas: nn.Draw(t, "sready"),
		AvailableReplicas: nn.Draw(t, "sa"), UnavailableReplicas: nn.Draw(t, "sun"),
		TerminatingReplicas: rapid.Ptr(nn, true).Draw(t, "st"),
		CollisionCount:      rapid.Ptr(nn, true).Draw(t, "cc"),
	}
	return d
})

// ---- properties ----

func TestPropDeepCopy(t *testing.T) {
	t.Run("deployment", rapid.MakeCheck(func(t *rapid.T) {
		d := anyDeployment.Draw(t, "d")
		checkDeepCopy(t, d, d.DeepCopy, func(x *model.Deployment) { mutateDeployment(x) })
	}))
	t.Run("replicaset", rapid.MakeCheck(func(t *rapid.T) {
		rs := anyReplicaSet.Draw(t, "rs")
		checkDeepCopy(t, rs, rs.DeepCopy, func(x *model.ReplicaSet) { mutateReplicaSet(x) })
	}))
	t.Run("pod", rapid.MakeCheck(func(t *rapid.T) {
		p := anyPod.Draw(t, "pod")
		checkDeepCopy(t, p, p.DeepCopy, func(x *model.Pod) { mutatePod(x) })
	}))
	t.Run("selector", rapid.MakeCheck(func(t *rapid.T) {
		s := anySelector(t, "sel")
		checkDeepCopy(t, s, s.DeepCopy, func(x *model.LabelSelector) { mutateSelector(x) })
	}))
	t.Run("objectmeta", rapid.MakeCheck(func(t *rapid.T) {
		m := anyMeta(t)
		checkDeepCopy(t, &m, func() *model.ObjectMeta { c := m.DeepCopy(); return &c }, func(x *model.ObjectMeta) { mutateMeta(x) })
	}))
}

// checkDeepCopy: the copy equals the original (nil and empty kept apart), and
// mutating either one leaves the other as it was.
func checkDeepCopy[P any](t *rapid.T, orig P, deepCopy func() P, mutate func(P)) {
	before := snapshot(t, orig)
	cp := deepCopy()
	if d := cmp.Diff(orig, cp); d != "" {
		t.Fatalf("copy differs (-orig +copy):\n%s", d)
	}
	cpBefore := snapshot(t, cp)
	mutate(cp)
	if snapshot(t, orig) != before {
		t.Fatal("mutating the copy changed the original")
	}
	cp2 := deepCopy()
	mutate(orig)
	if snapshot(t, cp2) != cpBefore {
		t.Fatal("mutating the original changed a copy")
	}
}

func TestPropDefault(t *testing.T) {
	t.Run("idempotent and pure on any input", rapid.MakeCheck(func(t *rapid.T) {
		d := anyDeployment.Draw(t, "d")
		before := snapshot(t, d)
		once := model.Default(d)
		if snapshot(t, d) != before {
			t.Fatal("Default mutated its input")
		}
		twice := model.Default(once)
		if diff := cmp.Diff(once, twice); diff != "" {
			t.Fatalf("Default is not idempotent (-once +twice):\n%s", diff)
		}
		mutateDeployment(once)
		if snapshot(t, d) != before {
			t.Fatal("Default's result shares memory with its input")
		}
	}))
	t.Run("valid after defaulting", rapid.MakeCheck(func(t *rapid.T) {
		d := validishDeployment.Draw(t, "d")
		def := model.Default(d)
		if err := model.ValidateDeployment(def); err != nil {
			t.Fatalf("Default(d) is invalid: %v", err)
		}
		if err := model.Validate(def, nil, nil); err != nil {
			t.Fatalf("Validate(Default(d)) is invalid: %v", err)
		}
		// Set fields are kept.
		if d.Spec.Replicas != nil && *def.Spec.Replicas != *d.Spec.Replicas {
			t.Fatal("replicas changed")
		}
		if d.Spec.ProgressDeadlineSeconds != nil && *def.Spec.ProgressDeadlineSeconds != *d.Spec.ProgressDeadlineSeconds {
			t.Fatal("progressDeadlineSeconds changed")
		}
		if ru := d.Spec.Strategy.RollingUpdate; ru != nil && ru.MaxSurge != nil && *def.Spec.Strategy.RollingUpdate.MaxSurge != *ru.MaxSurge {
			t.Fatal("maxSurge changed")
		}
		// Recreate never gets a block; RollingUpdate always has both fenceposts.
		switch def.Spec.Strategy.Type {
		case model.RecreateStrategy:
			if def.Spec.Strategy.RollingUpdate != nil {
				t.Fatal("Recreate got a rollingUpdate block")
			}
		case model.RollingUpdateStrategy:
			ru := def.Spec.Strategy.RollingUpdate
			if ru == nil || ru.MaxSurge == nil || ru.MaxUnavailable == nil {
				t.Fatal("RollingUpdate without both fenceposts")
			}
		default:
			t.Fatalf("strategy %q after Default", def.Spec.Strategy.Type)
		}
	}))
	t.Run("undefaulted is refused unless complete", rapid.MakeCheck(func(t *rapid.T) {
		d := validishDeployment.Draw(t, "d")
		complete := d.Spec.Replicas != nil && d.Spec.Strategy.Type != "" &&
			(d.Spec.Strategy.Type == model.RecreateStrategy ||
				(d.Spec.Strategy.RollingUpdate != nil && d.Spec.Strategy.RollingUpdate.MaxSurge != nil && d.Spec.Strategy.RollingUpdate.MaxUnavailable != nil))
		if err := model.ValidateDeployment(d); (err == nil) != complete {
			t.Fatalf("complete=%v but ValidateDeployment = %v", complete, err)
		}
	}))
}

func TestPropValidateNeverPanics(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := anyDeployment.Draw(t, "d")
		rss := rapid.SliceOfN(rapid.OneOf(anyReplicaSet, rapid.Just((*model.ReplicaSet)(nil))), 0, 3).Draw(t, "rss")
		pods := rapid.SliceOfN(rapid.OneOf(anyPod, rapid.Just((*model.Pod)(nil))), 0, 3).Draw(t, "pods")
		checkValidationError(t, model.Validate(d, rss, pods))
		checkValidationError(t, model.ValidateDeployment(d))
	})
}

// checkValidationError: nil, or a *ValidationError whose every entry names a field.
func checkValidationError(t fataler, err error) {
	t.Helper()
	if err == nil {
		return
	}
	ve, ok := err.(*model.ValidationError)
	if !ok {
		t.Fatalf("error of type %T, want *model.ValidationError: %v", err, err)
	}
	if len(ve.Errors) == 0 {
		t.Fatalf("a *ValidationError with no entries")
	}
	for i, fe := range ve.Errors {
		if fe == nil || fe.Field == "" || fe.Detail == "" {
			t.Fatalf("entry %d without Field or Detail: %+v", i, fe)
		}
	}
}

func TestPropParseIntOrString(t *testing.T) {
	t.Run("ints round trip", rapid.MakeCheck(func(t *rapid.T) {
		v := model.FromInt(rapid.Int32().Draw(t, "i"))
		if got := model.ParseIntOrString(v.String()); got != v {
			t.Fatalf("ParseIntOrString(%q) = %#v, want %#v", v.String(), got, v)
		}
	}))
	t.Run("percentages round trip", rapid.MakeCheck(func(t *rapid.T) {
		v := model.FromString(rapid.StringMatching(`[0-9]{1,12}%`).Draw(t, "pct"))
		if got := model.ParseIntOrString(v.String()); got != v {
			t.Fatalf("ParseIntOrString(%q) = %#v, want %#v", v.String(), got, v)
		}
	}))
	t.Run("any string", rapid.MakeCheck(func(t *rapid.T) {
		s := rapid.OneOf(rapid.String(), rapid.StringMatching(`[-+]?[0-9]{1,11}`)).Draw(t, "s")
		v := model.ParseIntOrString(s)
		switch v.Type {
		case model.String:
			if v.StrVal != s || v.IntVal != 0 {
				t.Fatalf("string value %#v for %q", v, s)
			}
			if _, err := strconv.ParseInt(s, 10, 32); err == nil {
				t.Fatalf("%q fits int32 but parsed as a string", s)
			}
		case model.Int:
			n, err := strconv.ParseInt(s, 10, 32)
			if err != nil || int32(n) != v.IntVal || v.StrVal != "" {
				t.Fatalf("int value %#v for %q", v, s)
			}
		default:
			t.Fatalf("type %d", v.Type)
		}
	}))
	t.Run("json round trip", rapid.MakeCheck(func(t *rapid.T) {
		var v model.IntOrString
		if rapid.Bool().Draw(t, "isInt") {
			v = model.FromInt(rapid.Int32().Draw(t, "i"))
		} else {
			v = model.FromString(rapid.String().Draw(t, "s"))
		}
		requireJSONRoundTrip(t, v)
	}))
}

func TestPropSelector(t *testing.T) {
	t.Run("nil matches nothing, empty everything", rapid.MakeCheck(func(t *rapid.T) {
		l := anyLabels.Draw(t, "labels")
		var nilSel *model.LabelSelector
		if ok, err := nilSel.Matches(l); ok || err != nil {
			t.Fatalf("nil selector: %v, %v", ok, err)
		}
		for _, s := range []*model.LabelSelector{{}, {MatchLabels: map[string]string{}}, {MatchExpressions: []model.LabelSelectorRequirement{}}} {
			if ok, err := s.Matches(l); !ok || err != nil {
				t.Fatalf("empty selector %#v: %v, %v", s, ok, err)
			}
		}
	}))
	t.Run("SelectorFromLabels matches its labels and supersets", rapid.MakeCheck(func(t *rapid.T) {
		l := validLabels.Draw(t, "labels")
		extra := validLabels.Draw(t, "extra")
		sel := model.SelectorFromLabels(l)
		if ok, err := sel.Matches(l); !ok || err != nil {
			t.Fatalf("SelectorFromLabels(%v).Matches(itself) = %v, %v", l, ok, err)
		}
		super := maps.Clone(extra)
		if super == nil {
			super = map[string]string{}
		}
		maps.Copy(super, l)
		if ok, _ := sel.Matches(super); !ok {
			t.Fatalf("does not match superset %v", super)
		}
		// Removing or changing any selected label breaks the match.
		for k := range l {
			sub := maps.Clone(l)
			delete(sub, k)
			if ok, _ := sel.Matches(sub); ok {
				t.Fatalf("matches after deleting %q", k)
			}
			sub[k] = l[k] + "x"
			if ok, _ := sel.Matches(sub); ok {
				t.Fatalf("matches after changing %q", k)
			}
		}
	}))
	t.Run("Matcher agrees with Matches", rapid.MakeCheck(func(t *rapid.T) {
		s := anySelector(t, "sel")
		if rapid.Bool().Draw(t, "valid") {
			s = validSelector(t)
		}
		l := rapid.OneOf(anyLabels, validLabels).Draw(t, "labels")
		ok, err := s.Matches(l)
		cerr := s.Check()
		if (err == nil) != (cerr == nil) {
			t.Fatalf("Matches error %v but Check %v", err, cerr)
		}
		m, merr := model.NewMatcher(s)
		if (merr == nil) != (cerr == nil) {
			t.Fatalf("NewMatcher error %v but Check %v", merr, cerr)
		}
		if err == nil && m.Matches(l) != ok {
			t.Fatalf("Matcher %v, Matches %v", m.Matches(l), ok)
		}
		if err == nil && ok != oracleMatches(s, l) {
			t.Fatalf("Matches = %v, oracle says %v", ok, !ok)
		}
	}))
}

// validSelector draws a selector that passes Check.
func validSelector(t *rapid.T) *model.LabelSelector {
	s := &model.LabelSelector{MatchLabels: validLabels.Draw(t, "ml")}
	n := rapid.IntRange(0, 3).Draw(t, "nexpr")
	for i := 0; i < n; i++ {
		op := rapid.SampledFrom([]model.SelectorOperator{model.SelectorOpIn, model.SelectorOpNotIn, model.SelectorOpExists, model.SelectorOpDoesNotExist}).Draw(t, "op")
		r := model.LabelSelectorRequirement{Key: labelKey.Draw(t, "key"), Operator: op}
		if op == model.SelectorOpIn || op == model.SelectorOpNotIn {
			r.Values = rapid.SliceOfN(labelValue, 1, 3).Draw(t, "values")
		}
		s.MatchExpressions = append(s.MatchExpressions, r)
	}
	return s
}

// oracleMatches restates label selector semantics independently: a
// selector is the conjunction of its requirements; matchLabels k=v is "k In (v)".
func oracleMatches(s *model.LabelSelector, labels map[string]string) bool {
	if s == nil {
		return false
	}
	reqs := slices.Clone(s.MatchExpressions)
	for k, v := range s.MatchLabels {
		reqs = append(reqs, model.LabelSelectorRequirement{Key: k, Operator: model.SelectorOpIn, Values: []string{v}})
	}
	for _, r := range reqs {
		v, has := labels[r.Key]
		in := has && slices.Contains(r.Values, v)
		var holds bool
		switch r.Operator {
		case model.SelectorOpIn:
			holds = in
		case model.SelectorOpNotIn:
			holds = !in
		case model.SelectorOpExists:
			holds = has
		case model.SelectorOpDoesNotExist:
			holds = !has
		}
		if !holds {
			return false
		}
	}
	return true
}

func TestPropEqualIgnoreHash(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := anyTemplate(t)
		b := a.DeepCopy()
		if !model.EqualIgnoreHash(a, b) {
			t.Fatal("a template differs from its copy")
		}
		// The hash label never matters.
		if b.Labels == nil {
			b.Labels = map[string]string{}
		}
		if rapid.Bool().Draw(t, "setHash") {
			b.Labels[model.PodTemplateHashLabel] = anyStr.Draw(t, "hash")
		} else {
			delete(b.Labels, model.PodTemplateHashLabel)
		}
		if !model.EqualIgnoreHash(a, b) || !model.EqualIgnoreHash(b, a) {
			t.Fatalf("hash label mattered: %v vs %v", a.Labels, b.Labels)
		}
		// Any other label, annotation or spec change does.
		c := b.DeepCopy()
		switch rapid.IntRange(0, 2).Draw(t, "what") {
		case 0:
			k := anyStr.Filter(func(s string) bool { return s != model.PodTemplateHashLabel }).Draw(t, "k")
			c.Labels[k] = c.Labels[k] + "~"
		case 1:
			if c.Annotations == nil {
				c.Annotations = map[string]string{}
			}
			k := anyStr.Draw(t, "k")
			c.Annotations[k] = c.Annotations[k] + "~"
		case 2:
			c.Spec += "~"
		}
		if model.EqualIgnoreHash(b, c) || model.EqualIgnoreHash(c, b) {
			t.Fatal("a real difference was ignored")
		}
	})
}

// ---- CanonicalJSON ----

// jnode is a JSON value whose object members keep a chosen order, so that
// the same value can be written in different member orders.
type jnode struct {
	kind  int // 0 null, 1 bool, 2 number, 3 string, 4 array, 5 object
	b     bool
	num   string
	str   string
	elems []jnode
	keys  []string
}

var jsonNumber = rapid.StringMatching(`-?(0|[1-9][0-9]{0,25})(\.[0-9]{1,6})?([eE][-+]?[0-9]{1,3})?`)

func drawJSON(t *rapid.T, depth int) jnode {
	maxKind := 5
	if depth >= 3 {
		maxKind = 3
	}
	n := jnode{kind: rapid.IntRange(0, maxKind).Draw(t, "kind")}
	switch n.kind {
	case 1:
		n.b = rapid.Bool().Draw(t, "bool")
	case 2:
		n.num = jsonNumber.Draw(t, "num")
	case 3:
		n.str = rapid.StringN(0, 5, -1).Draw(t, "str")
	case 4:
		for i, k := 0, rapid.IntRange(0, 3).Draw(t, "len"); i < k; i++ {
			n.elems = append(n.elems, drawJSON(t, depth+1))
		}
	case 5:
		n.keys = rapid.SliceOfNDistinct(rapid.StringN(0, 4, -1), 0, 4, rapid.ID[string]).Draw(t, "keys")
		for range n.keys {
			n.elems = append(n.elems, drawJSON(t, depth+1))
		}
	}
	return n
}

// write emits n; reverse writes object members in reverse order, ws adds
// white space between tokens.
func (n jnode) write(buf *bytes.Buffer, reverse bool, ws string) {
	q := func(s string) {
		b, _ := json.Marshal(s)
		buf.Write(b)
	}
	switch n.kind {
	case 0:
		buf.WriteString("null")
	case 1:
		fmt.Fprint(buf, n.b)
	case 2:
		buf.WriteString(n.num)
	case 3:
		q(n.str)
	case 4:
		buf.WriteString("[" + ws)
		for i, e := range n.elems {
			if i > 0 {
				buf.WriteString("," + ws)
			}
			e.write(buf, reverse, ws)
		}
		buf.WriteString(ws + "]")
	case 5:
		buf.WriteString("{" + ws)
		for j := range n.keys {
			i := j
			if reverse {
				i = len(n.keys) - 1 - j
			}
			if j > 0 {
				buf.WriteString(ws + "," + ws)
			}
			q(n.keys[i])
			buf.WriteString(ws + ":" + ws)
			n.elems[i].write(buf, reverse, ws)
		}
		buf.WriteString(ws + "}")
	}
}

func TestPropCanonicalJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := drawJSON(t, 0)
		var a, b bytes.Buffer
		n.write(&a, false, "")
		n.write(&b, true, rapid.SampledFrom([]string{" ", "\n\t", "\r\n  "}).Draw(t, "ws"))
		ca, err := model.CanonicalJSON(a.Bytes())
		if err != nil {
			t.Fatalf("CanonicalJSON(%s): %v", a.Bytes(), err)
		}
		cb, err := model.CanonicalJSON(b.Bytes())
		if err != nil {
			t.Fatalf("CanonicalJSON(%s): %v", b.Bytes(), err)
		}
		if ca != cb {
			t.Fatalf("member order or white space changed the canonical form:\n%s\n%s", ca, cb)
		}
		if !json.Valid([]byte(ca)) || !utf8.ValidString(ca) {
			t.Fatalf("invalid output %q", ca)
		}
		again, err := model.CanonicalJSON([]byte(ca))
		if err != nil || again != ca {
			t.Fatalf("not idempotent: %s -> %s (%v)", ca, again, err)
		}
		// Same value as the input once nulls/empty arrays in objects are ignored.
		x, y := decodeNumbers(t, a.Bytes()), decodeNumbers(t, []byte(ca))
		if d := cmp.Diff(pruneOracle(x), y); d != "" {
			t.Fatalf("canonical form changed the value (-want +got):\n%s", d)
		}
	})
}

// decodeNumbers decodes keeping numbers as written (json.Number).
func decodeNumbers(t *rapid.T, b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}

// pruneOracle drops object members that are null or [] (recursively), the
// documented CanonicalJSON rule, on an encoding/json value.
func pruneOracle(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			e = pruneOracle(e)
			if e == nil {
				continue
			}
			if arr, ok := e.([]any); ok && len(arr) == 0 {
				continue
			}
			out[k] = e
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = pruneOracle(e)
		}
		return out
	}
	return v
}
