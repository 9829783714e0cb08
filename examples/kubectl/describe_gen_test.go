package kubectl

import (
	"fmt"
	"strings"

	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"pgregory.net/rapid"
)

// This file draws pod templates using every field kubectl's pod template
// description (k8s.io/kubectl/pkg/describe DescribePodTemplate and what it
// calls) prints, with the values its code treats specially: nil and empty
// optional fields, lists long enough for Go's sort to leave insertion sort
// (more than twelve entries, with repeated keys), multi-source and
// source-less volumes, invalid selectors, non-canonical quantities, and
// terminal escapes. fullSpec.crash asks for one of the templates kubectl's
// describer crashes on (it dereferences a field the API server defaults).

func ptr[T any](v T) *T { return &v }

// optPtr draws nil or a pointer to one of xs.
func optPtr[T any](t *rapid.T, label string, xs ...T) *T {
	if chance(t, label+"-nil", 30) {
		return nil
	}
	return ptr(oneOf(t, label, xs...))
}

func optBool(t *rapid.T, label string) *bool { return optPtr(t, label, true, false) }

// word draws a short string, sometimes empty or with a terminal escape.
func word(t *rapid.T, label string, xs ...string) string {
	switch rapid.IntRange(0, 19).Draw(t, label+"-odd") {
	case 18:
		return ""
	case 19:
		return xs[0] + "\x1b[1m\r"
	}
	return oneOf(t, label, xs...)
}

func words(t *rapid.T, label string, xs ...string) []string {
	var out []string
	for i := range rapid.IntRange(0, 3).Draw(t, label+"-n") {
		out = append(out, oneOf(t, fmt.Sprintf("%s-%d", label, i), xs...))
	}
	return out
}

func localRef(t *rapid.T, label string) *core.LocalObjectReference {
	if chance(t, label, 50) {
		return nil
	}
	return &core.LocalObjectReference{Name: oneOf(t, label+"-name", "creds", "", "ceph-secret")}
}

// fullQuantity draws a quantity in canonical or other forms; kubectl and
// the adapter both print the canonical form.
func fullQuantity(t *rapid.T, label string) resource.Quantity {
	return resource.MustParse(oneOf(t, label, "0", "1", "2", "100m", "250m", "1500m", "1000m", "0.5", "1.5Gi", "64Mi", "1Gi", "500M",
		"2e3", "1k", "3Ki", "100Mi", "1Ti", "7n", "0.1Ki", "12345678u"))
}

func fullResourceList(t *rapid.T, label string) core.ResourceList {
	if chance(t, label, 30) {
		return nil
	}
	list := core.ResourceList{}
	for i := range rapid.IntRange(0, 4).Draw(t, label+"-n") {
		name := oneOf(t, fmt.Sprintf("%s-%d-name", label, i), "cpu", "memory", "ephemeral-storage", "hugepages-2Mi", "hugepages-1Gi", "example.com/gpu")
		list[core.ResourceName(name)] = fullQuantity(t, fmt.Sprintf("%s-%d-q", label, i))
	}
	return list
}

