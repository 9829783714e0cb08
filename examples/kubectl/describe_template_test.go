package kubectl

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
	apps "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/polymorphichelpers"
	"pgregory.net/rapid"
)

// The tests below compare rollout.DescribeTemplate, through the views that
// print it (history --revision=N and undo --dry-run=client), with kubectl
// v0.36.3's own history viewers and rollbackers, on Deployments,
// StatefulSets and DaemonSets whose revisions hold templates drawn by
// genFullTemplate. Where kubectl's describer crashes (a field the API
// server defaults left unset), the rollout function must refuse with
// rollout.ErrUnsupported.

// fullTemplateFeatures are parts of kubectl's template description the
// drawn templates must reach: every volume kind, every container part, the
// selector forms of topology spread constraints, resolved resource fields
// and the claim template layout of ephemeral volumes.
var fullTemplateFeatures = []string{
	"HostPath (bare", "EmptyDir (a temporary", "GCEPersistentDisk (", "AWSElasticBlockStore (", "GitRepo (", "Secret (a volume",
	"ConfigMap (a volume", "NFS (", "ISCSI (", "Glusterfs (", "PersistentVolumeClaim (a reference", "EphemeralVolume (", "RBD (",
	"Quobyte (", "DownwardAPI (", "AzureDisk (", "vSphereVolume (", "Cinder (", "PhotonPersistentDisk (", "PortworxVolume (",
	"ScaleIO (", "CephFS (", "StorageOS (", "FC (", "AzureFile (", "FlexVolume (", "Flocker (", "Projected (", "CSI (", "Image (a container",
	"  <unknown>\n", "Path:\t/first\n",
	"SecretRef:\t&LocalObjectReference{Name:creds,}", "SecretRef:\tnil", "Options:\tmap[", "Portals:\t[", "LUN:\t<none>", "InitiatorName:\t<none>",
	"SizeLimit:\t<unset>", "SizeLimit:\t1Gi", "TokenExpirationSeconds:\t", "DownwardAPI:\ttrue", "ConfigMapName:\t", "SecretName:\ts1",
	"VolumeAttributes:\t<none>", "VolumeAttributes:\t    a-long=", "...\n", "metadata.labels -> labels", "limits.cpu -> cpu_limit",
	"    StorageClass:\tfast", "    Labels:\t    <none>", "    Annotations:\t    <none>", "\n        \t    type=scratch",
	"    Capacity:\t0\n", "    VolumeMode:\tBlock", "    DataSource:\n", "      APIGroup:\t",
	"\n    \t    volume.beta.kubernetes.io/storage-class:",
	"  Topology Spread Constraints:\t", " for selector <none>", " for selector <error>", " in (", " notin (", "!", "app=web,tier=be",
	"  SchedulingGroup:\n", "  Init Containers:\n", "  Containers: <none>", "    Ports:\t", "    Host Ports:\t", "SeccompProfile:\tLocalhost",
	"SeccompProfile:\tUnconfined", "    Command:\n", "    Args:\n", "    Limits:\n", "    Requests:\n", "hugepages-2Mi:\t",
	"Liveness:\texec [", "Readiness:\thttp-get https://", "http-get http://[::1]:", "\ttcp-socket ", "\tgrpc <pod>:", "\tunknown delay=",
	"    Environment Variables from:\n", "with prefix 'P_'", "<set to the key 'k' in secret 's'>", "<set to the key 'k' of config map 'cm'>",
	" (v1:metadata.name)", "node allocatable (limits.cpu)", "node allocatable (limits.memory)", "(limits.ephemeral-storage)",
	"(requests.hugepages-2Mi)", ":\t (limits.example.com/gpu)", "    Mounts:\n", "    Devices:\n", "    Devices:\t<none>\n", `path="q\"uote"`,
	"  Priority Class Name:\thigh", "  Service Account:\trunner", "  Node-Selectors:\tdisktype=ssd", " op=Exists", " for 300s", "^[",
}

// featureTally counts the checks of one test, the kubectl crashes met and
// the features reached.
func featureTally(c *tally, out string) {
	for _, f := range fullTemplateFeatures {
		if strings.Contains(out, f) {
			c.hit(f)
		}
	}
}

// kubectlCrash runs f and returns what it panicked with, or nil.
func kubectlCrash(f func()) (crashed any) {
	defer func() { crashed = recover() }()
	f()
	return nil
}

// compareView compares one view of kubectl (run by theirs) with ours: equal
// outputs and errors, or, when kubectl's describer crashes, our refusal.
// crash is the reason the template shown should crash kubectl's
// describer, or empty.
func compareView(t *rapid.T, c *tally, name, crash string, theirs func() (string, error), ours func() (string, error)) {
	var want string
	var wantErr error
	p := kubectlCrash(func() { want, wantErr = theirs() })
	if (p != nil) != (crash != "") {
		t.Fatalf("%s: kubectl crashed with %v; the template drawn should crash it: %q", name, p, crash)
	}
	if p != nil {
		_, err := ours()
		if !errors.Is(err, rollout.ErrUnsupported) {
			t.Fatalf("%s: kubectl crashed (%v); ours returned %v, want an error matching ErrUnsupported", name, p, err)
		}
		c.hit("kubectl crashed, refused")
		return
	}
	got, err := ours()
	if got != want || errText(err) != errText(wantErr) {
		t.Fatalf("%s =\n%q, %q; kubectl\n%q, %q", name, got, errText(err), want, errText(wantErr))
	}
	featureTally(c, got)
}

