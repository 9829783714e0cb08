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

// dsWorld is one generated cluster state for a DaemonSet: the DaemonSet and
// the ControllerRevisions of the cluster, as the API server would return
// them.
type dsWorld struct {
	ds  *apps.DaemonSet
	crs []*apps.ControllerRevision
	// restartNow asks the test to set the template's restartedAt to the
	// current second just before kubectl's restarter runs (the
	// empty-patch branch).
	restartNow bool
}

// dsOddData are revision data kubectl treats specially: not JSON, not an
// object, null, without spec or spec.template (the DaemonSet's own
// template), a null spec or template or a "$patch":"delete" (the empty
// template), a spec or template of the wrong type and labels that are not
// strings (kubectl cannot decode the result).
var dsOddData = []string{
	`{"spec":`, `[]`, `"x"`, `null`, `{}`, `{"spec":{}}`, `{"spec":{"minReadySeconds":5}}`,
	`{"spec":null}`, `{"spec":{"template":null}}`, `{"spec":{"template":{"$patch":"delete"}}}`,
	`{"spec":7}`, `{"spec":{"template":"x"}}`, `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"a":1}}}}}`,
	`{"spec":{"template":{"$patch":"remove"}}}`,
}

// genDaemonSetWorld draws a state that reaches the branches of every
// kubectl helper for DaemonSets: RollingUpdate, OnDelete or no strategy
// type, observed or unobserved generations, pods not yet updated or not
// available, done; and for the history: none, revisions not owned, owned
// without being controlled, not selected or in another namespace,
// repeated revision numbers (more than twelve revisions at times, where
// Go's sort stops being an insertion sort), data as the controller writes
// it, re-indented (an equal template in other bytes) or odd (see
// dsOddData), a template with an integer beyond 2^53 (kept an integer on
// both sides for DaemonSets), a DaemonSet whose template equals a
// revision's, and nil, empty or expression selectors (not invalid ones:
// the API server refuses them, and the model words their errors its own
// way).
func genDaemonSetWorld(t *rapid.T) dsWorld {
	app := oneOf(t, "app", "fluentd", "node-exporter")
	name := app
	if rarely(t, "long-name", 5) {
		name = strings.Repeat("very-long-", 20) + app
	}
	pool := make([]core.PodTemplateSpec, rapid.IntRange(1, 3).Draw(t, "templates"))
	for i := range pool {
		pool[i] = genTemplate(t, fmt.Sprintf("t%d", i), app)
		if rarely(t, fmt.Sprintf("t%d-huge", i), 5) {
			v := hugeInt
			pool[i].Spec.ActiveDeadlineSeconds = &v
		}
	}
	ds := &apps.DaemonSet{
		TypeMeta: metav1.TypeMeta{Kind: "DaemonSet", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: "kube-system", UID: "uid-daemonset",
			Generation:        int64(rapid.IntRange(0, 4).Draw(t, "generation")),
			CreationTimestamp: metav1.NewTime(base),
			Labels:            map[string]string{"app": app},
		},
		Spec: apps.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}},
			Template: *pool[rapid.IntRange(0, len(pool)-1).Draw(t, "ds-template")].DeepCopy(),
		},
	}
	switch rapid.IntRange(0, 9).Draw(t, "strategy") {
	case 8:
		ds.Spec.UpdateStrategy.Type = apps.OnDeleteDaemonSetStrategyType
	case 9:
		// Not defaulted: as a client may hold it.
		ds.Spec.UpdateStrategy.Type = ""
	default:
		unavailable := intstr.FromInt32(1)
		surge := intstr.FromInt32(0)
		if chance(t, "surge", 30) {
			unavailable, surge = intstr.FromInt32(0), intstr.FromString("25%")
		}
		ds.Spec.UpdateStrategy = apps.DaemonSetUpdateStrategy{Type: apps.RollingUpdateDaemonSetStrategyType,
			RollingUpdate: &apps.RollingUpdateDaemonSet{MaxUnavailable: &unavailable, MaxSurge: &surge}}
	}
	switch {
	case rarely(t, "selector-nil", 3):
		ds.Spec.Selector = nil
	case rarely(t, "selector-empty", 3):
		ds.Spec.Selector = &metav1.LabelSelector{}
	case rarely(t, "selector-expr", 10):
		ds.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{app, "other"}}}}
	}
	ds.Annotations = map[string]string{"deprecated.daemonset.template.generation": fmt.Sprint(ds.Generation)}
	if chance(t, "ds-cause", 20) {
		ds.Annotations["kubernetes.io/change-cause"] = "kubectl apply"
	}
	st := &ds.Status
	st.ObservedGeneration = int64(rapid.IntRange(0, 4).Draw(t, "observed"))
	st.DesiredNumberScheduled = int32(rapid.IntRange(0, 5).Draw(t, "st-desired"))
	st.CurrentNumberScheduled = int32(rapid.IntRange(0, 5).Draw(t, "st-current"))
	st.UpdatedNumberScheduled = int32(rapid.IntRange(0, 5).Draw(t, "st-updated"))
	st.NumberReady = int32(rapid.IntRange(0, 5).Draw(t, "st-ready"))
	st.NumberAvailable = int32(rapid.IntRange(0, 5).Draw(t, "st-available"))
	st.NumberUnavailable = st.DesiredNumberScheduled - st.NumberAvailable
	st.NumberMisscheduled = int32(rapid.IntRange(0, 1).Draw(t, "st-misscheduled"))

	w := dsWorld{ds: ds, restartNow: chance(t, "restart-now", 5)}
	// Most states have some history; rapid favours small draws.
	n := 4 - rapid.IntRange(0, 4).Draw(t, "revisions")
	// A crowded history: more than twelve revisions of the DaemonSet
	// sharing three numbers, where sort.Sort leaves ties in an order only
	// the same sort reproduces.
	crowded := rarely(t, "crowded", 5)
	if crowded {
		n = rapid.IntRange(13, 16).Draw(t, "many")
	}
	for i := range n {
		w.crs = append(w.crs, genDaemonSetRevision(t, fmt.Sprintf("cr%d", i), i, ds, pool, crowded))
	}
	// Names are unique in a namespace.
	seen := map[string]bool{}
	for _, cr := range w.crs {
		for seen[cr.Namespace+"/"+cr.Name] {
			cr.Name += "x"
		}
		seen[cr.Namespace+"/"+cr.Name] = true
	}
	return w
}

