package e2e_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// manifestTemplates are pod templates as people write them in manifests,
// leaving to the API server every field it defaults: the Kubernetes
// documentation's nginx Deployment, and one that reaches each kind of
// default appsv1.DefaultPodTemplate applies (pull policies by tag, ports,
// probes of every handler, field references, volumes of the kinds with
// defaulted modes and types, quantities rounded up, init containers).
var manifestTemplates = map[string]string{
	"nginx-deployment": `
metadata:
  labels: {app: nginx}
spec:
  containers:
  - name: nginx
    image: nginx:1.14.2
    ports:
    - containerPort: 80
`,
	"every default": `
metadata:
  labels: {app: rich}
spec:
  initContainers:
  - name: init
    image: busybox
    command: [sh, -c, "true"]
  containers:
  - name: web
    image: registry.example.com/web:latest
    ports:
    - containerPort: 8080
    - containerPort: 53
      protocol: UDP
    env:
    - name: POD
      valueFrom: {fieldRef: {fieldPath: metadata.name}}
    - name: CPU
      valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: "0.001"}}
    resources:
      requests: {cpu: "0.25", memory: 64Mi}
      limits: {cpu: "0.5001", memory: 128Mi}
    readinessProbe:
      httpGet: {path: /healthz, port: 8080}
    livenessProbe:
      tcpSocket: {port: 8080}
      periodSeconds: 20
    startupProbe:
      exec: {command: ["true"]}
    volumeMounts:
    - {name: conf, mountPath: /etc/conf}
    - {name: creds, mountPath: /etc/creds}
    - {name: scratch, mountPath: /tmp}
    - {name: host, mountPath: /host}
    - {name: all, mountPath: /all}
    - {name: info, mountPath: /info}
    - {name: cache, mountPath: /cache}
  - name: sidecar
    image: sidecar@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
  volumes:
  - name: conf
    configMap: {name: web-config}
  - name: creds
    secret: {secretName: web-creds}
  - name: scratch
  - name: cache
    emptyDir: {sizeLimit: "0.5Gi"}
  - name: host
    hostPath: {path: /var/log}
  - name: all
    projected:
      sources:
      - configMap: {name: web-config}
      - serviceAccountToken: {path: token}
  - name: info
    downwardAPI:
      items:
      - path: labels
        fieldRef: {fieldPath: metadata.labels}
      - path: mem
        resourceFieldRef: {containerName: web, resource: requests.memory, divisor: "1Mi"}
`,
}

// TestManifestDefaultsMatchServer sends Deployments, StatefulSets and
// DaemonSets with the manifest templates to kube-apiserver v1.36.3 and
// requires the template the server stores to be exactly
// appsv1.DefaultPodTemplate of the manifest's, and its pod-template-hash
// the same: what kubectl-rolloutplan predicts from a manifest (the new
// ReplicaSet's name, the ControllerRevision's) is what the cluster does.
func TestManifestDefaultsMatchServer(t *testing.T) {
	ctx, ns := setup(t)
	for name, text := range manifestTemplates {
		t.Run(name, func(t *testing.T) {
			var tmpl core.PodTemplateSpec
			require.NoError(t, yaml.UnmarshalStrict([]byte(text), &tmpl))
			want := tmpl.DeepCopy()
			appsv1.DefaultPodTemplate(want)
			selector := &metav1.LabelSelector{MatchLabels: tmpl.Labels}
			objName := "defaults-" + tmpl.Labels["app"]

			d, err := client.AppsV1().Deployments(ns).Create(ctx, &apps.Deployment{
				ObjectMeta: metav1.ObjectMeta{Name: objName},
				Spec:       apps.DeploymentSpec{Selector: selector, Template: *tmpl.DeepCopy()},
			}, metav1.CreateOptions{})
			require.NoError(t, err)
			s, err := client.AppsV1().StatefulSets(ns).Create(ctx, &apps.StatefulSet{
				ObjectMeta: metav1.ObjectMeta{Name: objName},
				Spec:       apps.StatefulSetSpec{Selector: selector, Template: *tmpl.DeepCopy()},
			}, metav1.CreateOptions{})
			require.NoError(t, err)
			ds, err := client.AppsV1().DaemonSets(ns).Create(ctx, &apps.DaemonSet{
				ObjectMeta: metav1.ObjectMeta{Name: objName},
				Spec:       apps.DaemonSetSpec{Selector: selector, Template: *tmpl.DeepCopy()},
			}, metav1.CreateOptions{})
			require.NoError(t, err)

			for kind, got := range map[string]*core.PodTemplateSpec{"Deployment": &d.Spec.Template, "StatefulSet": &s.Spec.Template, "DaemonSet": &ds.Spec.Template} {
				if !equality.Semantic.DeepEqual(want, got) {
					t.Errorf("%s: the server's template differs from DefaultPodTemplate's (-ours +server):\n%s", kind, cmp.Diff(want, got))
				}
				if h, g := appsv1.ComputeHash(want, nil), appsv1.ComputeHash(got, nil); h != g {
					t.Errorf("%s: pod-template-hash %s from the defaulted manifest, %s from the server's template", kind, h, g)
				}
				// The hash kubectl-rolloutplan's TestManifestTemplateDefaulted
				// expects in the ReplicaSet name `next` predicts.
				if g := appsv1.ComputeHash(got, nil); name == "nginx-deployment" && g != "6c5f67b5f7" {
					t.Errorf("%s: the server's nginx-deployment template hashes to %s, not 6c5f67b5f7", kind, g)
				}
			}
		})
	}
}