// drawFullTemplates draws the templates of up to four revisions.
func drawFullTemplates(t *rapid.T, app string) []fullSpec {
	out := make([]fullSpec, rapid.IntRange(1, 4).Draw(t, "revisions"))
	for i := range out {
		out[i] = genFullTemplate(t, fmt.Sprintf("r%d", i+1), app)
	}
	return out
}

// TestDescribeTemplate draws a workload kind and the templates of its
// revisions, and compares both views of one revision with kubectl's.
func TestDescribeTemplate(t *testing.T) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		kind := oneOf(t, "kind", "Deployment", "StatefulSet", "DaemonSet")
		app := oneOf(t, "app", "web", "api")
		specs := drawFullTemplates(t, app)
		switch kind {
		case "Deployment":
			checkDeploymentViews(t, c, app, specs)
		case "StatefulSet":
			checkStatefulSetViews(t, c, app, specs)
		default:
			checkDaemonSetViews(t, c, app, specs)
		}
		c.hit(kind)
		c.checks++
	})
	c.verify(t, append([]string{"Deployment", "StatefulSet", "DaemonSet", "kubectl crashed, refused"}, fullTemplateFeatures...)...)
}

// checkDeploymentViews compares the views of a Deployment whose
// ReplicaSets hold specs as revisions 1 to len(specs).
func checkDeploymentViews(t *rapid.T, c *tally, app string, specs []fullSpec) {
	d := &apps.Deployment{
		TypeMeta: metav1.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{Name: app, Namespace: "default", UID: "uid-d", Generation: 1,
			CreationTimestamp: metav1.NewTime(base), Labels: map[string]string{"app": app},
			Annotations: map[string]string{"deployment.kubernetes.io/revision": fmt.Sprint(len(specs))}},
		Spec: apps.DeploymentSpec{
			Replicas: ptr(int32(1)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}},
			Template: *specs[len(specs)-1].tmpl.DeepCopy(),
		},
	}
	w := world{d: d}
	for i, s := range specs {
		hash := fmt.Sprintf("h%d", i+1)
		tmpl := s.tmpl.DeepCopy()
		tmpl.Labels["pod-template-hash"] = hash
		rs := &apps.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: app + "-" + hash, Namespace: "default", UID: types.UID("uid-rs-" + hash),
				CreationTimestamp: metav1.NewTime(base), Labels: map[string]string{"app": app, "pod-template-hash": hash},
				Annotations:     map[string]string{"deployment.kubernetes.io/revision": fmt.Sprint(i + 1)},
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, apps.SchemeGroupVersion.WithKind("Deployment"))}},
			Spec: apps.ReplicaSetSpec{Replicas: ptr(int32(0)), Template: *tmpl,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app, "pod-template-hash": hash}}},
		}
		w.rss = append(w.rss, rs)
	}
	m, err := convert(w.d, w.rss)
	if err != nil {
		t.Fatal(err)
	}
	rev := int64(rapid.IntRange(1, len(specs)).Draw(t, "revision"))
	compareView(t, c, fmt.Sprintf("HistoryRevision(%d)", rev), specs[rev-1].crash, func() (string, error) {
		hv, err := polymorphichelpers.HistoryViewerFor(deploymentKind, client(w))
		if err != nil {
			t.Fatal(err)
		}
		return hv.ViewHistory(d.Namespace, d.Name, rev)
	}, func() (string, error) { return rollout.HistoryRevision(m.d, m.rss, rev) })
	compareView(t, c, fmt.Sprintf("UndoDryRun(%d)", rev), specs[rev-1].crash, func() (string, error) {
		_, out, err := kubectlRollback(t, w, rev, cmdutil.DryRunClient)
		return out, err
	}, func() (string, error) { return rollout.UndoDryRun(m.d, m.rss, rev) })
}

// revisionObject is a ControllerRevision of owner numbered number, holding
// data.
func revisionObject(owner metav1.Object, kind string, ns string, labels map[string]string, name string, number int64, data []byte) *apps.ControllerRevision {
	return &apps.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: types.UID("uid-" + name),
			CreationTimestamp: metav1.NewTime(base), Labels: labels,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(owner, apps.SchemeGroupVersion.WithKind(kind))}},
		Data:     runtime.RawExtension{Raw: data},
		Revision: number,
	}
}

