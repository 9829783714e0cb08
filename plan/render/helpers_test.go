package render_test

import (
	"fmt"
	"maps"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/internal/casetest"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// why names a table case and says, in one line, where its expected values
// come from; runCases refuses a case without one.
type why struct{ name, reason string }

func (w why) caseInfo() why { return w }

type namedCase interface{ caseInfo() why }

func runCases[C namedCase](t *testing.T, cases []C, fn func(t *testing.T, c C)) {
	t.Helper()
	casetest.Run(t, cases, func(c C) casetest.Case {
		w := c.caseInfo()
		return casetest.Case{Name: w.name, Why: w.reason}
	}, fn)
}

// t0 is the clock of the tests; objects are created relative to it.
var t0 = time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

const ns = "default"

func i32(v int32) *int32 { return &v }

// tmpl is the pod template of version v of app.
func tmpl(app, v string) model.PodTemplate {
	return model.PodTemplate{
		Labels: map[string]string{"app": app},
		Spec:   `{"containers":[{"image":"` + app + `:` + v + `","name":"` + app + `"}]}`,
	}
}

type depOpt func(*model.Deployment)

// newDeployment returns a defaulted RollingUpdate (25%/25%) Deployment
// name/default with uid "uid-<name>", generation 1, selector {app: name}
// and the template of version v.
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

func generation(g int64) depOpt { return func(d *model.Deployment) { d.Generation = g } }

func revisionAnn(rev int) depOpt {
	return func(d *model.Deployment) {
		if d.Annotations == nil {
			d.Annotations = map[string]string{}
		}
		d.Annotations[model.RevisionAnnotation] = strconv.Itoa(rev)
	}
}

func withStatus(st model.DeploymentStatus) depOpt {
	return func(d *model.Deployment) { d.Status = st }
}

func depStatus(obsGen int64, replicas, updated, ready, available, unavailable int32, conds ...model.DeploymentCondition) model.DeploymentStatus {
	return model.DeploymentStatus{
		ObservedGeneration: obsGen, Replicas: replicas, UpdatedReplicas: updated, ReadyReplicas: ready,
		AvailableReplicas: available, UnavailableReplicas: unavailable, TerminatingReplicas: i32(0), Conditions: conds,
	}
}

func availableCond(ts time.Time) model.DeploymentCondition {
	return model.DeploymentCondition{Type: model.DeploymentAvailable, Status: model.ConditionTrue, Reason: model.ReasonMinimumReplicasAvailable,
		Message: "Deployment has minimum availability.", LastUpdateTime: ts, LastTransitionTime: ts}
}

var completeCond = model.DeploymentCondition{Type: model.DeploymentProgressing, Status: model.ConditionTrue, Reason: model.ReasonNewReplicaSetAvailable,
	Message: `ReplicaSet "web-v2" has successfully progressed.`, LastUpdateTime: at(-time.Hour), LastTransitionTime: at(-time.Hour)}

// newRS returns the ReplicaSet of version v of d: named <d>-<v>, hash label
// v, controlled by d, revision rev, desired-replicas and max-replicas
// annotations of d's replicas (and 25% surge, rounded up), spec replicas
// spec and a status with spec pods, all available and observed.
func newRS(d *model.Deployment, v string, rev int, spec int32, created time.Time) *model.ReplicaSet {
	t := tmpl(d.Name, v)
	t.Labels[model.PodTemplateHashLabel] = v
	name := d.Name + "-" + v
	desired := d.DesiredReplicas()
	return &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{
			Name: name, Namespace: ns, UID: "uid-" + name, ResourceVersion: "rv-" + name, Generation: 1, CreationTimestamp: created,
			Labels: maps.Clone(t.Labels),
			Annotations: map[string]string{
				model.RevisionAnnotation:        strconv.Itoa(rev),
				model.DesiredReplicasAnnotation: strconv.Itoa(int(desired)),
				model.MaxReplicasAnnotation:     strconv.Itoa(int(desired + (desired+3)/4)),
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

// bareRS is a ReplicaSet with only a name, a UID, a size and a status.
func bareRS(name string, spec, available int32, created time.Time) *model.ReplicaSet {
	return &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{Name: name, Namespace: ns, UID: "uid-" + name, CreationTimestamp: created},
		Spec:       model.ReplicaSetSpec{Replicas: i32(spec)},
		Status:     model.ReplicaSetStatus{Replicas: spec, ReadyReplicas: available, AvailableReplicas: available},
	}
}

// fixedHash is a hasher that ignores the template, so tests know the name
// of the ReplicaSet a sync creates.
func fixedHash(base string) plan.Option {
	return plan.WithHasher(func(_ model.PodTemplate, cc *int32) string {
		if cc == nil {
			return base
		}
		return base + strconv.Itoa(int(*cc))
	})
}

// mustSync plans s, failing the test on any error.
func mustSync(t *testing.T, s plan.State, opts ...plan.Option) plan.Plan {
	t.Helper()
	p, err := plan.Sync(s, opts...)
	require.NoError(t, err)
	return p
}

// mustRender renders p against s, failing the test on an error.
func mustRender(t *testing.T, s plan.State, p plan.Plan) []render.Write {
	t.Helper()
	ws, err := render.Writes(s, p)
	require.NoError(t, err)
	return ws
}

// summary renders writes as "Kind name [replicas=n] [conflict]".
func summary(ws []render.Write) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		s := string(w.Kind) + " " + w.Name
		if w.ReplicaSet != nil {
			s += fmt.Sprintf(" replicas=%d", w.ReplicaSet.SpecReplicas())
		}
		if w.Conflict {
			s += " conflict"
		}
		out = append(out, s)
	}
	return out
}
