package main

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/configrestarts"
	"github.com/rolloutplan/rolloutplan/plan/restart"
)

// restartCluster is a cluster with a ConfigMap edited since the workloads
// that opted in recorded its checksum (from the restart controller's
// README rule 1: a recorded checksum that differs restarts the workload).
// Namespace shop holds:
//   - ConfigMap web-config (now a: "2"; the workloads recorded a: "1") and
//     Secret creds;
//   - Deployment web: opts in, recorded the old web-config and the current
//     creds → restarted;
//   - Deployment api: opts in, recorded the current web-config → up to
//     date;
//   - StatefulSet db: opts in, recorded nothing → its checksums recorded,
//     no restart;
//   - Deployment ghost: opts in, references ConfigMap missing → up to date,
//     waiting for it;
//   - Deployment moved: opts in, recorded a ConfigMap it no longer
//     references → the checksum is purged;
//   - Deployment plain: references web-config but does not opt in;
//   - DaemonSet agent: opts in, but the planner does not handle DaemonSets.
//
// Namespace other holds Deployment far, restarted as web is.
func restartCluster(t *testing.T) (*fake.Clientset, map[string]string) {
	t.Helper()
	sums := map[string]string{
		"old":   restart.ConfigMapChecksum(map[string]string{"a": "1"}, nil, false),
		"new":   restart.ConfigMapChecksum(map[string]string{"a": "2"}, nil, false),
		"creds": restart.SecretChecksum(map[string][]byte{"p": []byte("x")}),
	}
	enabled := func(applied map[string]string) map[string]string {
		a := map[string]string{restart.AnnotationEnabled: restart.EnabledValue}
		if applied != nil {
			a[restart.AnnotationChecksums] = restart.FormatChecksums(applied)
		}
		return a
	}
	envFrom := func(cm string) corev1.PodSpec {
		return corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx",
			EnvFrom: []corev1.EnvFromSource{{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: cm}}}}}}}
	}
	withSecret := func(s corev1.PodSpec) corev1.PodSpec {
		s.Containers[0].Env = []corev1.EnvVar{{Name: "P", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
			LocalObjectReference: corev1.LocalObjectReference{Name: "creds"}, Key: "p"}}}}
		return s
	}
	dep := func(ns, name string, ann map[string]string, spec corev1.PodSpec) *apps.Deployment {
		return &apps.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Annotations: ann, Labels: map[string]string{"app": name}, ResourceVersion: "1"},
			Spec: apps.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: spec}}}
	}
	objs := []runtime.Object{
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-config", ResourceVersion: "1"}, Data: map[string]string{"a": "2"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "creds", ResourceVersion: "1"}, Data: map[string][]byte{"p": []byte("x")}},
		dep("shop", "web", enabled(map[string]string{"configmap/shop/web-config": sums["old"], "secret/shop/creds": sums["creds"]}), withSecret(envFrom("web-config"))),
		dep("shop", "api", enabled(map[string]string{"configmap/shop/web-config": sums["new"]}), envFrom("web-config")),
		dep("shop", "ghost", enabled(nil), envFrom("missing")),
		dep("shop", "moved", enabled(map[string]string{"configmap/shop/gone": sums["old"]}), corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}),
		dep("shop", "plain", nil, envFrom("web-config")),
		&apps.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db", Annotations: enabled(nil), ResourceVersion: "1"},
			Spec: apps.StatefulSetSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: "db", Image: "postgres"}},
				Volumes: []corev1.Volume{{Name: "conf", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
					LocalObjectReference: corev1.LocalObjectReference{Name: "web-config"}}}}},
			}}}},
		&apps.DaemonSet{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "agent", Annotations: enabled(nil), ResourceVersion: "1"},
			Spec: apps.DaemonSetSpec{Template: corev1.PodTemplateSpec{Spec: envFrom("web-config")}}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: "web-config", ResourceVersion: "1"}, Data: map[string]string{"a": "2"}},
		dep("other", "far", enabled(map[string]string{"configmap/other/web-config": sums["old"]}), envFrom("web-config")),
	}
	return fake.NewClientset(objs...), sums
}