// genDaemonSetRevision draws the i-th ControllerRevision of the world: a
// template of the pool recorded as the DaemonSet controller records it
// (appsv1.DaemonSetPatch, upstream's getPatch), re-indented, or odd data;
// a number from 1 to 5; and owners, labels and a namespace that keep it in
// or out of the DaemonSet's history. A crowded history's revisions all
// belong to the DaemonSet and are numbered 1 to 3.
func genDaemonSetRevision(t *rapid.T, l string, i int, ds *apps.DaemonSet, pool []core.PodTemplateSpec, crowded bool) *apps.ControllerRevision {
	tmpl := pool[rapid.IntRange(0, len(pool)-1).Draw(t, l+"-template")]
	data, err := appsv1.DaemonSetPatch(&tmpl)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case rarely(t, l+"-odd-data", 10):
		data = []byte(oneOf(t, l+"-data", dsOddData...))
	case rarely(t, l+"-indented", 5):
		var b bytes.Buffer
		if err := json.Indent(&b, data, "", "  "); err != nil {
			t.Fatal(err)
		}
		data = b.Bytes()
	}
	hash := fmt.Sprintf("%dh%d", 6+i, rapid.IntRange(0, 9).Draw(t, l+"-hash"))
	labels := map[string]string{"app": ds.Labels["app"], "controller-revision-hash": hash}
	if !crowded && rarely(t, l+"-unselected", 8) {
		labels["app"] = "other"
	}
	number := int64(rapid.IntRange(1, 5).Draw(t, l+"-revision"))
	if crowded {
		number = int64(rapid.IntRange(1, 3).Draw(t, l+"-revision-crowded"))
	}
	cr := &apps.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{
			Name:              fmt.Sprintf("%s-%s%s", ds.Name, oneOf(t, l+"-prefix", "a", "b", "c"), hash),
			Namespace:         ds.Namespace,
			UID:               types.UID(fmt.Sprintf("uid-cr-%d", i)),
			CreationTimestamp: metav1.NewTime(base),
			Labels:            labels,
		},
		Data:     runtime.RawExtension{Raw: data},
		Revision: number,
	}
	if !crowded && rarely(t, l+"-other-namespace", 5) {
		cr.Namespace = "default"
	}
	cr.OwnerReferences = drawRevisionOwner(t, l, ds, "DaemonSet", crowded)
	if chance(t, l+"-cause", 30) {
		cr.Annotations = map[string]string{"kubernetes.io/change-cause": genText(t, l+"-cause-text")}
	}
	return cr
}

// drawDaemonSetRevision draws the revision asked for: often one a
// ControllerRevision holds, so that rollbacks and matches are frequent,
// otherwise a small number (-1 included).
func drawDaemonSetRevision(t *rapid.T, w dsWorld) int64 {
	if len(w.crs) > 0 && !rarely(t, "rev-any", 30) {
		return w.crs[rapid.IntRange(0, len(w.crs)-1).Draw(t, "rev-known-index")].Revision
	}
	return int64(rapid.IntRange(-1, 6).Draw(t, "revision"))
}

// drawRevisionOwner draws the owner references of a generated
// ControllerRevision of owner (a kind object): controlled by owner most
// often, by another object of the kind, owned without being controlled
// (not owner's history), or none. A crowded history is always owner's.
func drawRevisionOwner(t *rapid.T, l string, owner metav1.Object, kind string, crowded bool) []metav1.OwnerReference {
	gvk := apps.SchemeGroupVersion.WithKind(kind)
	n := rapid.IntRange(0, 11).Draw(t, l+"-owner")
	if crowded {
		n = 0
	}
	switch n {
	case 9:
		return nil
	case 10:
		return []metav1.OwnerReference{*metav1.NewControllerRef(&metav1.ObjectMeta{Name: "other", UID: "uid-other"}, gvk)}
	case 11:
		ref := *metav1.NewControllerRef(owner, gvk)
		ref.Controller = nil
		return []metav1.OwnerReference{ref}
	}
	return []metav1.OwnerReference{*metav1.NewControllerRef(owner, gvk)}
}