func fullProbe(t *rapid.T, label string, crash *string) *core.Probe {
	if chance(t, label, 40) {
		return nil
	}
	p := &core.Probe{
		InitialDelaySeconds: int32(rapid.IntRange(0, 30).Draw(t, label+"-delay")),
		TimeoutSeconds:      int32(rapid.IntRange(0, 5).Draw(t, label+"-timeout")),
		PeriodSeconds:       int32(rapid.IntRange(0, 20).Draw(t, label+"-period")),
		SuccessThreshold:    int32(rapid.IntRange(0, 3).Draw(t, label+"-success")),
		FailureThreshold:    int32(rapid.IntRange(0, 5).Draw(t, label+"-failure")),
	}
	if chance(t, label+"-grace", 10) {
		p.TerminationGracePeriodSeconds = ptr(int64(5))
	}
	port := func(l string) intstr.IntOrString {
		switch rapid.IntRange(0, 3).Draw(t, l) {
		case 0:
			return intstr.FromString("http")
		case 1:
			return intstr.FromString("")
		case 2:
			return intstr.IntOrString{}
		}
		return intstr.FromInt32(8080)
	}
	switch rapid.IntRange(0, 4).Draw(t, label+"-kind") {
	case 0:
		p.Exec = &core.ExecAction{Command: words(t, label+"-cmd", "cat", "/tmp/healthy", "sh -c 'exit 0'")}
	case 1:
		p.HTTPGet = &core.HTTPGetAction{
			Path:   oneOf(t, label+"-path", "/healthz", "", "/a b?c=d", "relative"),
			Port:   port(label + "-port"),
			Host:   oneOf(t, label+"-host", "", "10.0.0.1", "::1", "example.com"),
			Scheme: oneOf(t, label+"-scheme", core.URISchemeHTTP, core.URISchemeHTTPS, ""),
		}
		if chance(t, label+"-headers", 20) {
			p.HTTPGet.HTTPHeaders = []core.HTTPHeader{{Name: "X-Probe", Value: "1"}}
		}
	case 2:
		p.TCPSocket = &core.TCPSocketAction{Port: port(label + "-port"), Host: oneOf(t, label+"-host", "", "db")}
	case 3:
		p.GRPC = &core.GRPCAction{Port: int32(rapid.IntRange(0, 9090).Draw(t, label+"-port")), Service: ptr(oneOf(t, label+"-svc", "", "health"))}
		if rarely(t, label+"-crash", 3) {
			p.GRPC.Service = nil
			*crash = "grpc probe without service"
		}
	default:
		// No handler: kubectl prints "unknown".
	}
	return p
}

func fullEnv(t *rapid.T, label string) []core.EnvVar {
	var out []core.EnvVar
	for i := range rapid.IntRange(0, 5).Draw(t, label+"-n") {
		l := fmt.Sprintf("%s-%d", label, i)
		e := core.EnvVar{Name: oneOf(t, l+"-name", "A", "B", "MEM", "CPU", "POD_NAME")}
		switch rapid.IntRange(0, 7).Draw(t, l+"-kind") {
		case 0:
			e.ValueFrom = &core.EnvVarSource{FieldRef: &core.ObjectFieldSelector{
				APIVersion: oneOf(t, l+"-api", "v1", ""), FieldPath: oneOf(t, l+"-path", "metadata.name", "status.podIP", "spec.nodeName")}}
		case 1, 2:
			e.ValueFrom = &core.EnvVarSource{ResourceFieldRef: &core.ResourceFieldSelector{
				ContainerName: oneOf(t, l+"-container", "", "other"),
				Resource: oneOf(t, l+"-resource", "limits.cpu", "limits.memory", "limits.ephemeral-storage", "requests.cpu",
					"requests.memory", "requests.ephemeral-storage", "requests.hugepages-2Mi", "limits.hugepages-1Gi",
					"limits.example.com/gpu", "requests.storage", "cpu", ""),
				Divisor: resource.MustParse(oneOf(t, l+"-divisor", "0", "1", "1m", "250m", "1k", "1Mi", "1Gi", "3", "1M", "1.5")),
			}}
		case 3:
			e.ValueFrom = &core.EnvVarSource{SecretKeyRef: &core.SecretKeySelector{
				LocalObjectReference: core.LocalObjectReference{Name: "s"}, Key: "k", Optional: optBool(t, l+"-opt")}}
		case 4:
			e.ValueFrom = &core.EnvVarSource{ConfigMapKeyRef: &core.ConfigMapKeySelector{
				LocalObjectReference: core.LocalObjectReference{Name: "cm"}, Key: "k", Optional: optBool(t, l+"-opt")}}
		case 5:
			// Sources kubectl prints nothing for.
			if chance(t, l+"-file", 50) {
				e.ValueFrom = &core.EnvVarSource{FileKeyRef: &core.FileKeySelector{VolumeName: "v", Path: "env", Key: "k"}}
			} else {
				e.ValueFrom = &core.EnvVarSource{}
			}
		default:
			e.Value = genText(t, l+"-value")
		}
		out = append(out, e)
	}
	return out
}

