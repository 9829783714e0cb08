package rollout

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
)

// ErrUnsupported is matched (errors.Is) by the error [DescribeTemplate]
// returns for a template kubectl itself cannot describe (its describer
// fails on it), and by the errors of revision data the history functions
// cannot read as kubectl does.
var ErrUnsupported = errors.New("not supported by the template describer")

// DescribeTemplate lays out a pod template as kubectl's DescribePodTemplate
// does (the text of rollout history --revision=N and of rollout undo
// --dry-run=client), with every part kubectl prints: labels and annotations
// sorted by key (the last-applied-configuration annotation left out, long or
// multi-line annotation values broken up), the service account, init
// containers and containers (image, ports and host ports, seccomp profile,
// command and args, limits and requests, liveness, readiness and startup
// probes, environment variables from sources and values, including
// resource fields resolved against the container's resources as kubectl
// does, mounts and volume devices), volumes of every kind kubectl describes
// (and "<unknown>" for others, as kubectl), topology spread constraints,
// priority class, node selectors, tolerations and the scheduling group, with
// kubectl's terminal escaping (ESC as "^[", CR as `\r`).
//
// t.Spec must be the JSON of a v1 PodTemplateSpec without labels and
// annotations (what the apps/v1 adapter stores). Resource quantities are
// printed as written; the API server (and the adapter, which encodes them
// with the Kubernetes types) always gives them in the canonical form kubectl
// prints. Lists kubectl sorts (mounts, devices, tolerations, topology spread
// constraints) are sorted with the same sort package calls and orders, so
// entries with equal keys come out in kubectl's order.
//
// The templates kubectl's describer fails on are refused with an error
// naming the field and matching [ErrUnsupported]: a Localhost seccomp
// profile without its file, a gRPC probe without a service, a projected
// service account token without expirationSeconds, an azureDisk volume
// without kind, fsType, cachingMode or readOnly, and a scheduling group
// without podGroupName (the API server defaults or requires all of these);
// so is a resource field whose quantity has a decimal exponent beyond
// ±1000, whose value the Kubernetes resource package cannot build in
// bounded time. Resource fields resolve with the resource package's own
// arithmetic, overflow included, so huge quantities print what kubectl
// prints.
func DescribeTemplate(t model.PodTemplate) (string, error) {
	var doc podTemplateDoc
	if t.Spec != "" {
		dec := json.NewDecoder(strings.NewReader(t.Spec))
		if err := dec.Decode(&doc); err != nil {
			return "", &model.FieldError{Field: "spec.template", Detail: "not a pod template document: " + err.Error()}
		}
	}
	s := &doc.Spec
	if err := s.supported(); err != nil {
		return "", err
	}
	w := &prefixWriter{b: &strings.Builder{}}
	w.write(0, "Pod Template:\n")
	w.labels("  Labels", t.Labels)
	if len(t.Annotations) > 0 {
		w.annotations("  Annotations", t.Annotations)
	}
	if s.ServiceAccountName != "" {
		w.write(1, "Service Account:\t%s\n", s.ServiceAccountName)
	}
	if len(s.InitContainers) > 0 {
		if err := w.containers("Init Containers", "initContainers", s.InitContainers); err != nil {
			return "", err
		}
	}
	if err := w.containers("Containers", "containers", s.Containers); err != nil {
		return "", err
	}
	w.volumes(s.Volumes)
	w.topologySpreadConstraints(s.TopologySpreadConstraints)
	if s.PriorityClassName != "" {
		w.write(1, "Priority Class Name:\t%s\n", s.PriorityClassName)
	}
	w.labels("  Node-Selectors", s.NodeSelector)
	w.tolerations("  Tolerations", s.Tolerations)
	if s.SchedulingGroup != nil {
		w.write(0, "  SchedulingGroup:\n")
		w.write(1, "PodGroupName:\t%s\n", *s.SchedulingGroup.PodGroupName)
	}
	return w.b.String(), nil
}

// The parts of a v1 PodTemplateSpec the describer reads. Unknown fields are
// ignored by the decoder: kubectl prints nothing of them.
type podTemplateDoc struct {
	Spec podSpecDoc `json:"spec"`
}

type podSpecDoc struct {
	ServiceAccountName        string            `json:"serviceAccountName"`
	InitContainers            []containerDoc    `json:"initContainers"`
	Containers                []containerDoc    `json:"containers"`
	Volumes                   []volumeDoc       `json:"volumes"`
	TopologySpreadConstraints []spreadDoc       `json:"topologySpreadConstraints"`
	PriorityClassName         string            `json:"priorityClassName"`
	NodeSelector              map[string]string `json:"nodeSelector"`
	Tolerations               []tolerationDoc   `json:"tolerations"`
	SchedulingGroup           *struct {
		PodGroupName *string `json:"podGroupName"`
	} `json:"schedulingGroup"`
}

