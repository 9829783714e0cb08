package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// validationSeed fixes the generated objects of TestValidationAgreesWithServer.
const validationSeed = 20261128

// validationKinds are the kinds generated, perKind objects of each.
var validationKinds = []string{"Deployment", "ReplicaSet", "Pod", "StatefulSet", "DaemonSet"}

const perKind = 160

// Pools of values on both sides of the rules model.Validate shares with the
// API server (upstream's ValidateObjectMeta, ValidateOwnerReferences,
// validateContainers, validateInitContainers, validateContainerCommon,
// validateContainersOnlyForPod and the workload templates' restart policy
// rule).
var (
	objectNames = []string{"web", "web.prod-1", "a", strings.Repeat("a", 253),
		strings.Repeat("a", 254), "Web", "web_1", "-web", "web-", "web..prod", "web prod", "web.-x"}
	containerNames = []string{"web", "side-car", "a1", strings.Repeat("c", 63),
		strings.Repeat("c", 64), "Web", "web.1", "web_1", "-web", "web-", "", "1web"}
	images          = []string{"nginx:1.27", "registry.example.com/web@sha256:0123", "", " ", " nginx", "nginx "}
	restartPolicies = []core.RestartPolicy{"", core.RestartPolicyAlways, core.RestartPolicyOnFailure, core.RestartPolicyNever, "Sometimes"}
)

// indexes matches the list indexes of a field path ("[0]").
var indexes = regexp.MustCompile(`\[[0-9]+\]`)

// generated is one object to send: its kind, what was changed from a valid
// base (for messages) and the object.
type generated struct {
	kind    string
	changes []string
	// obj is a *apps.Deployment, *apps.ReplicaSet, *core.Pod,
	// *apps.StatefulSet or *apps.DaemonSet. The workloads carry the
	// defaults the API server would set (strategy, history limit, …), so
	// that the adapter's Syncers, which expect objects as the server
	// returns them, can read them as sent.
	obj any
}

// genObjects returns n objects of each kind: a valid base changed by zero
// to three random edits, each drawn from the pools above.
func genObjects(r *rand.Rand, n int) []generated {
	var out []generated
	for _, kind := range validationKinds {
		for i := range n {
			meta := metav1.ObjectMeta{Name: fmt.Sprintf("obj-%d", i), Labels: map[string]string{"app": "web"}}
			spec := core.PodSpec{Containers: []core.Container{{Name: "web", Image: "nginx:1.27"}}}
			tmplLabels := map[string]string{"app": "web"}
			var changes []string
			for range r.IntN(4) {
				if r.IntN(12) == 0 {
					tmplLabels = map[string]string{"app": "other"}
					changes = append(changes, "template labels do not match the selector")
					continue
				}
				changes = append(changes, mutate(r, &meta, &spec))
			}
			g := generated{kind: kind, changes: changes}
			tmpl := core.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: tmplLabels}, Spec: spec}
			sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
			pct := intstr.FromString("25%")
			switch kind {
			case "Deployment":
				g.obj = &apps.Deployment{ObjectMeta: meta, Spec: apps.DeploymentSpec{
					Replicas: new(int32(2)), Selector: sel, Template: tmpl,
					Strategy:             apps.DeploymentStrategy{Type: apps.RollingUpdateDeploymentStrategyType, RollingUpdate: &apps.RollingUpdateDeployment{MaxSurge: &pct, MaxUnavailable: &pct}},
					RevisionHistoryLimit: new(int32(10)), ProgressDeadlineSeconds: new(int32(600)),
				}}
			case "ReplicaSet":
				g.obj = &apps.ReplicaSet{ObjectMeta: meta, Spec: apps.ReplicaSetSpec{Replicas: new(int32(2)), Selector: sel, Template: tmpl}}
			case "StatefulSet":
				g.obj = &apps.StatefulSet{ObjectMeta: meta, Spec: apps.StatefulSetSpec{
					Replicas: new(int32(2)), Selector: sel, Template: tmpl,
					PodManagementPolicy:  apps.OrderedReadyPodManagement,
					UpdateStrategy:       apps.StatefulSetUpdateStrategy{Type: apps.RollingUpdateStatefulSetStrategyType, RollingUpdate: &apps.RollingUpdateStatefulSetStrategy{Partition: new(int32(0))}},
					RevisionHistoryLimit: new(int32(10)),
					PersistentVolumeClaimRetentionPolicy: &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
						WhenDeleted: apps.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: apps.RetainPersistentVolumeClaimRetentionPolicyType},
				}}
			case "DaemonSet":
				one, zero := intstr.FromInt32(1), intstr.FromInt32(0)
				g.obj = &apps.DaemonSet{ObjectMeta: meta, Spec: apps.DaemonSetSpec{
					Selector: sel, Template: tmpl,
					UpdateStrategy:       apps.DaemonSetUpdateStrategy{Type: apps.RollingUpdateDaemonSetStrategyType, RollingUpdate: &apps.RollingUpdateDaemonSet{MaxUnavailable: &one, MaxSurge: &zero}},
					RevisionHistoryLimit: new(int32(10)),
				}}
			default:
				g.obj = &core.Pod{ObjectMeta: meta, Spec: spec}
			}
			out = append(out, g)
		}
	}
	return out
}

