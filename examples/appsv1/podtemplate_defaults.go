package appsv1

import (
	"reflect"
	"regexp"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// StatefulSetTemplateDefaults is the [statefulset.WithRevisionDefaults]
// function of the apps/v1 adapter: it applies to a template converted by
// [TemplateToModel] the defaults the API server gives a StatefulSet's pod
// template ([DefaultPodTemplate]). Upstream defaults the latest
// revision's template this way before it compares it with the set's, so
// that a revision stored without defaulted fields still counts as the
// set's.
func StatefulSetTemplateDefaults(t model.PodTemplate) (model.PodTemplate, error) {
	tmpl, err := TemplateFromModel(t)
	if err != nil {
		return model.PodTemplate{}, err
	}
	DefaultPodTemplate(&tmpl)
	return TemplateToModel(&tmpl)
}

// DefaultPodTemplate applies in place the defaults the API server gives a
// workload's pod template (Kubernetes v1.36; the defaulting of a
// Deployment, ReplicaSet, StatefulSet and DaemonSet reaches the template's
// pod spec in the same way): the pod spec's DNS policy,
// restart policy, security context, termination grace period and scheduler;
// each volume's source (emptyDir when none) and the modes, types and names
// its kind defaults; each container's image pull policy (Always for a
// ":latest" or untagged image, IfNotPresent otherwise), termination message
// path and policy, port protocols, field references, probe timings and
// HTTP schemes; and resource quantities rounded up to milli-units.
func DefaultPodTemplate(t *core.PodTemplateSpec) {
	s := &t.Spec
	if s.DNSPolicy == "" {
		s.DNSPolicy = core.DNSClusterFirst
	}
	if s.RestartPolicy == "" {
		s.RestartPolicy = core.RestartPolicyAlways
	}
	if s.SecurityContext == nil {
		s.SecurityContext = &core.PodSecurityContext{}
	}
	if s.TerminationGracePeriodSeconds == nil {
		s.TerminationGracePeriodSeconds = new(int64(core.DefaultTerminationGracePeriodSeconds))
	}
	if s.SchedulerName == "" {
		s.SchedulerName = core.DefaultSchedulerName
	}
	for i := range s.Volumes {
		defaultVolume(&s.Volumes[i])
	}
	for i := range s.InitContainers {
		defaultContainer(&s.InitContainers[i])
	}
	for i := range s.Containers {
		defaultContainer(&s.Containers[i])
	}
	for i := range s.EphemeralContainers {
		defaultContainer((*core.Container)(&s.EphemeralContainers[i].EphemeralContainerCommon))
	}
	roundUpResources(s.Overhead)
	if s.Resources != nil {
		roundUpResources(s.Resources.Limits)
		roundUpResources(s.Resources.Requests)
	}
}

// defaultVolume applies the defaults of one pod volume.
func defaultVolume(v *core.Volume) {
	if allPointersNil(&v.VolumeSource) {
		v.VolumeSource = core.VolumeSource{EmptyDir: &core.EmptyDirVolumeSource{}}
	}
	src := &v.VolumeSource
	if src.EmptyDir != nil {
		canonicalQuantity(src.EmptyDir.SizeLimit)
	}
	if src.Image != nil && src.Image.PullPolicy == "" {
		src.Image.PullPolicy = pullPolicy(src.Image.Reference)
	}
	if src.HostPath != nil && src.HostPath.Type == nil {
		src.HostPath.Type = new(core.HostPathUnset)
	}
	if src.Secret != nil && src.Secret.DefaultMode == nil {
		src.Secret.DefaultMode = new(core.SecretVolumeSourceDefaultMode)
	}
	if src.ISCSI != nil && src.ISCSI.ISCSIInterface == "" {
		src.ISCSI.ISCSIInterface = "default"
	}
	if r := src.RBD; r != nil {
		if r.RBDPool == "" {
			r.RBDPool = "rbd"
		}
		if r.RadosUser == "" {
			r.RadosUser = "admin"
		}
		if r.Keyring == "" {
			r.Keyring = "/etc/ceph/keyring"
		}
	}
	if d := src.DownwardAPI; d != nil {
		if d.DefaultMode == nil {
			d.DefaultMode = new(core.DownwardAPIVolumeSourceDefaultMode)
		}
		for i := range d.Items {
			defaultFieldRef(d.Items[i].FieldRef)
			defaultResourceFieldRef(d.Items[i].ResourceFieldRef)
		}
	}
	if c := src.ConfigMap; c != nil && c.DefaultMode == nil {
		c.DefaultMode = new(core.ConfigMapVolumeSourceDefaultMode)
	}
	if a := src.AzureDisk; a != nil {
		if a.CachingMode == nil {
			a.CachingMode = new(core.AzureDataDiskCachingReadWrite)
		}
		if a.FSType == nil {
			a.FSType = new("ext4")
		}
		if a.ReadOnly == nil {
			a.ReadOnly = new(false)
		}
		if a.Kind == nil {
			a.Kind = new(core.AzureSharedBlobDisk)
		}
	}
	if p := src.Projected; p != nil {
		if p.DefaultMode == nil {
			p.DefaultMode = new(core.ProjectedVolumeSourceDefaultMode)
		}
		for i := range p.Sources {
			ps := &p.Sources[i]
			if ps.DownwardAPI != nil {
				for j := range ps.DownwardAPI.Items {
					defaultFieldRef(ps.DownwardAPI.Items[j].FieldRef)
					defaultResourceFieldRef(ps.DownwardAPI.Items[j].ResourceFieldRef)
				}
			}
			if t := ps.ServiceAccountToken; t != nil && t.ExpirationSeconds == nil {
				t.ExpirationSeconds = new(int64(3600))
			}
		}
	}
	if s := src.ScaleIO; s != nil {
		if s.StorageMode == "" {
			s.StorageMode = "ThinProvisioned"
		}
		if s.FSType == "" {
			s.FSType = "xfs"
		}
	}
	if e := src.Ephemeral; e != nil && e.VolumeClaimTemplate != nil {
		spec := &e.VolumeClaimTemplate.Spec
		if spec.VolumeMode == nil {
			spec.VolumeMode = new(core.PersistentVolumeFilesystem)
		}
		roundUpResources(spec.Resources.Limits)
		roundUpResources(spec.Resources.Requests)
	}
}

// allPointersNil reports whether every pointer field of the struct *p is
// nil (a volume source of no kind).
func allPointersNil(p *core.VolumeSource) bool {
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Pointer && !f.IsNil() {
			return false
		}
	}
	return true
}