func fullContainer(t *rapid.T, label, name string, crash *string) core.Container {
	c := core.Container{
		Name:            name,
		Image:           word(t, label+"-image", "registry.example.com/web:1.2", "busybox"),
		ImagePullPolicy: core.PullIfNotPresent,
		WorkingDir:      oneOf(t, label+"-wd", "", "/srv"),
	}
	for i := range rapid.IntRange(0, 3).Draw(t, label+"-ports") {
		l := fmt.Sprintf("%s-port%d", label, i)
		c.Ports = append(c.Ports, core.ContainerPort{
			Name:          oneOf(t, l+"-name", "", "http", "metrics"),
			ContainerPort: int32(rapid.IntRange(0, 9000).Draw(t, l+"-c")),
			HostPort:      int32(rapid.IntRange(0, 2).Draw(t, l+"-h") * 80),
			Protocol:      oneOf(t, l+"-proto", core.ProtocolTCP, core.ProtocolUDP, core.ProtocolSCTP, ""),
		})
	}
	c.Command = words(t, label+"-cmd", "/bin/sh", "-c", "echo one\necho two", "")
	c.Args = words(t, label+"-args", "--port=80", "a\nb", "")
	c.Resources.Limits = fullResourceList(t, label+"-limits")
	c.Resources.Requests = fullResourceList(t, label+"-requests")
	c.LivenessProbe = fullProbe(t, label+"-live", crash)
	c.ReadinessProbe = fullProbe(t, label+"-ready", crash)
	c.StartupProbe = fullProbe(t, label+"-startup", crash)
	if chance(t, label+"-envfrom", 30) {
		for i := range rapid.IntRange(1, 3).Draw(t, label+"-envfrom-n") {
			l := fmt.Sprintf("%s-envfrom%d", label, i)
			e := core.EnvFromSource{Prefix: oneOf(t, l+"-prefix", "", "P_")}
			switch rapid.IntRange(0, 2).Draw(t, l) {
			case 0:
				e.ConfigMapRef = &core.ConfigMapEnvSource{LocalObjectReference: core.LocalObjectReference{Name: "cm"}, Optional: optBool(t, l+"-opt")}
			case 1:
				e.SecretRef = &core.SecretEnvSource{LocalObjectReference: core.LocalObjectReference{Name: "sec"}, Optional: optBool(t, l+"-opt")}
			}
			c.EnvFrom = append(c.EnvFrom, e)
		}
	}
	c.Env = fullEnv(t, label+"-env")
	n := rapid.IntRange(0, 3).Draw(t, label+"-mounts")
	if rarely(t, label+"-many-mounts", 10) {
		n = rapid.IntRange(13, 16).Draw(t, label+"-many-mounts-n")
	}
	for i := range n {
		l := fmt.Sprintf("%s-mount%d", label, i)
		c.VolumeMounts = append(c.VolumeMounts, core.VolumeMount{
			Name:      fmt.Sprintf("v%d", i),
			MountPath: oneOf(t, l+"-path", "/data", "/etc/config", "/cache", "/a"),
			ReadOnly:  chance(t, l+"-ro", 50),
			SubPath:   oneOf(t, l+"-sub", "", "", "sub", `q"uote`),
		})
	}
	n = rapid.IntRange(0, 2).Draw(t, label+"-devices")
	if rarely(t, label+"-many-devices", 5) {
		n = 14
	}
	for i := range n {
		c.VolumeDevices = append(c.VolumeDevices, core.VolumeDevice{
			Name: fmt.Sprintf("blk%d", i), DevicePath: oneOf(t, fmt.Sprintf("%s-dev%d", label, i), "/dev/xvda", "/dev/xvdb", "/dev/sda")})
	}
	if chance(t, label+"-sc", 30) {
		c.SecurityContext = &core.SecurityContext{RunAsNonRoot: ptr(true)}
		if chance(t, label+"-seccomp", 70) {
			sp := &core.SeccompProfile{Type: oneOf(t, label+"-seccomp-type", core.SeccompProfileTypeRuntimeDefault,
				core.SeccompProfileTypeUnconfined, core.SeccompProfileTypeLocalhost)}
			if sp.Type == core.SeccompProfileTypeLocalhost {
				sp.LocalhostProfile = ptr("profiles/audit.json")
				if rarely(t, label+"-seccomp-crash", 5) {
					sp.LocalhostProfile = nil
					*crash = "Localhost seccomp profile without a file"
				}
			}
			c.SecurityContext.SeccompProfile = sp
		}
	}
	if chance(t, label+"-lifecycle", 10) {
		c.Lifecycle = &core.Lifecycle{PreStop: &core.LifecycleHandler{Exec: &core.ExecAction{Command: []string{"sleep", "5"}}}}
	}
	return c
}

