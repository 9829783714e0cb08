package rollout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
)

// ErrUnsupported is matched (errors.Is) by the error [DescribeTemplate]
// returns for a template using a field it cannot lay out as kubectl does.
var ErrUnsupported = errors.New("not supported by the template describer")

// DescribeTemplate lays out a pod template as kubectl's DescribePodTemplate
// does (the text of rollout history --revision=N and of rollout undo
// --dry-run=client): labels and annotations sorted by key (the
// last-applied-configuration annotation left out, long or multi-line
// annotation values broken up), the service account, init containers and
// containers (image, ports and host ports, command and args, limits and
// requests, probes, environment, mounts), volumes, priority class, node
// selectors and tolerations, with kubectl's terminal escaping (ESC as "^[",
// CR as `\r`).
//
// t.Spec must be the JSON of a v1 PodTemplateSpec without labels and
// annotations (what the apps/v1 adapter stores). Resource quantities are
// printed as written; the API server always returns them in the canonical
// form kubectl prints. Volumes of the kinds hostPath, emptyDir, secret,
// configMap and persistentVolumeClaim are described; templates with other
// volume kinds, topology spread constraints, a scheduling group, volume
// devices, a Localhost seccomp profile without its file (kubectl fails on
// it) or environment variables from resource fields are refused with an error naming the
// field and matching [ErrUnsupported], rather than described differently.
func DescribeTemplate(t model.PodTemplate) (string, error) {
	var doc podTemplateDoc
	if t.Spec != "" {
		dec := json.NewDecoder(strings.NewReader(t.Spec))
		if err := dec.Decode(&doc); err != nil {
			return "", &model.FieldError{Field: "spec.template", Detail: "not a pod template document: " + err.Error()}
		}
	}
	if err := doc.Spec.supported(); err != nil {
		return "", err
	}
	w := &prefixWriter{}
	w.write(0, "Pod Template:\n")
	w.labels("  Labels", t.Labels)
	if len(t.Annotations) > 0 {
		w.annotations("  Annotations", t.Annotations)
	}
	s := &doc.Spec
	if s.ServiceAccountName != "" {
		w.write(1, "Service Account:\t%s\n", s.ServiceAccountName)
	}
	if len(s.InitContainers) > 0 {
		w.containers("Init Containers", s.InitContainers)
	}
	w.containers("Containers", s.Containers)
	w.volumes(s.Volumes)
	if s.PriorityClassName != "" {
		w.write(1, "Priority Class Name:\t%s\n", s.PriorityClassName)
	}
	w.labels("  Node-Selectors", s.NodeSelector)
	w.tolerations("  Tolerations", s.Tolerations)
	return w.b.String(), nil
}

// The parts of a v1 PodTemplateSpec the describer reads. Unknown fields are
// ignored by the decoder; the ones that would print are checked by
// supported.
type podTemplateDoc struct {
	Spec podSpecDoc `json:"spec"`
}

type podSpecDoc struct {
	ServiceAccountName        string            `json:"serviceAccountName"`
	InitContainers            []containerDoc    `json:"initContainers"`
	Containers                []containerDoc    `json:"containers"`
	Volumes                   []volumeDoc       `json:"volumes"`
	TopologySpreadConstraints []json.RawMessage `json:"topologySpreadConstraints"`
	SchedulingGroup           json.RawMessage   `json:"schedulingGroup"`
	PriorityClassName         string            `json:"priorityClassName"`
	NodeSelector              map[string]string `json:"nodeSelector"`
	Tolerations               []tolerationDoc   `json:"tolerations"`
}

type containerDoc struct {
	Name            string            `json:"name"`
	Image           string            `json:"image"`
	Command         []string          `json:"command"`
	Args            []string          `json:"args"`
	Ports           []portDoc         `json:"ports"`
	EnvFrom         []envFromDoc      `json:"envFrom"`
	Env             []envDoc          `json:"env"`
	Resources       resourcesDoc      `json:"resources"`
	VolumeMounts    []mountDoc        `json:"volumeMounts"`
	VolumeDevices   []json.RawMessage `json:"volumeDevices"`
	LivenessProbe   *probeDoc         `json:"livenessProbe"`
	ReadinessProbe  *probeDoc         `json:"readinessProbe"`
	StartupProbe    *probeDoc         `json:"startupProbe"`
	SecurityContext *struct {
		SeccompProfile *struct {
			Type             string  `json:"type"`
			LocalhostProfile *string `json:"localhostProfile"`
		} `json:"seccompProfile"`
	} `json:"securityContext"`
}