// defaultContainer applies the defaults of one container.
func defaultContainer(c *core.Container) {
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = pullPolicy(c.Image)
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = core.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = core.TerminationMessageReadFile
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = core.ProtocolTCP
		}
	}
	for i := range c.Env {
		if from := c.Env[i].ValueFrom; from != nil {
			defaultFieldRef(from.FieldRef)
			defaultResourceFieldRef(from.ResourceFieldRef)
			if from.FileKeyRef != nil && from.FileKeyRef.Optional == nil {
				from.FileKeyRef.Optional = new(false)
			}
		}
	}
	roundUpResources(c.Resources.Limits)
	roundUpResources(c.Resources.Requests)
	for _, p := range []*core.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		defaultProbe(p)
	}
	if l := c.Lifecycle; l != nil {
		for _, h := range []*core.LifecycleHandler{l.PostStart, l.PreStop} {
			if h != nil {
				defaultHTTPGet(h.HTTPGet)
			}
		}
	}
}

func defaultProbe(p *core.Probe) {
	if p == nil {
		return
	}
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	defaultHTTPGet(p.HTTPGet)
	if p.GRPC != nil && p.GRPC.Service == nil {
		p.GRPC.Service = new("")
	}
}

func defaultHTTPGet(h *core.HTTPGetAction) {
	if h == nil {
		return
	}
	if h.Path == "" {
		h.Path = "/"
	}
	if h.Scheme == "" {
		h.Scheme = core.URISchemeHTTP
	}
}