// mutate applies one random edit and says what it did.
func mutate(r *rand.Rand, meta *metav1.ObjectMeta, spec *core.PodSpec) string {
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	switch r.IntN(9) {
	case 0:
		meta.Name = pick(objectNames)
		return fmt.Sprintf("name %q", meta.Name)
	case 1:
		spec.Containers = nil
		return "no containers"
	case 2:
		spec.RestartPolicy = restartPolicies[r.IntN(len(restartPolicies))]
		return fmt.Sprintf("restartPolicy %q", spec.RestartPolicy)
	case 3:
		if len(spec.Containers) == 0 {
			return "image (no container)"
		}
		c := &spec.Containers[r.IntN(len(spec.Containers))]
		c.Image = pick(images)
		return fmt.Sprintf("container %q image %q", c.Name, c.Image)
	case 4:
		if len(spec.Containers) == 0 {
			return "container name (no container)"
		}
		c := &spec.Containers[r.IntN(len(spec.Containers))]
		c.Name = pick(containerNames)
		return fmt.Sprintf("container name %q", c.Name)
	case 5:
		c := core.Container{Name: pick(containerNames[:4]), Image: pick(images[:2])}
		spec.Containers = append(spec.Containers, c)
		return fmt.Sprintf("container %q added", c.Name)
	case 6:
		c := core.Container{Name: pick(containerNames[:4]), Image: pick(images)}
		spec.InitContainers = append(spec.InitContainers, c)
		return fmt.Sprintf("init container %q image %q added", c.Name, c.Image)
	case 7:
		// One to three references, each the controller or not: two
		// controllers are refused.
		var ctl []bool
		for range 1 + r.IntN(3) {
			n := len(meta.OwnerReferences)
			ref := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: fmt.Sprintf("owner-%d", n), UID: types.UID(fmt.Sprintf("uid-%d", n))}
			if r.IntN(2) == 0 {
				ref.Controller = new(true)
			}
			meta.OwnerReferences = append(meta.OwnerReferences, ref)
			ctl = append(ctl, ref.Controller != nil)
		}
		return fmt.Sprintf("owner references added (controller %v)", ctl)
	default:
		ref := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "owner", UID: "uid-owner"}
		var what string
		switch r.IntN(8) {
		case 0:
			ref.APIVersion, what = "", "without apiVersion"
		case 1:
			ref.APIVersion, what = "apps/", "with apiVersion apps/"
		case 2:
			ref.APIVersion, what = "a/b/v1", "with apiVersion a/b/v1"
		case 3:
			ref.Kind, what = "", "without kind"
		case 4:
			ref.Name, what = "", "without name"
		case 5:
			ref.UID, what = "", "without uid"
		case 6:
			ref.APIVersion, ref.Kind, what = "v1", "Event", "naming a v1 Event"
		default:
			ref.APIVersion, ref.Kind, what = "events.k8s.io/v1", "Event", "naming an events.k8s.io Event"
		}
		meta.OwnerReferences = append(meta.OwnerReferences, ref)
		return "owner reference " + what
	}
}