// fullVolumeSource sets one volume source of every kind kubectl describes
// (and, by number 31, none).
func fullVolumeSource(t *rapid.T, l string, kind int, v *core.VolumeSource, crash *string) {
	str := func(name string, xs ...string) string { return word(t, l+"-"+name, xs...) }
	ro := func() bool { return chance(t, l+"-ro", 50) }
	switch kind {
	case 0:
		v.HostPath = &core.HostPathVolumeSource{Path: str("path", "/var/log"), Type: optPtr(t, l+"-type", core.HostPathDirectory, core.HostPathUnset, core.HostPathSocket)}
	case 1:
		v.EmptyDir = &core.EmptyDirVolumeSource{Medium: oneOf(t, l+"-medium", core.StorageMediumDefault, core.StorageMediumMemory, core.StorageMediumHugePages)}
		if chance(t, l+"-size", 60) {
			v.EmptyDir.SizeLimit = ptr(resource.MustParse(oneOf(t, l+"-limit", "0", "1Gi", "500Mi", "1n", "-1", "0.5")))
		}
	case 2:
		v.GCEPersistentDisk = &core.GCEPersistentDiskVolumeSource{PDName: str("pd", "disk-1"), FSType: str("fs", "ext4"), Partition: int32(rapid.IntRange(0, 2).Draw(t, l+"-part")), ReadOnly: ro()}
	case 3:
		v.AWSElasticBlockStore = &core.AWSElasticBlockStoreVolumeSource{VolumeID: str("id", "vol-123"), FSType: str("fs", "xfs"), Partition: 1, ReadOnly: ro()}
	case 4:
		v.GitRepo = &core.GitRepoVolumeSource{Repository: str("repo", "https://example.com/r.git"), Revision: str("rev", "main"), Directory: "."}
	case 5:
		v.Secret = &core.SecretVolumeSource{SecretName: str("name", "tls"), Optional: optBool(t, l+"-opt"), DefaultMode: ptr(int32(0o644))}
	case 6:
		v.ConfigMap = &core.ConfigMapVolumeSource{LocalObjectReference: core.LocalObjectReference{Name: str("name", "cm")}, Optional: optBool(t, l+"-opt")}
	case 7:
		v.NFS = &core.NFSVolumeSource{Server: str("server", "nfs.example.com"), Path: str("path", "/exports"), ReadOnly: ro()}
	case 8:
		v.ISCSI = &core.ISCSIVolumeSource{TargetPortal: str("portal", "10.0.0.1:3260"), IQN: str("iqn", "iqn.2001-04.com.example:storage"),
			Lun: int32(rapid.IntRange(0, 3).Draw(t, l+"-lun")), ISCSIInterface: str("iface", "default"), FSType: "ext4", ReadOnly: ro(),
			Portals: words(t, l+"-portals", "10.0.0.2:3260", "10.0.0.3:3260"), DiscoveryCHAPAuth: chance(t, l+"-dchap", 50),
			SessionCHAPAuth: chance(t, l+"-schap", 50), SecretRef: localRef(t, l+"-secret"), InitiatorName: optPtr(t, l+"-init", "iqn.init")}
	case 9:
		v.Glusterfs = &core.GlusterfsVolumeSource{EndpointsName: str("ep", "glusterfs-cluster"), Path: str("path", "kube_vol"), ReadOnly: ro()}
	case 10:
		v.PersistentVolumeClaim = &core.PersistentVolumeClaimVolumeSource{ClaimName: str("claim", "data"), ReadOnly: ro()}
	case 11:
		v.Ephemeral = &core.EphemeralVolumeSource{}
		if chance(t, l+"-vct", 85) {
			vct := &core.PersistentVolumeClaimTemplate{Spec: core.PersistentVolumeClaimSpec{
				AccessModes: []core.PersistentVolumeAccessMode{core.ReadWriteOnce},
				VolumeName:  oneOf(t, l+"-volname", "", "pv-1"),
				Resources:   core.VolumeResourceRequirements{Requests: core.ResourceList{core.ResourceStorage: resource.MustParse("1Gi")}},
			}}
			vct.Spec.StorageClassName = optPtr(t, l+"-class", "fast", "")
			vct.Spec.VolumeMode = optPtr(t, l+"-mode", core.PersistentVolumeFilesystem, core.PersistentVolumeBlock)
			if chance(t, l+"-ds", 40) {
				vct.Spec.DataSource = &core.TypedLocalObjectReference{APIGroup: optPtr(t, l+"-ds-group", "snapshot.storage.k8s.io", ""),
					Kind: "VolumeSnapshot", Name: "snap-1"}
			}
			if chance(t, l+"-labels", 50) {
				vct.Labels = map[string]string{"type": "scratch"}
				if chance(t, l+"-labels2", 50) {
					vct.Labels["tier"] = "cache"
				}
			}
			if chance(t, l+"-annotations", 50) {
				vct.Annotations = map[string]string{}
				for i := range rapid.IntRange(1, 3).Draw(t, l+"-annotations-n") {
					k := oneOf(t, fmt.Sprintf("%s-ann%d", l, i), "volume.beta.kubernetes.io/storage-class", "kubectl.kubernetes.io/last-applied-configuration", "note", "other")
					vct.Annotations[k] = genText(t, fmt.Sprintf("%s-ann%d-v", l, i))
				}
			}
			v.Ephemeral.VolumeClaimTemplate = vct
		}
	case 12:
		v.RBD = &core.RBDVolumeSource{CephMonitors: words(t, l+"-mons", "10.16.154.78:6789", "10.16.154.82:6789"), RBDImage: str("image", "foo"),
			FSType: "ext4", RBDPool: str("pool", "kube"), RadosUser: str("user", "admin"), Keyring: str("keyring", "/etc/ceph/keyring"),
			SecretRef: localRef(t, l+"-secret"), ReadOnly: ro()}
	case 13:
		v.Quobyte = &core.QuobyteVolumeSource{Registry: str("registry", "registry:7861"), Volume: str("volume", "testVolume"), ReadOnly: ro(), User: "root"}
	case 14:
		d := &core.DownwardAPIVolumeSource{}
		for i := range rapid.IntRange(0, 3).Draw(t, l+"-items") {
			item := core.DownwardAPIVolumeFile{Path: oneOf(t, fmt.Sprintf("%s-item%d", l, i), "labels", "cpu_limit")}
			if chance(t, fmt.Sprintf("%s-item%d-field", l, i), 60) {
				item.FieldRef = &core.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.labels"}
			}
			if chance(t, fmt.Sprintf("%s-item%d-res", l, i), 50) {
				item.ResourceFieldRef = &core.ResourceFieldSelector{ContainerName: "web", Resource: "limits.cpu", Divisor: resource.MustParse("1m")}
			}
			d.Items = append(d.Items, item)
		}
		v.DownwardAPI = d
	case 15:
		v.AzureDisk = &core.AzureDiskVolumeSource{DiskName: str("disk", "test.vhd"), DataDiskURI: str("uri", "https://example/vhds/test.vhd"),
			CachingMode: ptr(core.AzureDataDiskCachingReadWrite), FSType: ptr("ext4"), ReadOnly: ptr(ro()), Kind: ptr(core.AzureSharedBlobDisk)}
		if rarely(t, l+"-crash", 10) {
			switch rapid.IntRange(0, 3).Draw(t, l+"-crash-field") {
			case 0:
				v.AzureDisk.Kind = nil
			case 1:
				v.AzureDisk.FSType = nil
			case 2:
				v.AzureDisk.CachingMode = nil
			default:
				v.AzureDisk.ReadOnly = nil
			}
			*crash = "azureDisk without a defaulted field"
		}
	case 16:
		v.VsphereVolume = &core.VsphereVirtualDiskVolumeSource{VolumePath: str("path", "[datastore1] volumes/myDisk"), FSType: "ext4", StoragePolicyName: str("policy", "gold")}
	case 17:
		v.Cinder = &core.CinderVolumeSource{VolumeID: str("id", "bd82f7e2"), FSType: "ext4", ReadOnly: ro(), SecretRef: localRef(t, l+"-secret")}
	case 18:
		v.PhotonPersistentDisk = &core.PhotonPersistentDiskVolumeSource{PdID: str("id", "pd-1"), FSType: "ext4"}
	case 19:
		v.PortworxVolume = &core.PortworxVolumeSource{VolumeID: str("id", "pxvol"), FSType: "ext4"}
	case 20:
		v.ScaleIO = &core.ScaleIOVolumeSource{Gateway: str("gw", "https://localhost:443/api"), System: str("system", "scaleio"),
			SecretRef: localRef(t, l+"-secret"), ProtectionDomain: str("pd", "pd01"), StoragePool: str("sp", "sp01"),
			StorageMode: str("mode", "ThinProvisioned"), VolumeName: str("vol", "vol-0"), FSType: "xfs", ReadOnly: ro()}
	case 21:
		v.CephFS = &core.CephFSVolumeSource{Monitors: words(t, l+"-mons", "10.16.154.78:6789", "10.16.154.82:6789"), Path: str("path", "/"),
			User: str("user", "admin"), SecretFile: str("file", "/etc/ceph/admin.secret"), SecretRef: localRef(t, l+"-secret"), ReadOnly: ro()}
	case 22:
		v.StorageOS = &core.StorageOSVolumeSource{VolumeName: str("vol", "redis-vol01"), VolumeNamespace: str("ns", "default"), FSType: "ext4", ReadOnly: ro(), SecretRef: localRef(t, l+"-secret")}
	case 23:
		v.FC = &core.FCVolumeSource{TargetWWNs: words(t, l+"-wwns", "500a0982991b8dc5", "500a0982891b8dc5"), Lun: optPtr(t, l+"-lun", int32(0), int32(2)), FSType: "ext4", ReadOnly: ro()}
	case 24:
		v.AzureFile = &core.AzureFileVolumeSource{SecretName: str("secret", "azure-secret"), ShareName: str("share", "k8stest"), ReadOnly: ro()}
	case 25:
		v.FlexVolume = &core.FlexVolumeSource{Driver: str("driver", "kubernetes.io/lvm"), FSType: "ext4", SecretRef: localRef(t, l+"-secret"), ReadOnly: ro()}
		if chance(t, l+"-options", 60) {
			v.FlexVolume.Options = map[string]string{"volumeID": "vol1"}
			if chance(t, l+"-options2", 50) {
				v.FlexVolume.Options["size"] = "1000m"
			}
		}
	case 26:
		v.Flocker = &core.FlockerVolumeSource{DatasetName: str("name", "ds"), DatasetUUID: str("uuid", "")}
	case 27:
		p := &core.ProjectedVolumeSource{DefaultMode: ptr(int32(0o644))}
		for i := range rapid.IntRange(0, 4).Draw(t, l+"-sources") {
			sl := fmt.Sprintf("%s-src%d", l, i)
			var s core.VolumeProjection
			switch rapid.IntRange(0, 5).Draw(t, sl) {
			case 0:
				s.Secret = &core.SecretProjection{LocalObjectReference: core.LocalObjectReference{Name: str("secret", "s1")}, Optional: optBool(t, sl+"-opt")}
			case 1:
				s.DownwardAPI = &core.DownwardAPIProjection{Items: []core.DownwardAPIVolumeFile{{Path: "labels", FieldRef: &core.ObjectFieldSelector{FieldPath: "metadata.labels"}}}}
			case 2:
				s.ConfigMap = &core.ConfigMapProjection{LocalObjectReference: core.LocalObjectReference{Name: str("cm", "ca")}, Optional: optBool(t, sl+"-opt")}
			case 3:
				s.ServiceAccountToken = &core.ServiceAccountTokenProjection{Path: "token", Audience: "api", ExpirationSeconds: ptr(int64(rapid.IntRange(600, 7200).Draw(t, sl+"-exp")))}
				if rarely(t, sl+"-crash", 5) {
					s.ServiceAccountToken.ExpirationSeconds = nil
					*crash = "service account token without expirationSeconds"
				}
			case 4:
				s.ClusterTrustBundle = &core.ClusterTrustBundleProjection{Name: ptr("bundle"), Path: "ca.pem"}
			default:
				// Two sources in one projection: kubectl prints the first it tries.
				s.ConfigMap = &core.ConfigMapProjection{LocalObjectReference: core.LocalObjectReference{Name: "both"}}
				s.ServiceAccountToken = &core.ServiceAccountTokenProjection{Path: "token"}
			}
			p.Sources = append(p.Sources, s)
		}
		v.Projected = p
	case 28:
		v.CSI = &core.CSIVolumeSource{Driver: str("driver", "inline.storage.kubernetes.io"), ReadOnly: optBool(t, l+"-ro"), FSType: optPtr(t, l+"-fs", "ext4", "")}
		switch rapid.IntRange(0, 3).Draw(t, l+"-attrs") {
		case 0:
		case 1:
			v.CSI.VolumeAttributes = map[string]string{}
		default:
			v.CSI.VolumeAttributes = map[string]string{"foo": "bar"}
			if chance(t, l+"-attrs-more", 60) {
				v.CSI.VolumeAttributes["a-long"] = strings.Repeat("x", rapid.IntRange(100, 150).Draw(t, l+"-attr-len"))
				v.CSI.VolumeAttributes["zz"] = "\x1b[2J"
			}
		}
		if chance(t, l+"-nodesecret", 30) {
			v.CSI.NodePublishSecretRef = &core.LocalObjectReference{Name: "csi-secret"}
		}
	case 29:
		v.Image = &core.ImageVolumeSource{Reference: str("ref", "quay.io/crio/artifact:v2"), PullPolicy: oneOf(t, l+"-pull", core.PullIfNotPresent, core.PullAlways, "")}
	case 30:
		// Sources kubectl checks in this order: the first one wins.
		v.Secret = &core.SecretVolumeSource{SecretName: "second"}
		v.HostPath = &core.HostPathVolumeSource{Path: "/first"}
		v.CSI = &core.CSIVolumeSource{Driver: "last"}
	default:
		// No source: kubectl prints "<unknown>".
	}
}