type containerDoc struct {
	Name            string           `json:"name"`
	Image           string           `json:"image"`
	Command         []string         `json:"command"`
	Args            []string         `json:"args"`
	Ports           []portDoc        `json:"ports"`
	EnvFrom         []envFromDoc     `json:"envFrom"`
	Env             []envDoc         `json:"env"`
	Resources       resourcesDoc     `json:"resources"`
	VolumeMounts    []mountDoc       `json:"volumeMounts"`
	VolumeDevices   []deviceDoc      `json:"volumeDevices"`
	LivenessProbe   *probeDoc        `json:"livenessProbe"`
	ReadinessProbe  *probeDoc        `json:"readinessProbe"`
	StartupProbe    *probeDoc        `json:"startupProbe"`
	SecurityContext *securityContext `json:"securityContext"`
}

type securityContext struct {
	SeccompProfile *struct {
		Type             string  `json:"type"`
		LocalhostProfile *string `json:"localhostProfile"`
	} `json:"seccompProfile"`
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
		ResourceFieldRef *struct {
			Resource string       `json:"resource"`
			Divisor  quantityText `json:"divisor"`
		} `json:"resourceFieldRef"`
		ConfigMapKeyRef *refDoc `json:"configMapKeyRef"`
		SecretKeyRef    *refDoc `json:"secretKeyRef"`
	} `json:"valueFrom"`
}

type resourcesDoc struct {
	Limits   map[string]quantityText `json:"limits"`
	Requests map[string]quantityText `json:"requests"`
}

type mountDoc struct {
	Name      string `json:"name"`
	ReadOnly  bool   `json:"readOnly"`
	MountPath string `json:"mountPath"`
	SubPath   string `json:"subPath"`
}