type portDoc struct {
	Name          string `json:"name"`
	HostPort      int32  `json:"hostPort"`
	ContainerPort int32  `json:"containerPort"`
	Protocol      string `json:"protocol"`
}

type envFromDoc struct {
	Prefix       string  `json:"prefix"`
	ConfigMapRef *refDoc `json:"configMapRef"`
	SecretRef    *refDoc `json:"secretRef"`
}

type refDoc struct {
	Name     string `json:"name"`
	Key      string `json:"key"`
	Optional *bool  `json:"optional"`
}

type envDoc struct {
	Name      string `json:"name"`
	Value     string `json:"value"`
	ValueFrom *struct {
		FieldRef *struct {
			APIVersion string `json:"apiVersion"`
			FieldPath  string `json:"fieldPath"`
		} `json:"fieldRef"`
		ResourceFieldRef json.RawMessage `json:"resourceFieldRef"`
		ConfigMapKeyRef  *refDoc         `json:"configMapKeyRef"`
		SecretKeyRef     *refDoc         `json:"secretKeyRef"`
	} `json:"valueFrom"`
}

type resourcesDoc struct {
	Limits   map[string]string `json:"limits"`
	Requests map[string]string `json:"requests"`
}

type mountDoc struct {
	Name      string `json:"name"`
	ReadOnly  bool   `json:"readOnly"`
	MountPath string `json:"mountPath"`
	SubPath   string `json:"subPath"`
}

type probeDoc struct {
	Exec *struct {
		Command []string `json:"command"`
	} `json:"exec"`
	HTTPGet *struct {
		Path   string          `json:"path"`
		Port   json.RawMessage `json:"port"`
		Host   string          `json:"host"`
		Scheme string          `json:"scheme"`
	} `json:"httpGet"`
	TCPSocket *struct {
		Port json.RawMessage `json:"port"`
		Host string          `json:"host"`
	} `json:"tcpSocket"`
	GRPC *struct {
		Port    int32   `json:"port"`
		Service *string `json:"service"`
	} `json:"grpc"`
	InitialDelaySeconds int32 `json:"initialDelaySeconds"`
	TimeoutSeconds      int32 `json:"timeoutSeconds"`
	PeriodSeconds       int32 `json:"periodSeconds"`
	SuccessThreshold    int32 `json:"successThreshold"`
	FailureThreshold    int32 `json:"failureThreshold"`
}

// volumeDoc holds the volume sources the describer lays out; any other
// source is refused.
type volumeDoc struct {
	Name     string `json:"name"`
	HostPath *struct {
		Path string  `json:"path"`
		Type *string `json:"type"`
	} `json:"hostPath"`
	EmptyDir *struct {
		Medium    string `json:"medium"`
		SizeLimit string `json:"sizeLimit"`
	} `json:"emptyDir"`
	Secret *struct {
		SecretName string `json:"secretName"`
		Optional   *bool  `json:"optional"`
	} `json:"secret"`
	ConfigMap *struct {
		Name     string `json:"name"`
		Optional *bool  `json:"optional"`
	} `json:"configMap"`
	PersistentVolumeClaim *struct {
		ClaimName string `json:"claimName"`
		ReadOnly  bool   `json:"readOnly"`
	} `json:"persistentVolumeClaim"`
}

func (v *volumeDoc) supported() bool {
	return v.HostPath != nil || v.EmptyDir != nil || v.Secret != nil || v.ConfigMap != nil || v.PersistentVolumeClaim != nil
}

type tolerationDoc struct {
	Key               string `json:"key"`
	Operator          string `json:"operator"`
	Value             string `json:"value"`
	Effect            string `json:"effect"`
	TolerationSeconds *int64 `json:"tolerationSeconds"`
}

func unsupported(field string) error {
	return fmt.Errorf("spec.template.spec.%s: %w", field, ErrUnsupported)
}

func isSet(raw json.RawMessage) bool {
	return len(raw) > 0 && !bytes.Equal(raw, []byte("null"))
}