// dryRunCreate sends g to the server with dryRun=All.
func dryRunCreate(ctx context.Context, ns string, g generated) error {
	dry := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
	var err error
	switch o := g.obj.(type) {
	case *apps.Deployment:
		_, err = client.AppsV1().Deployments(ns).Create(ctx, o, dry)
	case *apps.ReplicaSet:
		_, err = client.AppsV1().ReplicaSets(ns).Create(ctx, o, dry)
	case *core.Pod:
		_, err = client.CoreV1().Pods(ns).Create(ctx, o, dry)
	case *apps.StatefulSet:
		_, err = client.AppsV1().StatefulSets(ns).Create(ctx, o, dry)
	case *apps.DaemonSet:
		_, err = client.AppsV1().DaemonSets(ns).Create(ctx, o, dry)
	default:
		err = fmt.Errorf("unknown object %T", g.obj)
	}
	return err
}

// stored sets what the server assigns to a created object (namespace, UID,
// resourceVersion) on a copy of g's object.
func stored(ns string, i int, g generated) any {
	set := func(m *metav1.ObjectMeta) {
		m.Namespace, m.UID, m.ResourceVersion = ns, types.UID(fmt.Sprintf("uid-generated-%d", i)), "1"
	}
	switch o := g.obj.(type) {
	case *apps.Deployment:
		o = o.DeepCopy()
		set(&o.ObjectMeta)
		return o
	case *apps.ReplicaSet:
		o = o.DeepCopy()
		set(&o.ObjectMeta)
		return o
	case *core.Pod:
		o = o.DeepCopy()
		set(&o.ObjectMeta)
		return o
	case *apps.StatefulSet:
		o = o.DeepCopy()
		set(&o.ObjectMeta)
		return o
	case *apps.DaemonSet:
		o = o.DeepCopy()
		set(&o.ObjectMeta)
		return o
	}
	return nil
}

// validateModel converts obj (stored) through the adapter, defaults it as
// the server would (the model's defaulting) and validates it with the
// model's function for its kind.
func validateModel(obj any) error {
	switch o := obj.(type) {
	case *apps.Deployment:
		d, err := appsv1.DeploymentToModel(o)
		if err != nil {
			return err
		}
		return model.ValidateDeployment(model.Default(d))
	case *apps.ReplicaSet:
		rs, err := appsv1.ReplicaSetToModel(o)
		if err != nil {
			return err
		}
		return model.ValidateReplicaSet(model.DefaultReplicaSet(rs))
	case *core.Pod:
		p, err := appsv1.PodToModel(o)
		if err != nil {
			return err
		}
		return model.ValidatePod(p)
	case *apps.StatefulSet:
		s, err := appsv1.StatefulSetModel(o)
		if err != nil {
			return err
		}
		return model.ValidateStatefulSet(model.DefaultStatefulSet(s))
	case *apps.DaemonSet:
		ds, err := appsv1.DaemonSetToModel(o)
		if err != nil {
			return err
		}
		return model.ValidateDaemonSet(model.DefaultDaemonSet(ds))
	}
	return fmt.Errorf("unknown object %T", obj)
}

// syncers are the adapter's Syncers, each shared by every object of its
// kind as a controller's is by every object it plans.
type syncers struct {
	d  appsv1.Syncer
	ss appsv1.StatefulSetSyncer
	ds appsv1.DaemonSetSyncer
}

// baseDeployment is the valid Deployment a generated ReplicaSet is planned
// with (it selects app=web, as the ReplicaSets do).
func baseDeployment(ns string) *apps.Deployment {
	for _, g := range genObjects(rand.New(rand.NewPCG(0, 0)), 1) {
		if d, ok := g.obj.(*apps.Deployment); ok {
			d = stored(ns, -1, generated{obj: d}).(*apps.Deployment)
			d.Name, d.OwnerReferences = "base", nil
			d.Spec.Template = core.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: core.PodSpec{Containers: []core.Container{{Name: "web", Image: "nginx:1.27"}}}}
			return d
		}
	}
	return nil
}

// syncerRefuses plans obj (stored) through its kind's Syncer, which checks
// each template once per object version and tells the planner so, and
// reports whether the planner refused the state as invalid. A ReplicaSet
// is planned with a valid Deployment; a pod is not planned (false, false):
// the planners never read a pod's spec, and the Syncers leave its body
// empty.
func (sy *syncers) syncerRefuses(ns string, obj any, now time.Time) (refused, planned bool) {
	var err error
	switch o := obj.(type) {
	case *apps.Deployment:
		_, _, err = sy.d.Sync(appsv1.State{Now: now, Deployment: o})
	case *apps.ReplicaSet:
		_, _, err = sy.d.Sync(appsv1.State{Now: now, Deployment: baseDeployment(ns), ReplicaSets: []*apps.ReplicaSet{o}})
	case *apps.StatefulSet:
		_, _, err = sy.ss.Sync(appsv1.StatefulSetState{Now: now, StatefulSet: o})
	case *apps.DaemonSet:
		_, _, err = sy.ds.Sync(appsv1.DaemonSetState{Now: now, DaemonSet: o})
	default:
		return false, false
	}
	return errors.Is(err, model.ErrInvalid), true
}

