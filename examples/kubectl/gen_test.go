package kubectl

import (
	"fmt"
	"strings"
	"time"

	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"
)

// world is one generated cluster state: a Deployment and the ReplicaSets of
// its namespace, as the API server would return them.
type world struct {
	d   *apps.Deployment
	rss []*apps.ReplicaSet
	// restartNow asks the test to set the template's restartedAt to the
	// current second just before kubectl's restarter runs (the
	// empty-patch branch).
	restartNow bool
}

var base = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func oneOf[T any](t *rapid.T, label string, xs ...T) T {
	return xs[rapid.IntRange(0, len(xs)-1).Draw(t, label)]
}

// chance is true for at least percent of the draws: rapid favours small
// values, so rare branches come up more often than percent says.
func chance(t *rapid.T, label string, percent int) bool {
	return rapid.IntRange(0, 99).Draw(t, label) < percent
}

// rarely is true for at most percent of the draws, for the branches that
// would otherwise crowd out the others.
func rarely(t *rapid.T, label string, percent int) bool {
	return rapid.IntRange(0, 99).Draw(t, label) >= 100-percent
}

// genRevision draws a revision annotation value: mostly small numbers, so
// that revisions repeat and match, sometimes absent or unparsable.
func genRevision(t *rapid.T, label string) (string, bool) {
	// rapid favours small draws, so the common case comes first.
	switch rapid.IntRange(0, 9).Draw(t, label+"-kind") {
	case 8:
		return "", false
	case 9:
		return oneOf(t, label+"-bad", "x", "+3", "-1", "99999999999999999999", ""), true
	default:
		return fmt.Sprint(rapid.IntRange(0, 5).Draw(t, label)), true
	}
}

// genText draws annotation or environment text, with the cases kubectl's
// describer treats specially: long values, newlines, terminal escapes.
func genText(t *rapid.T, label string) string {
	switch rapid.IntRange(0, 7).Draw(t, label) {
	case 0:
		return strings.Repeat("long-", rapid.IntRange(20, 40).Draw(t, label+"-n"))
	case 1:
		return "line one\nline two\n"
	case 2:
		return "bell\x1b[31mred\rcr"
	case 3:
		return ""
	default:
		return oneOf(t, label+"-v", "kubectl set image deployment/web web=web:2", "initial deploy", "a <b> & c", "ünïcode")
	}
}

func quantity(s string) resource.Quantity { return resource.MustParse(s) }

func genResources(t *rapid.T, label string) core.ResourceRequirements {
	var r core.ResourceRequirements
	pick := func(l string) core.ResourceList {
		if !chance(t, l, 40) {
			return nil
		}
		list := core.ResourceList{}
		list[core.ResourceCPU] = quantity(oneOf(t, l+"-cpu", "100m", "250m", "1", "2"))
		if chance(t, l+"-has-mem", 70) {
			list[core.ResourceMemory] = quantity(oneOf(t, l+"-mem", "64Mi", "256Mi", "1Gi"))
		}
		return list
	}
	r.Limits = pick(label + "-limits")
	r.Requests = pick(label + "-requests")
	return r
}

func genProbe(t *rapid.T, label string) *core.Probe {
	if !chance(t, label, 25) {
		return nil
	}
	p := &core.Probe{
		InitialDelaySeconds: int32(rapid.IntRange(0, 10).Draw(t, label+"-delay")),
		TimeoutSeconds:      1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3,
	}
	switch rapid.IntRange(0, 3).Draw(t, label+"-kind") {
	case 0:
		p.Exec = &core.ExecAction{Command: []string{"cat", "/tmp/healthy"}}
	case 1:
		port := intstr.FromInt32(8080)
		if chance(t, label+"-named", 50) {
			port = intstr.FromString("http")
		}
		p.HTTPGet = &core.HTTPGetAction{Path: "/healthz", Port: port, Scheme: core.URISchemeHTTP}
		if chance(t, label+"-host", 30) {
			p.HTTPGet.Host = "10.0.0.1"
		}
	case 2:
		p.TCPSocket = &core.TCPSocketAction{Port: intstr.FromInt32(5432)}
	default:
		svc := "health"
		p.GRPC = &core.GRPCAction{Port: 9090, Service: &svc}
	}
	return p
}

