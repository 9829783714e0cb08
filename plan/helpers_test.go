package plan_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/internal/casetest"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// why names a table case and says, in one line, where its expected numbers
// come from (an upstream function, an upstream unit test, a worked example, recorded data). Every
// table in this package embeds it; runCases refuses a case without a reason.
type why struct{ name, reason string }

func (w why) caseInfo() why { return w }

type namedCase interface{ caseInfo() why }

// checkCases fails tb (Fatal) on a case without a name or a reason, or with a
// duplicate name (t.Run would silently rename it).
func checkCases[C namedCase](tb casetest.TB, cases []C) {
	tb.Helper()
	casetest.Check(tb, cases, caseOf[C])
}

func caseOf[C namedCase](c C) casetest.Case {
	w := c.caseInfo()
	return casetest.Case{Name: w.name, Why: w.reason}
}

// runCases checks the table and runs fn for every case as a subtest, logging
// the case's reason when it fails.
func runCases[C namedCase](t *testing.T, cases []C, fn func(t *testing.T, c C)) {
	t.Helper()
	casetest.Run(t, cases, caseOf[C], fn)
}

// fatalRecorder is a testing.TB whose Fatalf records instead of stopping the
// test, so TestCheckCasesRefusesUnexplainedCases can watch checkCases refuse.
type fatalRecorder struct {
	testing.TB
	msgs []string
}

func (f *fatalRecorder) Helper() {}
func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msgs = append(f.msgs, fmt.Sprintf(format, args...))
}

func TestCheckCasesRefusesUnexplainedCases(t *testing.T) {
	type c struct{ why }
	for _, tc := range []struct {
		cases []c
		ok    bool
	}{
		{[]c{{why{"a", "because"}}}, true},
		{[]c{{why{"a", ""}}}, false},
		{[]c{{why{"a", "  "}}}, false},
		{[]c{{why{"", "because"}}}, false},
		{[]c{{why{"a", "x"}}, {why{"a", "y"}}}, false},
	} {
		rec := &fatalRecorder{TB: t}
		checkCases(rec, tc.cases)
		if got := len(rec.msgs) == 0; got != tc.ok {
			t.Errorf("checkCases(%v): accepted = %v, want %v (messages %q)", tc.cases, got, tc.ok, rec.msgs)
		}
	}
}

// t0 is the clock of most tests; objects are created relative to it.
var t0 = time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

const ns = "default"

func i32(v int32) *int32 { return &v }

func ptr[T any](v T) *T { return &v }

func intStr(v int32) *model.IntOrString { return model.IntOrStringPtr(model.FromInt(v)) }

func pct(s string) *model.IntOrString { return model.IntOrStringPtr(model.FromString(s)) }

// tmpl is the pod template of version v of app: labels {app: app} and a spec
// naming the image, so two versions differ only in the spec.
func tmpl(app, v string) model.PodTemplate {
	return model.PodTemplate{
		Labels: map[string]string{"app": app},
		Spec:   `{"containers":[{"image":"` + app + `:` + v + `","name":"` + app + `"}]}`,
	}
}

type depOpt func(*model.Deployment)

// newDeployment returns a defaulted RollingUpdate Deployment name/default
// with uid "uid-<name>", generation 1, selector {app: name} and the template
// of version v. Options apply after defaulting, so they can unset defaults.
func newDeployment(name string, replicas int32, v string, opts ...depOpt) *model.Deployment {
	d := model.Default(&model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: name, Namespace: ns, UID: "uid-" + name, Generation: 1, CreationTimestamp: at(-48 * time.Hour)},
		Spec: model.DeploymentSpec{
			Replicas: i32(replicas),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: tmpl(name, v),
		},
	})
	for _, o := range opts {
		o(d)
	}
	return d
}