// checkStatefulSetViews compares the views of a StatefulSet whose
// ControllerRevisions hold specs as revisions 1 to len(specs).
func checkStatefulSetViews(t *rapid.T, c *tally, app string, specs []fullSpec) {
	s := &apps.StatefulSet{
		TypeMeta: metav1.TypeMeta{Kind: "StatefulSet", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{Name: app, Namespace: "default", UID: "uid-sts", Generation: 1,
			CreationTimestamp: metav1.NewTime(base), Labels: map[string]string{"app": app}},
		Spec: apps.StatefulSetSpec{
			Replicas:       ptr(int32(1)),
			Selector:       &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}},
			Template:       *specs[len(specs)-1].tmpl.DeepCopy(),
			ServiceName:    app,
			UpdateStrategy: apps.StatefulSetUpdateStrategy{Type: apps.RollingUpdateStatefulSetStrategyType},
		},
	}
	w := stsWorld{s: s}
	for i, spec := range specs {
		data, err := appsv1.StatefulSetPatch(spec.tmpl.DeepCopy())
		if err != nil {
			t.Fatal(err)
		}
		hash := fmt.Sprintf("h%d", i+1)
		w.revs = append(w.revs, revisionObject(s, "StatefulSet", s.Namespace,
			map[string]string{"app": app, "controller.kubernetes.io/hash": hash}, app+"-"+hash, int64(i+1), data))
	}
	m, err := convertStatefulSet(w)
	if err != nil {
		t.Fatal(err)
	}
	rev := int64(rapid.IntRange(1, len(specs)).Draw(t, "revision"))
	compareView(t, c, fmt.Sprintf("StatefulSetHistoryRevision(%d)", rev), specs[rev-1].crash, func() (string, error) {
		hv, err := polymorphichelpers.HistoryViewerFor(statefulSetKind, stsClient(w))
		if err != nil {
			t.Fatal(err)
		}
		return hv.ViewHistory(s.Namespace, s.Name, rev)
	}, func() (string, error) { return rollout.StatefulSetHistoryRevision(m.s, m.revs, rev) })
	compareView(t, c, fmt.Sprintf("StatefulSetUndoDryRun(%d)", rev), specs[rev-1].crash, func() (string, error) {
		out, _, patch, err := kubectlStatefulSetRollback(w, rev, cmdutil.DryRunClient)
		if patch != "" {
			t.Fatalf("kubectl patched in a client dry run: %s", patch)
		}
		return out, err
	}, func() (string, error) { return rollout.StatefulSetUndoDryRun(m.s, m.revs, rev) })
}

// checkDaemonSetViews compares the views of a DaemonSet whose
// ControllerRevisions hold specs as revisions 1 to len(specs).
func checkDaemonSetViews(t *rapid.T, c *tally, app string, specs []fullSpec) {
	ds := &apps.DaemonSet{
		TypeMeta: metav1.TypeMeta{Kind: "DaemonSet", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{Name: app, Namespace: "kube-system", UID: "uid-daemonset", Generation: 1,
			CreationTimestamp: metav1.NewTime(base), Labels: map[string]string{"app": app},
			Annotations: map[string]string{"deprecated.daemonset.template.generation": "1"}},
		Spec: apps.DaemonSetSpec{
			Selector:       &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}},
			Template:       *specs[len(specs)-1].tmpl.DeepCopy(),
			UpdateStrategy: apps.DaemonSetUpdateStrategy{Type: apps.OnDeleteDaemonSetStrategyType},
		},
	}
	var crs []*apps.ControllerRevision
	for i, spec := range specs {
		tmpl := spec.tmpl.DeepCopy()
		data, err := appsv1.DaemonSetPatch(tmpl)
		if err != nil {
			t.Fatal(err)
		}
		hash := fmt.Sprintf("h%d", i+1)
		crs = append(crs, revisionObject(ds, "DaemonSet", ds.Namespace,
			map[string]string{"app": app, "controller-revision-hash": hash}, app+"-"+hash, int64(i+1), data))
	}
	m, err := convertDaemonSet(ds, crs)
	if err != nil {
		t.Fatal(err)
	}
	rev := int64(rapid.IntRange(1, len(specs)).Draw(t, "revision"))
	compareView(t, c, fmt.Sprintf("DaemonSetHistoryRevision(%d)", rev), specs[rev-1].crash, func() (string, error) {
		hv, err := polymorphichelpers.HistoryViewerFor(daemonSetKind, dsClient(ds, crs))
		if err != nil {
			t.Fatal(err)
		}
		return hv.ViewHistory(ds.Namespace, ds.Name, rev)
	}, func() (string, error) { return rollout.DaemonSetHistoryRevision(m.ds, m.crs, rev) })
	compareView(t, c, fmt.Sprintf("DaemonSetUndoDryRun(%d)", rev), specs[rev-1].crash, func() (string, error) {
		_, out, err := kubectlDaemonSetRollback(t, ds, crs, rev, cmdutil.DryRunClient)
		return out, err
	}, func() (string, error) { return rollout.DaemonSetUndoDryRun(m.ds, m.crs, rev) })
}