// Live, config-restarts reads the namespace and says, workload by workload
// and config by config, what the planner does now.
func TestLiveConfigRestarts(t *testing.T) {
	client, sums := restartCluster(t)
	code, out, errOut := exec(t, clitest.Options{Client: client, Namespace: "shop"}, "", "config-restarts")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "Time: 2026-03-01T10:00:00Z (now)\n", errOut)
	want := fmt.Sprintf(`Restart planner on namespace shop: 1 ConfigMap, 1 Secret; 6 workloads opting in (com.xing.deployment-restart: enabled), 1 not
not planned: DaemonSet shop/agent opts in, but the restart planner restarts Deployments and StatefulSets only
up to date: Deployment shop/api
    configmap/shop/web-config unchanged (checksum %[2]s)
up to date: Deployment shop/ghost
    configmap/shop/missing not found (the planner waits for it)
record the config checksums of Deployment shop/moved (no restart)
    configmap/shop/gone is no longer referenced: its checksum %[1]s is removed
restart Deployment shop/web (com.xing.deployment-restart.timestamp = "Mar  1 10:00:00")
    configmap/shop/web-config changed since the last restart (checksum %[1]s → %[2]s)
    secret/shop/creds unchanged (checksum %[3]s)
record the config checksums of StatefulSet shop/db (no restart)
    configmap/shop/web-config has no recorded checksum: %[2]s recorded, no change seen since the workload referenced it
1 restart, 2 checksum updates without restart, 2 up to date
`, sums["old"], sums["new"], sums["creds"])
	assert.Equal(t, want, out)

	// Nothing is sent.
	for _, a := range client.Actions() {
		assert.Equal(t, "list", a.GetVerb(), "%v", a)
	}
}