// TestValidationAgreesWithServer sends seeded, generated Deployments,
// ReplicaSets, Pods, StatefulSets and DaemonSets, valid and invalid by the
// rules model.Validate shares with the API server, to kube-apiserver with
// dryRun=All, and requires the model (through the adapter's conversion)
// to refuse exactly what the server refuses; and the adapter's Syncers,
// which check each template once per version, to refuse the same
// workloads (on their first and, cached, second sight of each).
func TestValidationAgreesWithServer(t *testing.T) {
	ctx, ns := setup(t)
	objs := genObjects(rand.New(rand.NewPCG(validationSeed, 0)), perKind)
	now := time.Now()
	var sy syncers
	agree, refused, syncerAgree, syncerChecked := 0, 0, 0, 0
	reached := map[string]bool{} // fields of the server's refusals, indexes removed
	for i, g := range objs {
		serverErr := dryRunCreate(ctx, ns, g)
		if serverErr != nil && !apierrors.IsInvalid(serverErr) {
			t.Fatalf("object %d (%s, %v): the server failed other than by refusing it: %v", i, g.kind, g.changes, serverErr)
		}
		var status apierrors.APIStatus
		if errors.As(serverErr, &status) && status.Status().Details != nil {
			for _, c := range status.Status().Details.Causes {
				reached[g.kind+" "+indexes.ReplaceAllString(c.Field, "")] = true
			}
		}
		if serverErr != nil {
			refused++
		}
		obj := stored(ns, i, g)
		modelErr := validateModel(obj)
		if (serverErr == nil) == (modelErr == nil) {
			agree++
		} else {
			t.Errorf("object %d (%s, changes %q): server %v; model %v", i, g.kind, g.changes, serverErr, modelErr)
		}
		for sight := range 2 {
			syncerRefused, planned := sy.syncerRefuses(ns, obj, now)
			if !planned {
				break
			}
			syncerChecked++
			if syncerRefused == (serverErr != nil) {
				syncerAgree++
				continue
			}
			t.Errorf("object %d (%s, changes %q), sight %d: server %v; Syncer refused %v", i, g.kind, g.changes, sight, serverErr, syncerRefused)
		}
	}
	t.Logf("model.Validate: %d of %d generated objects agree with kube-apiserver %s (%d refused by the server)", agree, len(objs), "v1.36.3", refused)
	t.Logf("Syncers: %d of %d plans of the workloads agree", syncerAgree, syncerChecked)
	require.Equal(t, len(objs), agree, "objects on which model.Validate and the server agree")
	require.Equal(t, syncerChecked, syncerAgree, "plans on which the Syncers and the server agree")
	// The generator must reach every rule, and both sides of the rules.
	var want []string
	for _, f := range []string{"metadata.name", "metadata.ownerReferences", "metadata.ownerReferences.apiVersion",
		"metadata.ownerReferences.kind", "metadata.ownerReferences.name", "metadata.ownerReferences.uid"} {
		for _, kind := range validationKinds {
			want = append(want, kind+" "+f)
		}
	}
	for _, kind := range []string{"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"} {
		for _, f := range []string{"containers", "containers.name", "containers.image", "initContainers.name", "initContainers.image", "restartPolicy"} {
			want = append(want, kind+" spec.template.spec."+f)
		}
		want = append(want, kind+" spec.template.metadata.labels")
	}
	for _, f := range []string{"containers", "containers.name", "containers.image", "initContainers.name", "initContainers.image", "restartPolicy"} {
		want = append(want, "Pod spec."+f)
	}
	var missing []string
	for _, f := range want {
		if !reached[f] {
			missing = append(missing, f)
		}
	}
	require.Empty(t, missing, "rules no generated object broke; the server refused for %v", slices.Sorted(maps.Keys(reached)))
	require.Greater(t, refused, len(objs)/4, "objects the server refused")
	require.Less(t, refused, 3*len(objs)/4, "objects the server refused")
}
