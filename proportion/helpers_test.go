package proportion

import (
	"github.com/rolloutplan/rolloutplan/internal/casetest"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rolloutplan/rolloutplan/model"
)

// why names a table case and says where its expected numbers come from.
// Every table in this package embeds it; runCases refuses a case without a
// reason, because an unexplained number cannot be reviewed.
type why struct{ name, reason string }

func (w why) caseInfo() why { return w }

type namedCase interface{ caseInfo() why }

// checkCases reports the first case without a name or a reason, or with a
// duplicate name (t.Run would silently rename it).
func checkCases[C namedCase](cases []C) error {
	return casetest.Problem(cases, caseOf[C])
}

func caseOf[C namedCase](c C) casetest.Case {
	w := c.caseInfo()
	return casetest.Case{Name: w.name, Why: w.reason}
}

// runCases runs fn for every case as a subtest and prints the case's reason
// when it fails.
func runCases[C namedCase](t *testing.T, cases []C, fn func(t *testing.T, c C)) {
	t.Helper()
	casetest.Run(t, cases, caseOf[C], fn)
}

func TestCheckCasesRefusesUnexplainedCases(t *testing.T) {
	type c struct{ why }
	for _, tc := range []struct {
		cases []c
		ok    bool
	}{
		{[]c{{why{"a", "because"}}}, true},
		{[]c{{why{"a", ""}}}, false},
		{[]c{{why{"", "because"}}}, false},
		{[]c{{why{"a", "x"}}, {why{"a", "y"}}}, false},
	} {
		if err := checkCases(tc.cases); (err == nil) != tc.ok {
			t.Errorf("checkCases(%v) = %v, want ok=%v", tc.cases, err, tc.ok)
		}
	}
}

// t0 is an arbitrary base time; ReplicaSets are created at t0 + minutes.
var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

func minute(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }

func intv(i int32) *model.IntOrString  { v := model.FromInt(i); return &v }
func strv(s string) *model.IntOrString { v := model.FromString(s); return &v }

// rolling returns a RollingUpdate Deployment with D replicas and the given
// fenceposts (nil means unset).
func rolling(replicas int32, maxSurge, maxUnavailable *model.IntOrString) *model.Deployment {
	return &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "foo", Namespace: "ns", UID: "uid-foo"},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(replicas),
			Strategy: model.Strategy{
				Type:          model.RollingUpdateStrategy,
				RollingUpdate: &model.RollingUpdate{MaxSurge: maxSurge, MaxUnavailable: maxUnavailable},
			},
		},
	}
}

func recreate(replicas int32) *model.Deployment {
	return &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "foo", Namespace: "ns", UID: "uid-foo"},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(replicas),
			Strategy: model.Strategy{Type: model.RecreateStrategy},
		},
	}
}

// replicaSet returns a ReplicaSet with spec.replicas and
// status.availableReplicas both set to replicas.
func replicaSet(name string, replicas int32, created time.Time) *model.ReplicaSet {
	return &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{Name: name, Namespace: "ns", UID: "uid-" + name, CreationTimestamp: created},
		Spec:       model.ReplicaSetSpec{Replicas: model.Int32Ptr(replicas)},
		Status:     model.ReplicaSetStatus{Replicas: replicas, AvailableReplicas: replicas},
	}
}

// annotate sets the replica annotations the controller would have written
// when sizing rs for a Deployment of desired replicas with the given surge.
func annotate(rs *model.ReplicaSet, desired, maxReplicas int32) *model.ReplicaSet {
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	rs.Annotations[model.DesiredReplicasAnnotation] = strconv.Itoa(int(desired))
	rs.Annotations[model.MaxReplicasAnnotation] = strconv.Itoa(int(maxReplicas))
	return rs
}

func names(rss []*model.ReplicaSet) []string {
	out := make([]string, len(rss))
	for i, rs := range rss {
		if rs == nil {
			out[i] = "<nil>"
			continue
		}
		out[i] = rs.Name
	}
	return out
}

// cmpEmpty treats nil and empty slices as equal.
var cmpEmpty = cmpopts.EquateEmpty()