func (s *podSpecDoc) supported() error {
	for i := range s.Volumes {
		if !s.Volumes[i].supported() {
			return unsupported(fmt.Sprintf("volumes[%d] (only hostPath, emptyDir, secret, configMap and persistentVolumeClaim are described)", i))
		}
	}
	if len(s.TopologySpreadConstraints) > 0 {
		return unsupported("topologySpreadConstraints")
	}
	if isSet(s.SchedulingGroup) {
		return unsupported("schedulingGroup")
	}
	for _, group := range []struct {
		kind string
		cs   []containerDoc
	}{{"initContainers", s.InitContainers}, {"containers", s.Containers}} {
		kind := group.kind
		for i, c := range group.cs {
			at := fmt.Sprintf("%s[%d].", kind, i)
			if len(c.VolumeDevices) > 0 {
				return unsupported(at + "volumeDevices")
			}
			if sc := c.SecurityContext; sc != nil && sc.SeccompProfile != nil &&
				sc.SeccompProfile.Type == "Localhost" && sc.SeccompProfile.LocalhostProfile == nil {
				// kubectl dereferences the missing profile and fails.
				return unsupported(at + "securityContext.seccompProfile (Localhost without localhostProfile)")
			}
			for j, e := range c.Env {
				if e.ValueFrom != nil && isSet(e.ValueFrom.ResourceFieldRef) {
					return unsupported(fmt.Sprintf("%senv[%d].valueFrom.resourceFieldRef", at, j))
				}
			}
			for _, p := range []*probeDoc{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
				if p != nil && p.GRPC != nil && p.GRPC.Service == nil {
					// kubectl dereferences the service and fails.
					return unsupported(at + "probe.grpc without service")
				}
			}
		}
	}
	return nil
}

// prefixWriter is kubectl's describe writer: two spaces per level, and every
// write escaped for the terminal.
type prefixWriter struct{ b strings.Builder }

var terminalEscaper = strings.NewReplacer("\x1b", "^[", "\r", `\r`)

func (w *prefixWriter) write(level int, format string, args ...any) {
	out := fmt.Sprintf(strings.Repeat("  ", level)+format, args...)
	_, _ = terminalEscaper.WriteString(&w.b, out)
}

func (w *prefixWriter) line(s string) {
	_, _ = terminalEscaper.WriteString(&w.b, s+"\n")
}

func (w *prefixWriter) labels(title string, labels map[string]string) {
	w.write(0, "%s:%s", title, "\t")
	if len(labels) == 0 {
		w.line("<none>")
		return
	}
	for i, k := range slices.Sorted(maps.Keys(labels)) {
		if i != 0 {
			w.write(0, "%s", "")
			w.write(0, "%s", "\t")
		}
		w.write(0, "%s=%s\n", k, labels[k])
	}
}

// maxAnnotationLen is kubectl describe's limit for an annotation on one line.
const maxAnnotationLen = 140

func (w *prefixWriter) annotations(title string, annotations map[string]string) {
	w.write(0, "%s:\t", title)
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(annotations)) {
		if k != model.LastAppliedConfigAnnotation {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		w.line("<none>")
		return
	}
	for i, k := range keys {
		if i != 0 {
			w.write(0, "\t")
		}
		v := strings.TrimSuffix(annotations[k], "\n")
		if len(v)+len(k)+2 > maxAnnotationLen || strings.Contains(v, "\n") {
			w.write(0, "%s:\n", k)
			for _, s := range strings.Split(v, "\n") {
				if len(s) > maxAnnotationLen-2 {
					s = s[:maxAnnotationLen-2] + "..."
				}
				w.write(0, "%s  %s\n", "\t", s)
			}
		} else {
			w.write(0, "%s: %s\n", k, v)
		}
	}
}

func (w *prefixWriter) containers(label string, cs []containerDoc) {
	none := ""
	if len(cs) == 0 {
		none = " <none>"
	}
	w.write(0, "%s%s:%s\n", "  ", label, none)
	for _, c := range cs {
		w.write(1, "%s%v:\n", " ", c.Name)
		w.write(2, "Image:\t%s\n", c.Image)
		ports, hostPorts := make([]string, 0, len(c.Ports)), make([]string, 0, len(c.Ports))
		for _, p := range c.Ports {
			cp, hp := fmt.Sprintf("%d/%s", p.ContainerPort, p.Protocol), fmt.Sprintf("%d/%s", p.HostPort, p.Protocol)
			if p.Name != "" {
				cp, hp = fmt.Sprintf("%s (%s)", cp, p.Name), fmt.Sprintf("%s (%s)", hp, p.Name)
			}
			ports, hostPorts = append(ports, cp), append(hostPorts, hp)
		}
		w.portLine("Port", strings.Join(ports, ", "))
		w.portLine("Host Port", strings.Join(hostPorts, ", "))
		if sc := c.SecurityContext; sc != nil && sc.SeccompProfile != nil {
			w.write(2, "SeccompProfile:\t%s\n", sc.SeccompProfile.Type)
			if sc.SeccompProfile.Type == "Localhost" {
				w.write(3, "LocalhostProfile:\t%s\n", *sc.SeccompProfile.LocalhostProfile)
			}
		}
		w.command("Command", c.Command)
		w.command("Args", c.Args)
		w.resources("Limits", c.Resources.Limits)
		w.resources("Requests", c.Resources.Requests)
		w.probe("Liveness", c.LivenessProbe)
		w.probe("Readiness", c.ReadinessProbe)
		w.probe("Startup", c.StartupProbe)
		if len(c.EnvFrom) > 0 {
			w.envFrom(c.EnvFrom)
		}
		w.env(c.Env)
		w.mounts(c.VolumeMounts)
	}
}