func genContainer(t *rapid.T, label string, app string) core.Container {
	c := core.Container{
		Name:                     oneOf(t, label+"-name", app, "sidecar"),
		Image:                    fmt.Sprintf("registry.example.com/%s:1.%d", app, rapid.IntRange(0, 2).Draw(t, label+"-image")),
		TerminationMessagePath:   "/dev/termination-log",
		TerminationMessagePolicy: core.TerminationMessageReadFile,
		ImagePullPolicy:          core.PullIfNotPresent,
	}
	for i := range rapid.IntRange(0, 2).Draw(t, label+"-ports") {
		p := core.ContainerPort{ContainerPort: int32(8080 + i), Protocol: core.ProtocolTCP}
		if chance(t, fmt.Sprintf("%s-port%d-name", label, i), 60) {
			p.Name = fmt.Sprintf("p%d", i)
		}
		if chance(t, fmt.Sprintf("%s-port%d-host", label, i), 20) {
			p.HostPort = int32(80 + i)
		}
		c.Ports = append(c.Ports, p)
	}
	if chance(t, label+"-cmd", 20) {
		c.Command = []string{"/bin/sh", "-c"}
		c.Args = []string{"echo one\necho two"}
	}
	for i := range rapid.IntRange(0, 3).Draw(t, label+"-env") {
		e := core.EnvVar{Name: fmt.Sprintf("VAR_%d", i)}
		switch rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("%s-env%d", label, i)) {
		case 0:
			e.ValueFrom = &core.EnvVarSource{FieldRef: &core.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}
		case 1:
			e.ValueFrom = &core.EnvVarSource{SecretKeyRef: &core.SecretKeySelector{LocalObjectReference: core.LocalObjectReference{Name: "s"}, Key: "k"}}
		case 2:
			opt := chance(t, fmt.Sprintf("%s-env%d-opt", label, i), 50)
			e.ValueFrom = &core.EnvVarSource{ConfigMapKeyRef: &core.ConfigMapKeySelector{LocalObjectReference: core.LocalObjectReference{Name: "cm"}, Key: "k", Optional: &opt}}
		default:
			e.Value = genText(t, fmt.Sprintf("%s-env%d-value", label, i))
		}
		c.Env = append(c.Env, e)
	}
	if chance(t, label+"-envfrom", 15) {
		c.EnvFrom = []core.EnvFromSource{{ConfigMapRef: &core.ConfigMapEnvSource{LocalObjectReference: core.LocalObjectReference{Name: "cm"}}},
			{Prefix: "S_", SecretRef: &core.SecretEnvSource{LocalObjectReference: core.LocalObjectReference{Name: "sec"}}}}
	}
	if chance(t, label+"-seccomp", 15) {
		c.SecurityContext = &core.SecurityContext{SeccompProfile: &core.SeccompProfile{Type: core.SeccompProfileTypeRuntimeDefault}}
		if chance(t, label+"-seccomp-local", 50) {
			profile := "profiles/audit.json"
			c.SecurityContext.SeccompProfile = &core.SeccompProfile{Type: core.SeccompProfileTypeLocalhost, LocalhostProfile: &profile}
		}
	}
	c.Resources = genResources(t, label+"-res")
	c.LivenessProbe = genProbe(t, label+"-live")
	c.ReadinessProbe = genProbe(t, label+"-ready")
	c.StartupProbe = genProbe(t, label+"-startup")
	for i := range rapid.IntRange(0, 2).Draw(t, label+"-mounts") {
		m := core.VolumeMount{Name: fmt.Sprintf("v%d", i), MountPath: oneOf(t, fmt.Sprintf("%s-mount%d", label, i), "/data", "/etc/config", "/cache")}
		m.ReadOnly = chance(t, fmt.Sprintf("%s-mount%d-ro", label, i), 50)
		if chance(t, fmt.Sprintf("%s-mount%d-sub", label, i), 30) {
			m.SubPath = "sub"
		}
		c.VolumeMounts = append(c.VolumeMounts, m)
	}
	return c
}

