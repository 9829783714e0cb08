package kubectl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"
)

// stsWorld is one StatefulSet state: the set and the ControllerRevisions
// of the cluster, as the API server would return them.
type stsWorld struct {
	s    *apps.StatefulSet
	revs []*apps.ControllerRevision
	// restartNow asks for the template's restartedAt to be set to the
	// current second just before kubectl's restarter runs.
	restartNow bool
}

// hugeInt is above 2^53: the StatefulSet controller reads it back as a
// float64 when it records a revision, kubectl as an int64 when it compares
// one, so a revision of a template holding it never matches.
const hugeInt = int64(1)<<53 + 1

// genStatefulSetWorld draws a state that reaches every branch of kubectl's
// StatefulSet helpers: each update strategy (RollingUpdate with and
// without rollingUpdate and partitions, OnDelete, an empty type),
// unobserved generations, unready pods, partitions pending and complete,
// revisions that differ or agree; and for the history: none, revisions
// not owned, owned without being controlled, in another namespace or not
// selected, repeated revision numbers (more than twelve revisions at
// times, where Go's sort stops being an insertion sort), data as the
// controller writes it, re-indented (equal templates, different bytes) or
// without a template, a template with an integer beyond 2^53, and a set
// whose template equals a revision's.
func genStatefulSetWorld(t *rapid.T) stsWorld {
	app := oneOf(t, "app", "web", "db")
	name := app
	if rarely(t, "long-name", 5) {
		name = strings.Repeat("very-long-", 20) + app
	}
	pool := make([]core.PodTemplateSpec, rapid.IntRange(1, 3).Draw(t, "templates"))
	for i := range pool {
		pool[i] = genTemplate(t, fmt.Sprintf("t%d", i), app)
		if rarely(t, fmt.Sprintf("t%d-huge", i), 8) {
			v := hugeInt
			pool[i].Spec.ActiveDeadlineSeconds = &v
		}
	}
	s := &apps.StatefulSet{
		TypeMeta: metav1.TypeMeta{Kind: "StatefulSet", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: "default", UID: "uid-sts",
			Generation:        int64(rapid.IntRange(1, 4).Draw(t, "generation")),
			CreationTimestamp: metav1.NewTime(base),
			Labels:            map[string]string{"app": app},
		},
		Spec: apps.StatefulSetSpec{
			Selector:            &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}},
			Template:            *pool[rapid.IntRange(0, len(pool)-1).Draw(t, "s-template")].DeepCopy(),
			ServiceName:         app,
			PodManagementPolicy: oneOf(t, "policy", apps.OrderedReadyPodManagement, apps.ParallelPodManagement),
		},
	}
	switch {
	case rarely(t, "selector-nil", 3):
		s.Spec.Selector = nil
	case rarely(t, "selector-empty", 3):
		s.Spec.Selector = &metav1.LabelSelector{}
	case rarely(t, "selector-expr", 10):
		s.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{app, "other"}}}}
	}
	if !chance(t, "replicas-nil", 10) {
		r := int32(rapid.IntRange(0, 5).Draw(t, "replicas"))
		s.Spec.Replicas = &r
	}
	// rapid favours small draws, so the common case comes first.
	switch rapid.IntRange(0, 9).Draw(t, "strategy") {
	case 7:
		s.Spec.UpdateStrategy.Type = apps.RollingUpdateStatefulSetStrategyType
	case 8:
		s.Spec.UpdateStrategy.Type = apps.OnDeleteStatefulSetStrategyType
	case 9:
		// An empty type: kubectl refuses it as it refuses OnDelete.
	default:
		s.Spec.UpdateStrategy.Type = apps.RollingUpdateStatefulSetStrategyType
		ru := &apps.RollingUpdateStatefulSetStrategy{}
		if !chance(t, "partition-nil", 15) {
			p := int32(rapid.IntRange(-1, 6).Draw(t, "partition"))
			ru.Partition = &p
		}
		if chance(t, "max-unavailable", 20) {
			mu := intstr.FromInt32(2)
			ru.MaxUnavailable = &mu
		}
		s.Spec.UpdateStrategy.RollingUpdate = ru
	}
	if chance(t, "s-annotations", 30) {
		s.Annotations = map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"kind":"StatefulSet"}`}
	}

	w := stsWorld{s: s, restartNow: chance(t, "restart-now", 5)}
	n := 4 - rapid.IntRange(0, 4).Draw(t, "revisions")
	// A crowded history: more than twelve revisions of the set sharing
	// three numbers, where Go's sort.Sort is no longer an insertion sort
	// and leaves ties in an order only the same sort reproduces.
	crowded := rarely(t, "crowded", 5)
	if crowded {
		n = rapid.IntRange(13, 16).Draw(t, "many")
	}
	for i := range n {
		w.revs = append(w.revs, genRevisionObject(t, fmt.Sprintf("r%d", i), i, s, pool, crowded))
	}
	// Names are unique in a namespace.
	seen := map[string]bool{}
	for _, r := range w.revs {
		for seen[r.Namespace+"/"+r.Name] {
			r.Name += "x"
		}
		seen[r.Namespace+"/"+r.Name] = true
	}

	st := &s.Status
	if rarely(t, "generation-zero", 3) {
		// Never so on a server, but kubectl's test of an unobserved
		// status differs from the Deployment's here.
		s.Generation = 0
	}
	st.ObservedGeneration = int64(rapid.IntRange(0, 4).Draw(t, "observed"))
	if chance(t, "observed-current", 50) {
		st.ObservedGeneration = s.Generation
	}
	st.Replicas = int32(rapid.IntRange(0, 6).Draw(t, "st-replicas"))
	st.ReadyReplicas = int32(rapid.IntRange(0, 6).Draw(t, "st-ready"))
	if s.Spec.Replicas != nil && chance(t, "all-ready", 50) {
		st.ReadyReplicas = *s.Spec.Replicas
	}
	st.AvailableReplicas = int32(rapid.IntRange(0, 6).Draw(t, "st-available"))
	st.CurrentReplicas = int32(rapid.IntRange(0, 6).Draw(t, "st-current"))
	st.UpdatedReplicas = int32(rapid.IntRange(0, 6).Draw(t, "st-updated"))
	names := []string{""}
	for _, r := range w.revs {
		names = append(names, r.Name)
	}
	st.CurrentRevision = oneOf(t, "st-current-revision", names...)
	st.UpdateRevision = st.CurrentRevision
	if chance(t, "st-updating", 40) {
		st.UpdateRevision = oneOf(t, "st-update-revision", names...)
	}
	return w
}

// genRevisionObject draws the i-th ControllerRevision of the world: a
// template of the pool recorded as the controller records it (or
// re-indented, or with no template), a revision number that is usually
// i+1 but may repeat, and owners, labels and a namespace that keep it in
// or out of the set's history. A crowded history's revisions all belong to
// the set and are numbered 1 to 3.
func genRevisionObject(t *rapid.T, l string, i int, s *apps.StatefulSet, pool []core.PodTemplateSpec, crowded bool) *apps.ControllerRevision {
	tmpl := pool[rapid.IntRange(0, len(pool)-1).Draw(t, l+"-template")].DeepCopy()
	data, err := appsv1.StatefulSetPatch(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	switch rapid.IntRange(0, 19).Draw(t, l+"-data") {
	case 18:
		var b bytes.Buffer
		if err := json.Indent(&b, data, "", "  "); err != nil {
			t.Fatal(err)
		}
		data = b.Bytes()
	case 19:
		data = []byte(`{}`)
	}
	hash := fmt.Sprintf("%d%s", rapid.IntRange(5, 9).Draw(t, l+"-hash"), oneOf(t, l+"-hash-suffix", "b", "c", "d"))
	number := int64(i + 1)
	switch {
	case crowded:
		number = int64(rapid.IntRange(1, 3).Draw(t, l+"-number-crowded"))
	case rarely(t, l+"-number", 25):
		number = int64(rapid.IntRange(0, 4).Draw(t, l+"-number-value"))
	}
	labels := map[string]string{"app": s.Labels["app"], "controller.kubernetes.io/hash": hash}
	if !crowded && rarely(t, l+"-unselected", 8) {
		labels["app"] = "other"
	}
	r := &apps.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{
			Name: s.Name + "-" + hash, Namespace: "default",
			UID:               types.UID("uid-" + l),
			CreationTimestamp: metav1.NewTime(base),
			Labels:            labels,
		},
		Data:     runtime.RawExtension{Raw: data},
		Revision: number,
	}
	if !crowded && rarely(t, l+"-namespace", 5) {
		r.Namespace = "other"
	}
	r.OwnerReferences = drawRevisionOwner(t, l, s, "StatefulSet", crowded)
	if chance(t, l+"-annotations", 40) {
		r.Annotations = map[string]string{}
		if chance(t, l+"-cause", 70) {
			r.Annotations["kubernetes.io/change-cause"] = genText(t, l+"-cause-text")
		}
		if chance(t, l+"-team", 30) {
			r.Annotations["team"] = "storage"
		}
	}
	return r
}