func rolling(maxSurge, maxUnavailable *model.IntOrString) depOpt {
	return func(d *model.Deployment) {
		d.Spec.Strategy = model.Strategy{Type: model.RollingUpdateStrategy,
			RollingUpdate: &model.RollingUpdate{MaxSurge: maxSurge, MaxUnavailable: maxUnavailable}}
	}
}

func recreate() depOpt {
	return func(d *model.Deployment) { d.Spec.Strategy = model.Strategy{Type: model.RecreateStrategy} }
}

func generation(g int64) depOpt { return func(d *model.Deployment) { d.Generation = g } }

func paused() depOpt { return func(d *model.Deployment) { d.Spec.Paused = true } }

func deadline(p *int32) depOpt {
	return func(d *model.Deployment) { d.Spec.ProgressDeadlineSeconds = p }
}

func historyLimit(n int32) depOpt {
	return func(d *model.Deployment) { d.Spec.RevisionHistoryLimit = i32(n) }
}

func depAnn(k, v string) depOpt {
	return func(d *model.Deployment) {
		if d.Annotations == nil {
			d.Annotations = map[string]string{}
		}
		d.Annotations[k] = v
	}
}

func revisionAnn(rev int) depOpt { return depAnn(model.RevisionAnnotation, strconv.Itoa(rev)) }

func withStatus(st model.DeploymentStatus) depOpt {
	return func(d *model.Deployment) { d.Status = st }
}

// depStatus is a stored Deployment status. terminatingReplicas is 0, what
// the gate computes for ReplicaSets built by newRS.
func depStatus(obsGen int64, replicas, updated, ready, available, unavailable int32, conds ...model.DeploymentCondition) model.DeploymentStatus {
	return model.DeploymentStatus{
		ObservedGeneration: obsGen, Replicas: replicas, UpdatedReplicas: updated, ReadyReplicas: ready,
		AvailableReplicas: available, UnavailableReplicas: unavailable, TerminatingReplicas: i32(0), Conditions: conds,
	}
}

func cond(t model.DeploymentConditionType, s model.ConditionStatus, reason, msg string, lastUpdate, lastTransition time.Time) model.DeploymentCondition {
	return model.DeploymentCondition{Type: t, Status: s, Reason: reason, Message: msg, LastUpdateTime: lastUpdate, LastTransitionTime: lastTransition}
}

func availableCond(ok bool, ts time.Time) model.DeploymentCondition {
	if ok {
		return cond(model.DeploymentAvailable, model.ConditionTrue, model.ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", ts, ts)
	}
	return cond(model.DeploymentAvailable, model.ConditionFalse, model.ReasonMinimumReplicasUnavailable, "Deployment does not have minimum availability.", ts, ts)
}

func progressingCond(s model.ConditionStatus, reason, msg string, lastUpdate, lastTransition time.Time) model.DeploymentCondition {
	return cond(model.DeploymentProgressing, s, reason, msg, lastUpdate, lastTransition)
}

// newRS returns the ReplicaSet of version v of d: named <d>-<v>, hash label v,
// controlled by d, revision rev, desired-replicas D and max-replicas D+surge
// annotations as of d, spec replicas spec and a status with spec pods, all
// ready and available, observed (generation 1, observedGeneration 1,
// terminatingReplicas 0).
func newRS(d *model.Deployment, v string, rev int, spec int32, created time.Time) *model.ReplicaSet {
	t := tmpl(d.Name, v)
	t.Labels[model.PodTemplateHashLabel] = v
	name := d.Name + "-" + v
	desired := d.DesiredReplicas()
	var surge int32
	if ru := d.Spec.Strategy.RollingUpdate; d.Spec.Strategy.Type == model.RollingUpdateStrategy && ru != nil {
		surge = resolveSurge(ru.MaxSurge, desired)
	}
	return &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{
			Name: name, Namespace: ns, UID: "uid-" + name, Generation: 1, CreationTimestamp: created,
			Labels: maps.Clone(t.Labels),
			Annotations: map[string]string{
				model.RevisionAnnotation:        strconv.Itoa(rev),
				model.DesiredReplicasAnnotation: strconv.Itoa(int(desired)),
				model.MaxReplicasAnnotation:     strconv.Itoa(int(desired + surge)),
			},
			OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, d.Name, d.UID)},
		},
		Spec: model.ReplicaSetSpec{
			Replicas: i32(spec),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": d.Name, model.PodTemplateHashLabel: v}},
			Template: t,
		},
		Status: model.ReplicaSetStatus{
			Replicas: spec, FullyLabeledReplicas: spec, ReadyReplicas: spec, AvailableReplicas: spec,
			ObservedGeneration: 1, TerminatingReplicas: i32(0),
		},
	}
}