// genTemplate draws a pod template within the fields the describer lays
// out (see rollout.DescribeTemplate).
func genTemplate(t *rapid.T, label, app string) core.PodTemplateSpec {
	tmpl := core.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}}}
	if chance(t, label+"-tier", 30) {
		tmpl.Labels["tier"] = "backend"
	}
	if chance(t, label+"-annotations", 40) {
		tmpl.Annotations = map[string]string{}
		for range rapid.IntRange(1, 2).Draw(t, label+"-n-annotations") {
			k := oneOf(t, label+"-annotation-key", "kubernetes.io/change-cause", "kubectl.kubernetes.io/restartedAt",
				"kubectl.kubernetes.io/last-applied-configuration", "team")
			tmpl.Annotations[k] = genText(t, label+"-annotation-value")
		}
	}
	s := &tmpl.Spec
	for i := range rapid.IntRange(1, 2).Draw(t, label+"-containers") {
		c := genContainer(t, fmt.Sprintf("%s-c%d", label, i), app)
		c.Name = fmt.Sprintf("%s-%d", c.Name, i)
		s.Containers = append(s.Containers, c)
	}
	if chance(t, label+"-init", 15) {
		s.InitContainers = []core.Container{genContainer(t, label+"-init0", "init")}
	}
	if chance(t, label+"-sa", 20) {
		s.ServiceAccountName = "runner"
	}
	if chance(t, label+"-prio", 15) {
		s.PriorityClassName = "high"
	}
	if chance(t, label+"-nodesel", 20) {
		s.NodeSelector = map[string]string{"disktype": "ssd", "zone": oneOf(t, label+"-zone", "a", "b")}
	}
	for i := range rapid.IntRange(0, 2).Draw(t, label+"-tolerations") {
		tol := core.Toleration{Key: oneOf(t, fmt.Sprintf("%s-tol%d-key", label, i), "", "dedicated", "gpu")}
		switch rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("%s-tol%d-op", label, i)) {
		case 0:
			tol.Operator = core.TolerationOpExists
		case 1:
			tol.Operator, tol.Value = core.TolerationOpEqual, "yes"
		}
		tol.Effect = oneOf(t, fmt.Sprintf("%s-tol%d-effect", label, i), "", core.TaintEffectNoSchedule, core.TaintEffectNoExecute)
		if tol.Effect == core.TaintEffectNoExecute && chance(t, fmt.Sprintf("%s-tol%d-secs", label, i), 50) {
			secs := int64(300)
			tol.TolerationSeconds = &secs
		}
		s.Tolerations = append(s.Tolerations, tol)
	}
	for i := range rapid.IntRange(0, 3).Draw(t, label+"-volumes") {
		v := core.Volume{Name: fmt.Sprintf("v%d", i)}
		opt := chance(t, fmt.Sprintf("%s-vol%d-opt", label, i), 50)
		switch rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("%s-vol%d", label, i)) {
		case 0:
			v.EmptyDir = &core.EmptyDirVolumeSource{}
			if chance(t, fmt.Sprintf("%s-vol%d-size", label, i), 50) {
				q := quantity(oneOf(t, fmt.Sprintf("%s-vol%d-limit", label, i), "0", "1Gi", "500Mi"))
				v.EmptyDir.SizeLimit = &q
				v.EmptyDir.Medium = core.StorageMediumMemory
			}
		case 1:
			v.ConfigMap = &core.ConfigMapVolumeSource{LocalObjectReference: core.LocalObjectReference{Name: "cm"}, Optional: &opt}
		case 2:
			v.Secret = &core.SecretVolumeSource{SecretName: "tls"}
			if opt {
				v.Secret.Optional = &opt
			}
		case 3:
			v.PersistentVolumeClaim = &core.PersistentVolumeClaimVolumeSource{ClaimName: "data", ReadOnly: opt}
		default:
			v.HostPath = &core.HostPathVolumeSource{Path: "/var/log"}
			if opt {
				typ := core.HostPathDirectory
				v.HostPath.Type = &typ
			}
		}
		s.Volumes = append(s.Volumes, v)
	}
	s.RestartPolicy = core.RestartPolicyAlways
	s.DNSPolicy = core.DNSClusterFirst
	s.SchedulerName = "default-scheduler"
	return tmpl
}