// volumeKinds is the number of kinds fullVolumeSource draws from.
const volumeKinds = 32

func fullSelector(t *rapid.T, label string) *metav1.LabelSelector {
	switch rapid.IntRange(0, 6).Draw(t, label) {
	case 0:
		return nil
	case 1:
		return &metav1.LabelSelector{}
	case 2:
		// Invalid: kubectl prints "<error>".
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Matches"}}}
	}
	s := &metav1.LabelSelector{}
	if chance(t, label+"-labels", 70) {
		s.MatchLabels = map[string]string{"app": "web"}
		if chance(t, label+"-labels2", 40) {
			s.MatchLabels["tier"] = "be"
		}
	}
	for i := range rapid.IntRange(0, 3).Draw(t, label+"-exprs") {
		l := fmt.Sprintf("%s-expr%d", label, i)
		r := metav1.LabelSelectorRequirement{Key: oneOf(t, l+"-key", "app", "zone", "tier")}
		switch rapid.IntRange(0, 3).Draw(t, l+"-op") {
		case 0:
			r.Operator, r.Values = metav1.LabelSelectorOpIn, words(t, l+"-values", "web", "api", "a")
			if len(r.Values) == 0 {
				r.Values = []string{"z", "b"}
			}
		case 1:
			r.Operator, r.Values = metav1.LabelSelectorOpNotIn, []string{"x"}
		case 2:
			r.Operator = metav1.LabelSelectorOpExists
		default:
			r.Operator = metav1.LabelSelectorOpDoesNotExist
		}
		s.MatchExpressions = append(s.MatchExpressions, r)
	}
	return s
}