func defaultFieldRef(f *core.ObjectFieldSelector) {
	if f != nil && f.APIVersion == "" {
		f.APIVersion = "v1"
	}
}

// roundUpResources rounds every quantity up to milli-units, as the API
// server's defaulting of resource lists does, in canonical form.
func roundUpResources(l core.ResourceList) {
	for k, q := range l {
		q.RoundUp(resource.Milli)
		canonicalQuantity(&q)
		l[k] = q
	}
}

// canonicalQuantity gives q the form it has once an API server has stored
// it and a client has read it back (its canonical string, parsed): "0.25"
// becomes 250m. The value is the same, but the pod-template-hash, which
// hashes the quantity's representation, is the server's only in that form.
func canonicalQuantity(q *resource.Quantity) {
	if q == nil {
		return
	}
	if c, err := resource.ParseQuantity(q.String()); err == nil {
		*q = c
	}
}

// defaultResourceFieldRef gives a resourceFieldRef's divisor its
// canonical form.
func defaultResourceFieldRef(r *core.ResourceFieldSelector) {
	if r != nil && !r.Divisor.IsZero() {
		canonicalQuantity(&r.Divisor)
	}
}

// pullPolicy is the image pull policy defaulted for an image reference:
// Always for tag "latest" (an untagged, undigested reference has it),
// IfNotPresent otherwise, including for a reference that does not parse.
func pullPolicy(image string) core.PullPolicy {
	if tag, ok := imageTag(image); ok && tag == "latest" {
		return core.PullAlways
	}
	return core.PullIfNotPresent
}

// The grammar of image references (docker/distribution's reference
// package): a name of path components (an optional domain first), an
// optional tag, an optional digest.
var (
	imageRefRegexp = regexp.MustCompile(`^((?:` + imageDomain + `/)?` + imagePath + `)(?::([\w][\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$`)
	hex64Regexp    = regexp.MustCompile(`^[a-f0-9]{64}$`)
)

const (
	imageDomainComponent = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
	imageDomain          = `(?:` + imageDomainComponent + `(?:\.` + imageDomainComponent + `)*|\[(?:[a-fA-F0-9:]+)\])(?::[0-9]+)?`
	imageComponent       = `[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*`
	imagePath            = imageComponent + `(?:/` + imageComponent + `)*`
)

// imageTag returns the tag of an image reference as upstream's
// ParseImageName reads it ("latest" when it has neither tag nor digest),
// and false when the reference does not parse (upstream then defaults as
// for any other tag). Digests are accepted for sha256, sha384 and sha512
// with their lengths.
func imageTag(image string) (string, bool) {
	if hex64Regexp.MatchString(image) {
		return "", false
	}
	// The repository part (after a domain, if any) must be lower case.
	rest := image
	if i := strings.IndexByte(image, '/'); i >= 0 {
		head := image[:i]
		if strings.ContainsAny(head, ".:") || head == "localhost" || strings.ToLower(head) != head {
			rest = image[i+1:]
		}
	}
	if remote, _, _ := strings.Cut(rest, ":"); strings.ToLower(remote) != remote {
		return "", false
	}
	m := imageRefRegexp.FindStringSubmatch(image)
	if m == nil || len(m[1]) > 255 {
		return "", false
	}
	if d := m[3]; d != "" {
		alg, hex, _ := strings.Cut(d, ":")
		want := map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}[alg]
		if want == 0 || len(hex) != want || strings.ToLower(hex) != hex {
			return "", false
		}
	}
	tag := m[2]
	if tag == "" && m[3] == "" {
		tag = "latest"
	}
	return tag, true
}