// genWorld draws a state that reaches the branches of every kubectl helper:
// paused or not, revision annotations that match, repeat, are missing or
// unparsable, observed or unobserved generations, a progress deadline
// exceeded, old replicas pending, unavailable replicas, done, no history,
// ReplicaSets not owned or not selected, and a template equal to a
// ReplicaSet's.
func genWorld(t *rapid.T) world {
	app := oneOf(t, "app", "web", "api")
	name := app
	if rarely(t, "long-name", 5) {
		name = strings.Repeat("very-long-", 20) + app
	}
	pool := make([]core.PodTemplateSpec, rapid.IntRange(1, 3).Draw(t, "templates"))
	for i := range pool {
		pool[i] = genTemplate(t, fmt.Sprintf("t%d", i), app)
	}
	d := &apps.Deployment{
		TypeMeta: metav1.TypeMeta{Kind: "Deployment", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: "default", UID: "uid-deployment",
			Generation:        int64(rapid.IntRange(1, 4).Draw(t, "generation")),
			CreationTimestamp: metav1.NewTime(base),
			Labels:            map[string]string{"app": app},
		},
		Spec: apps.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}},
			Template: *pool[rapid.IntRange(0, len(pool)-1).Draw(t, "d-template")].DeepCopy(),
			Strategy: apps.DeploymentStrategy{Type: apps.RollingUpdateDeploymentStrategyType},
			Paused:   chance(t, "paused", 8),
		},
	}
	if rarely(t, "selector-nil", 3) {
		d.Spec.Selector = nil
	} else if rarely(t, "selector-expr", 10) {
		d.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{app, "other"}}}}
	}
	if !chance(t, "replicas-nil", 10) {
		r := int32(rapid.IntRange(0, 5).Draw(t, "replicas"))
		d.Spec.Replicas = &r
	}
	if v, ok := genRevision(t, "d-revision"); ok || chance(t, "d-annotations", 30) {
		d.Annotations = map[string]string{}
		if ok {
			d.Annotations["deployment.kubernetes.io/revision"] = v
		}
		if chance(t, "d-last-applied", 30) {
			d.Annotations["kubectl.kubernetes.io/last-applied-configuration"] = `{"kind":"Deployment"}`
		}
		if chance(t, "d-team", 30) {
			d.Annotations["team"] = "payments"
		}
		if chance(t, "d-cause", 30) {
			d.Annotations["kubernetes.io/change-cause"] = "kubectl apply"
		}
	}
	st := &d.Status
	st.ObservedGeneration = int64(rapid.IntRange(0, 4).Draw(t, "observed"))
	st.Replicas = int32(rapid.IntRange(0, 6).Draw(t, "st-replicas"))
	st.UpdatedReplicas = int32(rapid.IntRange(0, 6).Draw(t, "st-updated"))
	st.ReadyReplicas = int32(rapid.IntRange(0, 6).Draw(t, "st-ready"))
	st.AvailableReplicas = int32(rapid.IntRange(0, 6).Draw(t, "st-available"))
	if reason := oneOf(t, "progressing", "", "NewReplicaSetAvailable", "ReplicaSetUpdated", "ProgressDeadlineExceeded"); reason != "" {
		status := core.ConditionTrue
		if reason == "ProgressDeadlineExceeded" {
			status = core.ConditionFalse
		}
		if chance(t, "available-cond", 50) {
			st.Conditions = append(st.Conditions, apps.DeploymentCondition{Type: apps.DeploymentAvailable, Status: core.ConditionTrue,
				Reason: "MinimumReplicasAvailable", LastUpdateTime: metav1.NewTime(base), LastTransitionTime: metav1.NewTime(base)})
		}
		st.Conditions = append(st.Conditions, apps.DeploymentCondition{Type: apps.DeploymentProgressing, Status: status,
			Reason: reason, LastUpdateTime: metav1.NewTime(base), LastTransitionTime: metav1.NewTime(base)})
	}

	w := world{d: d, restartNow: chance(t, "restart-now", 5)}
	// Most states have some history; rapid favours small draws.
	n := 4 - rapid.IntRange(0, 4).Draw(t, "replicasets")
	for i := range n {
		l := fmt.Sprintf("rs%d", i)
		tmpl := pool[rapid.IntRange(0, len(pool)-1).Draw(t, l+"-template")].DeepCopy()
		hash := fmt.Sprintf("h%d", rapid.IntRange(0, 9).Draw(t, l+"-hash"))
		tmpl.Labels["pod-template-hash"] = hash
		labels := map[string]string{"app": app, "pod-template-hash": hash}
		if rarely(t, l+"-unselected", 8) {
			labels["app"] = "other"
		}
		replicas := int32(rapid.IntRange(0, 3).Draw(t, l+"-replicas"))
		rs := &apps.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{
				Name:              fmt.Sprintf("%s-%s%d", name, oneOf(t, l+"-prefix", "a", "b", "c"), i),
				Namespace:         "default",
				UID:               types.UID(fmt.Sprintf("uid-rs-%d", i)),
				CreationTimestamp: metav1.NewTime(base.Add(time.Duration(rapid.IntRange(0, 2).Draw(t, l+"-created")) * time.Minute)),
				Labels:            labels,
			},
			Spec: apps.ReplicaSetSpec{
				Replicas: &replicas,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app, "pod-template-hash": hash}},
				Template: *tmpl,
			},
		}
		switch rapid.IntRange(0, 9).Draw(t, l+"-owner") {
		case 8:
		case 9:
			rs.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(&apps.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "other", UID: "uid-other"}}, apps.SchemeGroupVersion.WithKind("Deployment"))}
		default:
			rs.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(d, apps.SchemeGroupVersion.WithKind("Deployment"))}
		}
		if v, ok := genRevision(t, l+"-revision"); ok || chance(t, l+"-annotations", 30) {
			rs.Annotations = map[string]string{}
			if ok {
				rs.Annotations["deployment.kubernetes.io/revision"] = v
			}
			if chance(t, l+"-cause", 40) {
				rs.Annotations["kubernetes.io/change-cause"] = genText(t, l+"-cause-text")
			}
			if chance(t, l+"-history", 20) {
				rs.Annotations["deployment.kubernetes.io/revision-history"] = "1,2"
			}
			if chance(t, l+"-team", 20) {
				rs.Annotations["team"] = "search"
			}
		}
		w.rss = append(w.rss, rs)
	}
	// Names are unique in a namespace.
	seen := map[string]bool{}
	for _, rs := range w.rss {
		for seen[rs.Name] {
			rs.Name += "x"
		}
		seen[rs.Name] = true
	}
	return w
}