// fullSpec is a drawn pod template; crash names the field kubectl's
// describer crashes on, or is empty.
type fullSpec struct {
	tmpl  core.PodTemplateSpec
	crash string
}

// genFullTemplate draws a pod template for app using every field kubectl's
// pod template description prints.
func genFullTemplate(t *rapid.T, label, app string) fullSpec {
	var crash string
	tmpl := core.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}}}
	if chance(t, label+"-tier", 30) {
		tmpl.Labels["tier"] = "backend"
	}
	if chance(t, label+"-annotations", 40) {
		tmpl.Annotations = map[string]string{}
		for range rapid.IntRange(1, 3).Draw(t, label+"-n-annotations") {
			k := oneOf(t, label+"-annotation-key", "team", "kubectl.kubernetes.io/last-applied-configuration", "note")
			tmpl.Annotations[k] = genText(t, label+"-annotation-value")
		}
	}
	s := &tmpl.Spec
	s.ServiceAccountName = oneOf(t, label+"-sa", "", "runner")
	if chance(t, label+"-init", 30) {
		for i := range rapid.IntRange(1, 2).Draw(t, label+"-inits") {
			s.InitContainers = append(s.InitContainers, fullContainer(t, fmt.Sprintf("%s-init%d", label, i), fmt.Sprintf("init-%d", i), &crash))
		}
	}
	for i := range rapid.IntRange(0, 2).Draw(t, label+"-containers") {
		s.Containers = append(s.Containers, fullContainer(t, fmt.Sprintf("%s-c%d", label, i), fmt.Sprintf("%s-%d", app, i), &crash))
	}
	for i := range rapid.IntRange(0, 4).Draw(t, label+"-volumes") {
		l := fmt.Sprintf("%s-vol%d", label, i)
		v := core.Volume{Name: fmt.Sprintf("v%d", i)}
		fullVolumeSource(t, l, rapid.IntRange(0, volumeKinds-1).Draw(t, l), &v.VolumeSource, &crash)
		s.Volumes = append(s.Volumes, v)
	}
	n := rapid.IntRange(0, 3).Draw(t, label+"-spread")
	if rarely(t, label+"-many-spread", 5) {
		n = 14
	}
	for i := range n {
		l := fmt.Sprintf("%s-spread%d", label, i)
		s.TopologySpreadConstraints = append(s.TopologySpreadConstraints, core.TopologySpreadConstraint{
			MaxSkew:           int32(rapid.IntRange(0, 3).Draw(t, l+"-skew")),
			TopologyKey:       oneOf(t, l+"-key", "topology.kubernetes.io/zone", "kubernetes.io/hostname", "rack"),
			WhenUnsatisfiable: oneOf(t, l+"-when", core.DoNotSchedule, core.ScheduleAnyway),
			LabelSelector:     fullSelector(t, l+"-selector"),
			MinDomains:        optPtr(t, l+"-min", int32(2)),
			MatchLabelKeys:    words(t, l+"-mlk", "pod-template-hash"),
		})
	}
	s.PriorityClassName = oneOf(t, label+"-prio", "", "high")
	if chance(t, label+"-nodesel", 30) {
		s.NodeSelector = map[string]string{"disktype": "ssd", "zone": oneOf(t, label+"-zone", "a", "b")}
	}
	n = rapid.IntRange(0, 3).Draw(t, label+"-tolerations")
	if rarely(t, label+"-many-tolerations", 10) {
		n = rapid.IntRange(13, 16).Draw(t, label+"-many-tolerations-n")
	}
	for i := range n {
		l := fmt.Sprintf("%s-tol%d", label, i)
		tol := core.Toleration{Key: oneOf(t, l+"-key", "", "dedicated", "gpu")}
		switch rapid.IntRange(0, 2).Draw(t, l+"-op") {
		case 0:
			tol.Operator = core.TolerationOpExists
		case 1:
			tol.Operator, tol.Value = core.TolerationOpEqual, oneOf(t, l+"-value", "yes", "")
		}
		tol.Effect = oneOf(t, l+"-effect", "", core.TaintEffectNoSchedule, core.TaintEffectNoExecute, core.TaintEffectPreferNoSchedule)
		tol.TolerationSeconds = optPtr(t, l+"-secs", int64(300), int64(0))
		s.Tolerations = append(s.Tolerations, tol)
	}
	if chance(t, label+"-sg", 15) {
		s.SchedulingGroup = &core.PodSchedulingGroup{PodGroupName: ptr(oneOf(t, label+"-sg-name", "group-a", ""))}
		if rarely(t, label+"-sg-crash", 10) {
			s.SchedulingGroup.PodGroupName = nil
			crash = "scheduling group without podGroupName"
		}
	}
	// Fields kubectl's template description leaves out.
	if chance(t, label+"-unprinted", 30) {
		s.HostNetwork = true
		s.TerminationGracePeriodSeconds = ptr(int64(30))
		s.Affinity = &core.Affinity{NodeAffinity: &core.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &core.NodeSelector{
			NodeSelectorTerms: []core.NodeSelectorTerm{{MatchExpressions: []core.NodeSelectorRequirement{{Key: "zone", Operator: core.NodeSelectorOpIn, Values: []string{"a"}}}}}}}}
		s.EphemeralContainers = []core.EphemeralContainer{{EphemeralContainerCommon: core.EphemeralContainerCommon{Name: "debug", Image: "busybox"}}}
		s.Overhead = core.ResourceList{core.ResourceCPU: resource.MustParse("250m")}
	}
	s.RestartPolicy = core.RestartPolicyAlways
	s.DNSPolicy = core.DNSClusterFirst
	s.SchedulerName = "default-scheduler"
	return fullSpec{tmpl: tmpl, crash: crash}
}