// resolveSurge resolves an absolute or percent maxSurge for the fixtures'
// annotations (percent rounds up, upstream ResolveFenceposts).
func resolveSurge(v *model.IntOrString, desired int32) int32 {
	if v == nil {
		return 0
	}
	if v.Type == model.Int {
		return v.IntVal
	}
	n, _ := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	return int32((n*int(desired) + 99) / 100)
}

// rsStatus sets the pod counts of rs's status and returns rs.
func rsStatus(rs *model.ReplicaSet, replicas, ready, available int32) *model.ReplicaSet {
	rs.Status.Replicas, rs.Status.FullyLabeledReplicas = replicas, replicas
	rs.Status.ReadyReplicas, rs.Status.AvailableReplicas = ready, available
	return rs
}

// rsAnn sets (or, with v "", deletes) an annotation of rs and returns rs.
func rsAnn(rs *model.ReplicaSet, k, v string) *model.ReplicaSet {
	if v == "" {
		delete(rs.Annotations, k)
		return rs
	}
	rs.Annotations[k] = v
	return rs
}

// replicasAnn sets the desired-replicas and max-replicas annotations of rs.
func replicasAnn(rs *model.ReplicaSet, desired, maxReplicas int32) *model.ReplicaSet {
	rsAnn(rs, model.DesiredReplicasAnnotation, strconv.Itoa(int(desired)))
	return rsAnn(rs, model.MaxReplicasAnnotation, strconv.Itoa(int(maxReplicas)))
}

func newPod(name string, owner *model.ReplicaSet, phase model.PodPhase, deleting bool) *model.Pod {
	p := &model.Pod{
		ObjectMeta: model.ObjectMeta{
			Name: name, Namespace: ns, UID: "uid-" + name, CreationTimestamp: owner.CreationTimestamp,
			Labels:          maps.Clone(owner.Spec.Template.Labels),
			OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.ReplicaSetKind, owner.Name, owner.UID)},
		},
		Status: model.PodStatus{Phase: phase},
	}
	if deleting {
		p.DeletionTimestamp = model.TimePtr(t0)
	}
	return p
}

// cloneState deep-copies a State, for purity checks.
func cloneState(s plan.State) plan.State {
	out := plan.State{Deployment: s.Deployment.DeepCopy(), Now: s.Now}
	if s.ReplicaSets != nil {
		out.ReplicaSets = make([]*model.ReplicaSet, len(s.ReplicaSets))
		for i, rs := range s.ReplicaSets {
			out.ReplicaSets[i] = rs.DeepCopy()
		}
	}
	if s.Pods != nil {
		out.Pods = make([]*model.Pod, len(s.Pods))
		for i, p := range s.Pods {
			out.Pods[i] = p.DeepCopy()
		}
	}
	return out
}

// mustSync plans s and fails the test on any error: invalid input, or a
// sync that ends with an error (use syncChecked for those). It checks the
// contract points of syncChecked on the way.
func mustSync(t *testing.T, s plan.State, opts ...plan.Option) plan.Plan {
	t.Helper()
	p, serr := syncChecked(t, s, opts...)
	if serr != nil {
		t.Fatalf("the sync ended with %s error %q", serr.Kind, serr.Message)
	}
	return p
}