// -o json is the same plan, with each workload's patch: the one the
// planner sends (the restart controller's JSON merge patch).
func TestLiveConfigRestartsJSON(t *testing.T) {
	client, sums := restartCluster(t)
	code, out, errOut := exec(t, clitest.Options{Client: client}, "", "config-restarts", "-n", "shop", "-o", "json", "--timestamp", "rfc3339")
	require.Equal(t, 0, code, errOut)
	var l configrestarts.Live
	require.NoError(t, json.Unmarshal([]byte(out), &l), out)
	assert.Equal(t, "shop", l.Namespace)
	assert.Equal(t, 1, l.Restarts)
	assert.Equal(t, 2, l.Updates)
	assert.Equal(t, 1, l.NotOptedIn)
	byName := map[string]configrestarts.LiveWorkload{}
	for _, w := range l.Workloads {
		byName[w.Kind+"/"+w.Name] = w
	}
	require.Len(t, byName, 6)
	web := byName["Deployment/web"]
	assert.Equal(t, configrestarts.ActionRestart, web.Action)
	assert.Equal(t, "2026-03-01T10:00:00Z", web.Timestamp)
	wantPatch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}},"spec":{"template":{"metadata":{"annotations":{%q:"2026-03-01T10:00:00Z"}}}}}`,
		restart.AnnotationChecksums, restart.FormatChecksums(map[string]string{"configmap/shop/web-config": sums["new"], "secret/shop/creds": sums["creds"]}), restart.AnnotationTimestamp)
	assert.JSONEq(t, wantPatch, string(web.Patch))
	assert.Equal(t, []configrestarts.LiveConfig{
		{Config: "configmap/shop/web-config", Reason: string(restart.ReasonChecksumChanged), Applied: sums["old"], Current: sums["new"]},
		{Config: "secret/shop/creds", Reason: string(restart.ReasonUpToDate), Applied: sums["creds"], Current: sums["creds"]},
	}, web.Configs)
	assert.Equal(t, configrestarts.ActionUnsupported, byName["DaemonSet/agent"].Action)
	assert.Empty(t, byName["Deployment/api"].Patch)
}

// -A reads every namespace; -l selects the workloads; the script's flags
// and the live mode's do not mix.
func TestLiveConfigRestartsFlags(t *testing.T) {
	client, _ := restartCluster(t)
	code, out, errOut := exec(t, clitest.Options{Client: client}, "", "config-restarts", "-A")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "Restart planner on every namespace: 2 ConfigMaps, 1 Secret; 7 workloads opting in")
	assert.Contains(t, out, "restart Deployment other/far (")
	assert.Contains(t, out, "\n2 restarts, 2 checksum updates without restart, 2 up to date\n")

	code, out, errOut = exec(t, clitest.Options{Client: client}, "", "config-restarts", "-n", "shop", "-l", "app=web")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "Restart planner on namespace shop, workloads matching -l app=web: 1 ConfigMap, 1 Secret; 1 workload opting in")
	assert.Contains(t, out, "restart Deployment shop/web (")

	for _, args := range [][]string{{"-A"}, {"-l", "app=web"}} {
		code, _, errOut = exec(t, clitest.Options{Client: client}, "", append([]string{"config-restarts", "-f", "-"}, args...)...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Contains(t, errOut, "applies to the live cluster, not to a script (-f)", "%v", args)
	}
	// No cluster: kubectl's words, and the way to a script.
	code, _, errOut = exec(t, clitest.Options{}, "", "config-restarts")
	assert.Equal(t, 1, code)
	assert.Equal(t, "The connection to the server 127.0.0.1:1 was refused - did you specify the right host or port? (-f FILE reads a snapshot instead)\n", errOut)
}

// The live plan is the plan of the script that shows the planner the same
// objects at its start (every config and workload updated at 0, the
// restart check one grace period later; plan/restart/replay): the same
// workloads are patched, with the same restart decision and the same
// checksums annotation (the restart annotation's value is the time, which
// differs).
func TestLiveConfigRestartsAsScript(t *testing.T) {
	client, _ := restartCluster(t)
	ctx := t.Context()
	var events []map[string]any
	add := func(kind string, obj any) {
		b, err := json.Marshal(obj)
		require.NoError(t, err)
		var doc map[string]any
		require.NoError(t, json.Unmarshal(b, &doc))
		doc["kind"] = kind
		events = append(events, map[string]any{"at": 0, "op": "update", "object": doc})
	}
	cms, err := client.CoreV1().ConfigMaps("shop").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	for _, x := range cms.Items {
		add("ConfigMap", x)
	}
	secrets, err := client.CoreV1().Secrets("shop").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	for _, x := range secrets.Items {
		add("Secret", x)
	}
	deps, err := client.AppsV1().Deployments("shop").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	for _, x := range deps.Items {
		add("Deployment", x)
	}
	sets, err := client.AppsV1().StatefulSets("shop").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	for _, x := range sets.Items {
		add("StatefulSet", x)
	}
	events = append(events, map[string]any{"at": 5, "op": "tick"})
	script, err := json.Marshal(map[string]any{"gracePeriodSeconds": 5, "events": events})
	require.NoError(t, err)

	code, out, errOut := exec(t, clitest.Options{}, string(script), "config-restarts", "-f", "-", "-o", "json")
	require.Equal(t, 0, code, errOut)
	var trace struct {
		Steps []struct {
			Patches []struct {
				Kind, Namespace, Name string
				Body                  json.RawMessage
				Restart               bool
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &trace))
	type decision struct {
		Restart   bool
		Checksums string
	}
	checksums := func(body json.RawMessage) string {
		var p struct {
			Metadata struct {
				Annotations map[string]string `json:"annotations"`
			} `json:"metadata"`
		}
		require.NoError(t, json.Unmarshal(body, &p))
		return p.Metadata.Annotations[restart.AnnotationChecksums]
	}
	replayed := map[string]decision{}
	for _, st := range trace.Steps {
		for _, p := range st.Patches {
			replayed[p.Kind+"/"+p.Namespace+"/"+p.Name] = decision{p.Restart, checksums(p.Body)}
		}
	}

	code, out, errOut = exec(t, clitest.Options{Client: client}, "", "config-restarts", "-n", "shop", "-o", "json")
	require.Equal(t, 0, code, errOut)
	var l configrestarts.Live
	require.NoError(t, json.Unmarshal([]byte(out), &l))
	live := map[string]decision{}
	for _, w := range l.Workloads {
		if len(w.Patch) > 0 {
			live[w.Kind+"/"+w.Namespace+"/"+w.Name] = decision{w.Action == configrestarts.ActionRestart, checksums(w.Patch)}
		}
	}
	require.Len(t, live, 3, "web, moved and db are patched")
	assert.Equal(t, replayed, live)
}