func (w *prefixWriter) portLine(title, s string) {
	if strings.Contains(s, ",") {
		w.write(2, "%ss:\t%s\n", title, s)
		return
	}
	if s == "" {
		s = "<none>"
	}
	w.write(2, "%s:\t%s\n", title, s)
}

func (w *prefixWriter) command(title string, args []string) {
	if len(args) == 0 {
		return
	}
	w.write(2, "%s:\n", title)
	for _, a := range args {
		for _, s := range strings.Split(a, "\n") {
			w.write(3, "%s\n", s)
		}
	}
}

func (w *prefixWriter) resources(title string, list map[string]string) {
	if len(list) == 0 {
		return
	}
	w.write(2, "%s:\n", title)
	for _, name := range slices.Sorted(maps.Keys(list)) {
		w.write(3, "%s:\t%s\n", name, list[name])
	}
}

func (w *prefixWriter) probe(title string, p *probeDoc) {
	if p == nil {
		return
	}
	w.write(2, "%s:\t%s\n", title, describeProbe(p))
}

// intOrString renders a JSON int-or-string as its string form.
func intOrString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return "0"
}

func describeProbe(p *probeDoc) string {
	attrs := fmt.Sprintf("delay=%ds timeout=%ds period=%ds #success=%d #failure=%d",
		p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold)
	switch {
	case p.Exec != nil:
		return fmt.Sprintf("exec %v %s", p.Exec.Command, attrs)
	case p.HTTPGet != nil:
		u := &url.URL{Scheme: strings.ToLower(p.HTTPGet.Scheme), Path: p.HTTPGet.Path}
		if port := intOrString(p.HTTPGet.Port); port != "" {
			u.Host = net.JoinHostPort(p.HTTPGet.Host, port)
		} else {
			u.Host = p.HTTPGet.Host
		}
		return fmt.Sprintf("http-get %s %s", u.String(), attrs)
	case p.TCPSocket != nil:
		return fmt.Sprintf("tcp-socket %s:%s %s", p.TCPSocket.Host, intOrString(p.TCPSocket.Port), attrs)
	case p.GRPC != nil:
		return fmt.Sprintf("grpc <pod>:%d %s %s", p.GRPC.Port, *p.GRPC.Service, attrs)
	}
	return fmt.Sprintf("unknown %s", attrs)
}

func optional(r *refDoc) bool { return r.Optional != nil && *r.Optional }

func (w *prefixWriter) envFrom(list []envFromDoc) {
	w.write(2, "Environment Variables from:%s\n", "")
	for _, e := range list {
		from, name, opt := "", "", false
		switch {
		case e.ConfigMapRef != nil:
			from, name, opt = "ConfigMap", e.ConfigMapRef.Name, optional(e.ConfigMapRef)
		case e.SecretRef != nil:
			from, name, opt = "Secret", e.SecretRef.Name, optional(e.SecretRef)
		}
		if e.Prefix == "" {
			w.write(3, "%s\t%s\tOptional: %t\n", name, from, opt)
		} else {
			w.write(3, "%s\t%s with prefix '%s'\tOptional: %t\n", name, from, e.Prefix, opt)
		}
	}
}