// syncChecked plans s, fails the test on invalid input, and returns the plan
// with the error upstream's sync ends with (nil when none). On the way it
// checks contract points of every sync of this package: the input is left
// exactly as it was; the same state with its slices reversed gives the same
// plan and error; every action has a reason and an empty plan a note; the
// plan renders; and the plan aliases neither its input nor another plan:
// scribbling over all of it leaves the input, and a replan, as they were.
// It returns that replan.
func syncChecked(t *testing.T, s plan.State, opts ...plan.Option) (plan.Plan, *plan.SyncError) {
	t.Helper()
	before := cloneState(s)
	p, serr := syncOrFail(t, s, opts...)
	if diff := cmp.Diff(before, s); diff != "" {
		t.Errorf("Sync modified its input (-before +after):\n%s", diff)
	}
	rev := cloneState(s)
	slices.Reverse(rev.ReplicaSets)
	slices.Reverse(rev.Pods)
	p2, serr2 := syncOrFail(t, rev, opts...)
	if diff := cmp.Diff(p, p2); diff != "" {
		t.Errorf("Sync depends on the order of the input slices (-given +reversed):\n%s", diff)
	}
	if diff := cmp.Diff(serr, serr2); diff != "" {
		t.Errorf("the sync's error depends on the order of the input slices (-given +reversed):\n%s", diff)
	}
	// Every write carries its reason, and an empty plan says
	// why nothing happened.
	for _, a := range p.Actions {
		if a.Reason.Code == "" || a.Reason.Message == "" {
			t.Errorf("action %s has no reason", a)
		}
	}
	if len(p.Actions) == 0 && len(p.Notes) == 0 {
		t.Error("an empty plan without a note")
	}
	for _, e := range p.Events {
		if e.Object != model.DeploymentKind+"/"+s.Deployment.Name {
			t.Errorf("event %q recorded against %q", e.Message, e.Object)
		}
	}
	if _, err := render.Writes(s, p); err != nil {
		t.Errorf("render.Writes: %v", err)
	}
	scribble(&p)
	if diff := cmp.Diff(before, s); diff != "" {
		t.Errorf("changing the plan changed its input (-before +after):\n%s", diff)
	}
	p3, _ := syncOrFail(t, s, opts...)
	if diff := cmp.Diff(p2, p3); diff != "" {
		t.Errorf("changing a plan changed the next plan of the same state (-before +after):\n%s", diff)
	}
	return p3, serr
}

// syncOrFail plans s and fails the test when Sync refuses the input; a
// *plan.SyncError is returned, nil when the sync ends without one.
func syncOrFail(t *testing.T, s plan.State, opts ...plan.Option) (plan.Plan, *plan.SyncError) {
	t.Helper()
	p, err := plan.Sync(s, opts...)
	var serr *plan.SyncError
	if err != nil && !errors.As(err, &serr) {
		t.Fatalf("Sync: %v", err)
	}
	return p, serr
}

// summary renders the actions as "Kind name [replicas=n] [conflict]", n
// being the size a create or an update of a ReplicaSet writes.
func summary(p plan.Plan) []string {
	out := make([]string, 0, len(p.Actions))
	for _, a := range p.Actions {
		s := string(a.Kind) + " " + a.Object.Name
		switch {
		case a.ReplicaSet != nil:
			s += fmt.Sprintf(" replicas=%d", a.ReplicaSet.SpecReplicas())
		case a.Update != nil:
			s += fmt.Sprintf(" replicas=%d", a.Update.Replicas)
		}
		if a.Conflict {
			s += " conflict"
		}
		out = append(out, s)
	}
	return out
}

// events renders the events as "Type Reason: message".
func events(p plan.Plan) []string {
	out := make([]string, 0, len(p.Events))
	for _, e := range p.Events {
		out = append(out, e.Type+" "+e.Reason+": "+e.Message)
	}
	return out
}

