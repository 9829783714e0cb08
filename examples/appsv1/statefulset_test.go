package appsv1_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	core "k8s.io/api/core/v1"
)

// TestStatefulSetImagePullPolicy pins the image pull policy defaulting of
// upstream SetDefaults_Container (ParseImageName: an untagged reference has
// tag "latest"; one that does not parse defaults to IfNotPresent).
func TestStatefulSetImagePullPolicy(t *testing.T) {
	for _, c := range []struct {
		image string
		want  core.PullPolicy
	}{
		{"nginx", core.PullAlways},
		{"nginx:latest", core.PullAlways},
		{"nginx:1.25", core.PullIfNotPresent},
		{"registry.example.com:5000/team/app:latest", core.PullAlways},
		{"registry.example.com:5000/team/app", core.PullAlways},
		{"localhost/app", core.PullAlways},
		{"app@sha256:" + string(make64('a')), core.PullIfNotPresent},
		{"app:latest@sha256:" + string(make64('b')), core.PullAlways},
		{"Nginx", core.PullIfNotPresent},                          // upper case: does not parse
		{"app@md5:" + string(make64('c')), core.PullIfNotPresent}, // unknown digest
		{string(make64('d')), core.PullIfNotPresent},              // an image ID
		{"", core.PullIfNotPresent},
	} {
		tmpl := core.PodTemplateSpec{Spec: core.PodSpec{Containers: []core.Container{{Name: "c", Image: c.image}}}}
		appsv1.DefaultPodTemplate(&tmpl)
		assert.Equal(t, c.want, tmpl.Spec.Containers[0].ImagePullPolicy, c.image)
	}
}

func make64(c byte) []byte {
	b := make([]byte, 64)
	for i := range b {
		b[i] = c
	}
	return b
}

// TestStatefulSetTemplateDefaultsRecorded checks the defaulting on the
// recordings: every recorded set template, which the API server defaulted,
// is left unchanged, and the revisions recorded without defaulted fields
// (sts-s1-0003, sts-s1-0103, sts-s1-0111, sts-s1-0184) default to their
// set's template.
func TestStatefulSetTemplateDefaultsRecorded(t *testing.T) {
	stale := map[string]bool{"sts-s1-0003": true, "sts-s1-0103": true, "sts-s1-0111": true, "sts-s1-0184": true}
	found := 0
	for _, l := range readStatefulSetSeeds(t) {
		var c appsv1.StatefulSetCase
		require.NoError(t, json.Unmarshal(l.Case, &c))
		set := c.StatefulSet.Spec.Template.DeepCopy()
		appsv1.DefaultPodTemplate(set)
		if d := cmp.Diff(&c.StatefulSet.Spec.Template, set); d != "" {
			t.Errorf("%s: defaulting changes the set's template:\n%s", l.Meta.ID, d)
		}
		if !stale[l.Meta.ID] {
			continue
		}
		want, err := appsv1.StatefulSetPatch(&c.StatefulSet.Spec.Template)
		require.NoError(t, err)
		for _, r := range c.ControllerRevisions {
			m, err := appsv1.ControllerRevisionToModel(r, nil)
			require.NoError(t, err)
			if string(r.Data.Raw) == string(want) {
				t.Errorf("%s: revision %s is not stale", l.Meta.ID, r.Name)
			}
			d, err := appsv1.StatefulSetTemplateDefaults(m.Template)
			require.NoError(t, err)
			got, err := appsv1.StatefulSetRevisionData(d)
			require.NoError(t, err)
			if got == string(want) {
				found++
			}
		}
	}
	assert.Equal(t, len(stale), found, "each stale revision defaults to its set's data")
}

// TestSyncStatefulSetLeavesStateUnchanged plans every recording and checks
// that the apps/v1 objects are not modified and that the Output is the
// caller's.
func TestSyncStatefulSetLeavesStateUnchanged(t *testing.T) {
	for _, l := range readStatefulSetSeeds(t) {
		var c appsv1.StatefulSetCase
		require.NoError(t, json.Unmarshal(l.Case, &c))
		before, err := json.Marshal(c)
		require.NoError(t, err)
		out, _, err := appsv1.SyncStatefulSet(c.State())
		if err != nil && out.Error == "" {
			t.Fatalf("%s: %v", l.Meta.ID, err)
		}
		for _, a := range out.Actions {
			if p, ok := a.Object.(*core.Pod); ok {
				p.Labels["changed"] = "yes"
				p.Spec.Containers[0].Image = "changed"
			}
		}
		after, err := json.Marshal(c)
		require.NoError(t, err)
		require.JSONEq(t, string(before), string(after), l.Meta.ID)
	}
}

// TestToStatefulSetOutputRejectsUnknownObjects: a plan naming objects the
// state does not hold cannot be rendered.
func TestToStatefulSetOutputRejectsUnknownObjects(t *testing.T) {
	seeds := readStatefulSetSeeds(t)
	var c appsv1.StatefulSetCase
	require.NoError(t, json.Unmarshal(seeds[0].Case, &c))
	for _, a := range []statefulset.Action{
		{Kind: statefulset.UpdatePod, Object: plan.ObjectRef{Namespace: "data", Name: "nope-0"}, PodUpdate: &statefulset.PodUpdate{}},
		{Kind: statefulset.UpdateClaim, Object: plan.ObjectRef{Namespace: "data", Name: "nope"}},
		{Kind: statefulset.UpdateControllerRevision, Object: plan.ObjectRef{Namespace: "data", Name: "nope"}, RevisionUpdate: &statefulset.RevisionUpdate{To: 2}},
		{Kind: statefulset.CreatePod, Object: plan.ObjectRef{Namespace: "data", Name: "mysql-0"}, Pod: &model.Pod{ObjectMeta: model.ObjectMeta{Name: "mysql-0"}}, Revision: "nope"},
		{Kind: statefulset.CreateClaim, Object: plan.ObjectRef{Namespace: "data", Name: "nope-mysql-0"}},
		{Kind: "Unknown"},
	} {
		_, err := appsv1.ToStatefulSetOutput(c.State(), statefulset.Plan{Actions: []statefulset.Action{a}})
		assert.Error(t, err, string(a.Kind))
	}
}

// BenchmarkSyncStatefulSetConformance plans and renders the 200 recorded
// StatefulSet syncs through the apps/v1 adapter (one op is one sync).
func BenchmarkSyncStatefulSetConformance(b *testing.B) {
	var states []appsv1.StatefulSetState
	for _, l := range readStatefulSetSeeds(b) {
		var c appsv1.StatefulSetCase
		if err := json.Unmarshal(l.Case, &c); err != nil {
			b.Fatal(err)
		}
		states = append(states, c.State())
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, _, err := appsv1.SyncStatefulSet(states[i%len(states)]); err != nil {
			var se *statefulset.SyncError
			if !errors.As(err, &se) {
				b.Fatal(err)
			}
		}
		i++
	}
}