func (w *prefixWriter) env(list []envDoc) {
	none := ""
	if len(list) == 0 {
		none = "\t<none>"
	}
	w.write(2, "Environment:%s\n", none)
	for _, e := range list {
		if e.ValueFrom == nil {
			for i, s := range strings.Split(e.Value, "\n") {
				if i == 0 {
					w.write(3, "%s:\t%s\n", e.Name, s)
				} else {
					w.write(3, "\t%s\n", s)
				}
			}
			continue
		}
		vf := e.ValueFrom
		switch {
		case vf.FieldRef != nil:
			// kubectl has no resolver here, so the value is empty.
			w.write(3, "%s:\t%s (%s:%s)\n", e.Name, "", vf.FieldRef.APIVersion, vf.FieldRef.FieldPath)
		case vf.SecretKeyRef != nil:
			w.write(3, "%s:\t<set to the key '%s' in secret '%s'>\tOptional: %t\n", e.Name, vf.SecretKeyRef.Key, vf.SecretKeyRef.Name, optional(vf.SecretKeyRef))
		case vf.ConfigMapKeyRef != nil:
			w.write(3, "%s:\t<set to the key '%s' of config map '%s'>\tOptional: %t\n", e.Name, vf.ConfigMapKeyRef.Key, vf.ConfigMapKeyRef.Name, optional(vf.ConfigMapKeyRef))
		}
	}
}

func (w *prefixWriter) mounts(list []mountDoc) {
	none := ""
	if len(list) == 0 {
		none = "\t<none>"
	}
	w.write(2, "Mounts:%s\n", none)
	sorted := slices.Clone(list)
	slices.SortStableFunc(sorted, func(a, b mountDoc) int { return strings.Compare(a.MountPath, b.MountPath) })
	for _, m := range sorted {
		flags := []string{"rw"}
		if m.ReadOnly {
			flags[0] = "ro"
		}
		if m.SubPath != "" {
			flags = append(flags, fmt.Sprintf("path=%q", m.SubPath))
		}
		w.write(3, "%s from %s (%s)\n", m.MountPath, m.Name, strings.Join(flags, ","))
	}
}

func (w *prefixWriter) tolerations(title string, list []tolerationDoc) {
	w.write(0, "%s:%s", title, "\t")
	if len(list) == 0 {
		w.line("<none>")
		return
	}
	sorted := slices.Clone(list)
	slices.SortStableFunc(sorted, func(a, b tolerationDoc) int { return strings.Compare(a.Key, b.Key) })
	for i, t := range sorted {
		if i != 0 {
			w.write(0, "%s", "")
			w.write(0, "%s", "\t")
		}
		w.write(0, "%s", t.Key)
		if t.Value != "" {
			w.write(0, "=%s", t.Value)
		}
		if t.Effect != "" {
			w.write(0, ":%s", t.Effect)
		}
		if t.Operator == "Exists" && t.Value == "" {
			if t.Key != "" || t.Effect != "" {
				w.write(0, " op=Exists")
			} else {
				w.write(0, "op=Exists")
			}
		}
		if t.TolerationSeconds != nil {
			w.write(0, " for %ds", *t.TolerationSeconds)
		}
		w.write(0, "\n")
	}
}

func (w *prefixWriter) volumes(list []volumeDoc) {
	if len(list) == 0 {
		w.write(0, "%sVolumes:\t<none>\n", "  ")
		return
	}
	w.write(0, "%sVolumes:\n", "  ")
	for _, v := range list {
		w.write(1, "%s%v:\n", " ", v.Name)
		switch {
		case v.HostPath != nil:
			typ := "<none>"
			if v.HostPath.Type != nil {
				typ = *v.HostPath.Type
			}
			w.write(2, "Type:\tHostPath (bare host directory volume)\n    Path:\t%v\n    HostPathType:\t%v\n", v.HostPath.Path, typ)
		case v.EmptyDir != nil:
			// The API returns quantities in canonical form, so a positive
			// limit is any but "0" and negative ones.
			limit := v.EmptyDir.SizeLimit
			if limit == "" || limit == "0" || strings.HasPrefix(limit, "-") {
				limit = "<unset>"
			}
			w.write(2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t%v\n    SizeLimit:\t%v\n", v.EmptyDir.Medium, limit)
		case v.Secret != nil:
			w.write(2, "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t%v\n    Optional:\t%v\n",
				v.Secret.SecretName, v.Secret.Optional != nil && *v.Secret.Optional)
		case v.ConfigMap != nil:
			w.write(2, "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t%v\n    Optional:\t%v\n",
				v.ConfigMap.Name, v.ConfigMap.Optional != nil && *v.ConfigMap.Optional)
		case v.PersistentVolumeClaim != nil:
			w.write(2, "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t%v\n    ReadOnly:\t%v\n",
				v.PersistentVolumeClaim.ClaimName, v.PersistentVolumeClaim.ReadOnly)
		}
	}
}