// rejectedAt is the index of the first action a server rejects, or -1.
func rejectedAt(p plan.Plan) int {
	if i, ok := p.Rejected(); ok {
		return i
	}
	return -1
}

// checkPlan compares the action summary, the events and the index of the
// first rejected action (-1 for none) with what a test expects.
func checkPlan(t *testing.T, p plan.Plan, wantActions, wantEvents []string, wantRejected int) {
	t.Helper()
	if diff := cmp.Diff(wantActions, summary(p), cmpEmpty); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantEvents, events(p), cmpEmpty); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if got := rejectedAt(p); got != wantRejected {
		t.Errorf("first rejected action = %d, want %d", got, wantRejected)
	}
}

// cmpEmpty treats nil and empty string slices alike in checkPlan.
var cmpEmpty = cmp.Comparer(func(a, b []string) bool { return slices.Equal(a, b) })

// lastStatus returns the status the last UpdateDeploymentStatus action
// writes, failing the test when there is none.
func lastStatus(t *testing.T, p plan.Plan) *model.DeploymentStatus {
	t.Helper()
	for i := len(p.Actions) - 1; i >= 0; i-- {
		if a := p.Actions[i]; a.Kind == plan.UpdateDeploymentStatus {
			require.NotNil(t, a.Deployment, "UpdateDeploymentStatus without a change")
			require.NotNil(t, a.Deployment.Status, "UpdateDeploymentStatus without a status")
			return a.Deployment.Status
		}
	}
	t.Fatalf("no UpdateDeploymentStatus in %q", summary(p))
	return nil
}

// lastStatusWrite returns the whole Deployment the last
// UpdateDeploymentStatus action of p (planned from s) sends, as rendered,
// failing the test when there is none. Tests that replay several syncs feed
// it to the next one, as a server would store it.
func lastStatusWrite(t *testing.T, s plan.State, p plan.Plan) *model.Deployment {
	t.Helper()
	ws := rendered(t, s, p)
	for i := len(ws) - 1; i >= 0; i-- {
		if ws[i].Kind == render.UpdateDeploymentStatus {
			return ws[i].Deployment
		}
	}
	t.Fatalf("no UpdateDeploymentStatus in %q", summary(p))
	return nil
}

// rendered returns the write requests of p, planned from s.
func rendered(t *testing.T, s plan.State, p plan.Plan) []render.Write {
	t.Helper()
	ws, err := render.Writes(s, p)
	require.NoError(t, err, "render.Writes")
	return ws
}

// actionAt returns the i-th action, failing the test when it is missing or
// not of kind k.
func actionAt(t *testing.T, p plan.Plan, i int, k plan.ActionKind) plan.Action {
	t.Helper()
	if i >= len(p.Actions) {
		t.Fatalf("no action %d in %q", i, summary(p))
	}
	if a := p.Actions[i]; a.Kind != k {
		t.Fatalf("action %d is %s, want %s", i, a.Kind, k)
	}
	return p.Actions[i]
}

// hasNote reports whether the plan carries a note with code c.
func hasNote(p plan.Plan, c plan.ReasonCode) bool {
	return slices.ContainsFunc(p.Notes, func(r plan.Reason) bool { return r.Code == c })
}

// fixedHash is a hasher that ignores the template: base for a nil collision
// count, base followed by the count otherwise, so tests know the name of
// the ReplicaSet a sync creates.
func fixedHash(base string) plan.Option {
	return plan.WithHasher(func(_ model.PodTemplate, cc *int32) string {
		if cc == nil {
			return base
		}
		return base + strconv.Itoa(int(*cc))
	})
}

func progressingOf(t *testing.T, st *model.DeploymentStatus) *model.DeploymentCondition {
	t.Helper()
	if st == nil {
		t.Fatal("no status computed")
	}
	return st.Condition(model.DeploymentProgressing)
}