type deviceDoc struct {
	Name       string `json:"name"`
	DevicePath string `json:"devicePath"`
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

type spreadDoc struct {
	MaxSkew           int32                `json:"maxSkew"`
	TopologyKey       string               `json:"topologyKey"`
	WhenUnsatisfiable string               `json:"whenUnsatisfiable"`
	LabelSelector     *model.LabelSelector `json:"labelSelector"`
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

// supported refuses what kubectl's describer dereferences without a check
// (it fails on such templates); the API server defaults or requires each of
// these fields, so only hand-made templates have them unset.
func (s *podSpecDoc) supported() error {
	for i := range s.Volumes {
		if err := s.Volumes[i].supported(); err != nil {
			return unsupported(fmt.Sprintf("volumes[%d].%s", i, err))
		}
	}
	if s.SchedulingGroup != nil && s.SchedulingGroup.PodGroupName == nil {
		return unsupported("schedulingGroup (without podGroupName)")
	}
	for _, group := range []struct {
		kind string
		cs   []containerDoc
	}{{"initContainers", s.InitContainers}, {"containers", s.Containers}} {
		for i, c := range group.cs {
			at := fmt.Sprintf("%s[%d].", group.kind, i)
			if sc := c.SecurityContext; sc != nil && sc.SeccompProfile != nil &&
				sc.SeccompProfile.Type == "Localhost" && sc.SeccompProfile.LocalhostProfile == nil {
				return unsupported(at + "securityContext.seccompProfile (Localhost without localhostProfile)")
			}
			for _, p := range []*probeDoc{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
				if p != nil && p.Exec == nil && p.HTTPGet == nil && p.TCPSocket == nil && p.GRPC != nil && p.GRPC.Service == nil {
					return unsupported(at + "probe.grpc (without service)")
				}
			}
		}
	}
	return nil
}

// prefixWriter is kubectl's describe writer: two spaces per level, and every
// write escaped for the terminal. indent is the number of levels a nested
// writer adds to every write (kubectl's nested prefix writer).
type prefixWriter struct {
	b      *strings.Builder
	indent int
}

var terminalEscaper = strings.NewReplacer("\x1b", "^[", "\r", `\r`)

func (w *prefixWriter) write(level int, format string, args ...any) {
	out := fmt.Sprintf(strings.Repeat("  ", level+w.indent)+format, args...)
	_, _ = terminalEscaper.WriteString(w.b, out)
}

// line is kubectl's WriteLine: the text and a newline, at the writer's own
// indentation (none for the top writer).
func (w *prefixWriter) line(s string) {
	w.write(0, "%s", s+"\n")
}

func (w *prefixWriter) nested(levels int) *prefixWriter {
	return &prefixWriter{b: w.b, indent: w.indent + levels}
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

// containers lays out one list of containers; field is its JSON name, for
// errors.
func (w *prefixWriter) containers(label, field string, cs []containerDoc) error {
	none := ""
	if len(cs) == 0 {
		none = " <none>"
	}
	w.write(0, "%s%s:%s\n", "  ", label, none)
	for i := range cs {
		c := &cs[i]
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
		if err := w.env(c); err != nil {
			return fmt.Errorf("spec.template.spec.%s[%d].%w", field, i, err)
		}
		w.mounts(c.VolumeMounts, c.VolumeDevices)
	}
	return nil
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

func (w *prefixWriter) resources(title string, list map[string]quantityText) {
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

func (w *prefixWriter) env(c *containerDoc) error {
	none := ""
	if len(c.Env) == 0 {
		none = "\t<none>"
	}
	w.write(2, "Environment:%s\n", none)
	for j, e := range c.Env {
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
		case vf.ResourceFieldRef != nil:
			value, err := containerResourceValue(vf.ResourceFieldRef.Resource, vf.ResourceFieldRef.Divisor, c.Resources)
			if err != nil {
				return fmt.Errorf("env[%d].valueFrom.resourceFieldRef: %w", j, err)
			}
			w.write(3, "%s:\t%s (%s)\n", e.Name, value, vf.ResourceFieldRef.Resource)
		case vf.SecretKeyRef != nil:
			w.write(3, "%s:\t<set to the key '%s' in secret '%s'>\tOptional: %t\n", e.Name, vf.SecretKeyRef.Key, vf.SecretKeyRef.Name, optional(vf.SecretKeyRef))
		case vf.ConfigMapKeyRef != nil:
			w.write(3, "%s:\t<set to the key '%s' of config map '%s'>\tOptional: %t\n", e.Name, vf.ConfigMapKeyRef.Key, vf.ConfigMapKeyRef.Name, optional(vf.ConfigMapKeyRef))
		}
	}
	return nil
}

// byMountPath and byDevicePath are the orders kubectl sorts mounts and
// devices in, through sort.Sort as kubectl does, so that equal paths keep
// kubectl's order.
type byMountPath []mountDoc

func (l byMountPath) Len() int           { return len(l) }
func (l byMountPath) Swap(i, j int)      { l[i], l[j] = l[j], l[i] }
func (l byMountPath) Less(i, j int) bool { return l[i].MountPath < l[j].MountPath }

type byDevicePath []deviceDoc

func (l byDevicePath) Len() int           { return len(l) }
func (l byDevicePath) Swap(i, j int)      { l[i], l[j] = l[j], l[i] }
func (l byDevicePath) Less(i, j int) bool { return l[i].DevicePath < l[j].DevicePath }

func (w *prefixWriter) mounts(list []mountDoc, devices []deviceDoc) {
	none := ""
	if len(list) == 0 {
		none = "\t<none>"
	}
	w.write(2, "Mounts:%s\n", none)
	sorted := slices.Clone(list)
	sort.Sort(byMountPath(sorted))
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
	if len(devices) == 0 {
		return
	}
	// kubectl reuses the mounts' "<none>" here.
	w.write(2, "Devices:%s\n", none)
	sortedDevices := slices.Clone(devices)
	sort.Sort(byDevicePath(sortedDevices))
	for _, d := range sortedDevices {
		w.write(3, "%s from %s\n", d.DevicePath, d.Name)
	}
}

func (w *prefixWriter) topologySpreadConstraints(list []spreadDoc) {
	if len(list) == 0 {
		return
	}
	sorted := slices.Clone(list)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].TopologyKey < sorted[j].TopologyKey })
	w.write(0, "%sTopology Spread Constraints:\t", "  ")
	for i, c := range sorted {
		if i != 0 {
			w.write(0, "%s", "  ")
			w.write(0, "%s", "\t")
		}
		w.write(0, "%s:", c.TopologyKey)
		w.write(0, "%v", c.WhenUnsatisfiable)
		w.write(0, " when max skew %d is exceeded", c.MaxSkew)
		if c.LabelSelector != nil {
			w.write(0, " for selector %s", formatLabelSelector(c.LabelSelector))
		}
		w.write(0, "\n")
	}
}

// formatLabelSelector is metav1.FormatLabelSelector: the requirements
// sorted by key (matchLabels before expressions of the same key, as the
// selector library's sort leaves them), "<none>" for an empty selector,
// "<error>" for an invalid one.
func formatLabelSelector(s *model.LabelSelector) string {
	if s.Check() != nil {
		return "<error>"
	}
	type req struct{ key, text string }
	var reqs []req
	for _, k := range slices.Sorted(maps.Keys(s.MatchLabels)) {
		reqs = append(reqs, req{k, k + "=" + s.MatchLabels[k]})
	}
	for _, r := range s.MatchExpressions {
		var text string
		values := slices.Sorted(slices.Values(r.Values))
		switch r.Operator {
		case model.SelectorOpIn:
			text = r.Key + " in (" + strings.Join(values, ",") + ")"
		case model.SelectorOpNotIn:
			text = r.Key + " notin (" + strings.Join(values, ",") + ")"
		case model.SelectorOpExists:
			text = r.Key
		default:
			text = "!" + r.Key
		}
		reqs = append(reqs, req{r.Key, text})
	}
	slices.SortStableFunc(reqs, func(a, b req) int { return strings.Compare(a.key, b.key) })
	texts := make([]string, len(reqs))
	for i, r := range reqs {
		texts[i] = r.text
	}
	if len(texts) == 0 {
		return "<none>"
	}
	return strings.Join(texts, ",")
}

func (w *prefixWriter) tolerations(title string, list []tolerationDoc) {
	w.write(0, "%s:%s", title, "\t")
	if len(list) == 0 {
		w.line("<none>")
		return
	}
	sorted := slices.Clone(list)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Key < sorted[j].Key })
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
