package rollout

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// volumeDoc holds every volume source kubectl's describer lays out. When a
// volume has more than one, the first in kubectl's order is described.
type volumeDoc struct {
	Name     string `json:"name"`
	HostPath *struct {
		Path string  `json:"path"`
		Type *string `json:"type"`
	} `json:"hostPath"`
	EmptyDir *struct {
		Medium    string       `json:"medium"`
		SizeLimit quantityText `json:"sizeLimit"`
	} `json:"emptyDir"`
	GCEPersistentDisk *struct {
		PDName    string `json:"pdName"`
		FSType    string `json:"fsType"`
		Partition int32  `json:"partition"`
		ReadOnly  bool   `json:"readOnly"`
	} `json:"gcePersistentDisk"`
	AWSElasticBlockStore *struct {
		VolumeID  string `json:"volumeID"`
		FSType    string `json:"fsType"`
		Partition int32  `json:"partition"`
		ReadOnly  bool   `json:"readOnly"`
	} `json:"awsElasticBlockStore"`
	GitRepo *struct {
		Repository string `json:"repository"`
		Revision   string `json:"revision"`
	} `json:"gitRepo"`
	Secret *struct {
		SecretName string `json:"secretName"`
		Optional   *bool  `json:"optional"`
	} `json:"secret"`
	ConfigMap *struct {
		Name     string `json:"name"`
		Optional *bool  `json:"optional"`
	} `json:"configMap"`
	NFS *struct {
		Server   string `json:"server"`
		Path     string `json:"path"`
		ReadOnly bool   `json:"readOnly"`
	} `json:"nfs"`
	ISCSI *struct {
		TargetPortal      string    `json:"targetPortal"`
		IQN               string    `json:"iqn"`
		Lun               int32     `json:"lun"`
		ISCSIInterface    string    `json:"iscsiInterface"`
		FSType            string    `json:"fsType"`
		ReadOnly          bool      `json:"readOnly"`
		Portals           []string  `json:"portals"`
		DiscoveryCHAPAuth bool      `json:"chapAuthDiscovery"`
		SessionCHAPAuth   bool      `json:"chapAuthSession"`
		SecretRef         *localRef `json:"secretRef"`
		InitiatorName     *string   `json:"initiatorName"`
	} `json:"iscsi"`
	Glusterfs *struct {
		EndpointsName string `json:"endpoints"`
		Path          string `json:"path"`
		ReadOnly      bool   `json:"readOnly"`
	} `json:"glusterfs"`
	PersistentVolumeClaim *struct {
		ClaimName string `json:"claimName"`
		ReadOnly  bool   `json:"readOnly"`
	} `json:"persistentVolumeClaim"`
	Ephemeral *struct {
		VolumeClaimTemplate *struct {
			Metadata struct {
				Labels      map[string]string `json:"labels"`
				Annotations map[string]string `json:"annotations"`
			} `json:"metadata"`
			Spec struct {
				VolumeName       string  `json:"volumeName"`
				StorageClassName *string `json:"storageClassName"`
				VolumeMode       *string `json:"volumeMode"`
				DataSource       *struct {
					APIGroup *string `json:"apiGroup"`
					Kind     string  `json:"kind"`
					Name     string  `json:"name"`
				} `json:"dataSource"`
			} `json:"spec"`
		} `json:"volumeClaimTemplate"`
	} `json:"ephemeral"`
	RBD *struct {
		CephMonitors []string  `json:"monitors"`
		RBDImage     string    `json:"image"`
		FSType       string    `json:"fsType"`
		RBDPool      string    `json:"pool"`
		RadosUser    string    `json:"user"`
		Keyring      string    `json:"keyring"`
		SecretRef    *localRef `json:"secretRef"`
		ReadOnly     bool      `json:"readOnly"`
	} `json:"rbd"`
	Quobyte *struct {
		Registry string `json:"registry"`
		Volume   string `json:"volume"`
		ReadOnly bool   `json:"readOnly"`
	} `json:"quobyte"`
	DownwardAPI *struct {
		Items []struct {
			Path     string `json:"path"`
			FieldRef *struct {
				FieldPath string `json:"fieldPath"`
			} `json:"fieldRef"`
			ResourceFieldRef *struct {
				Resource string `json:"resource"`
			} `json:"resourceFieldRef"`
		} `json:"items"`
	} `json:"downwardAPI"`
	AzureDisk *struct {
		DiskName    string  `json:"diskName"`
		DataDiskURI string  `json:"diskURI"`
		CachingMode *string `json:"cachingMode"`
		FSType      *string `json:"fsType"`
		ReadOnly    *bool   `json:"readOnly"`
		Kind        *string `json:"kind"`
	} `json:"azureDisk"`
	VsphereVolume *struct {
		VolumePath        string `json:"volumePath"`
		FSType            string `json:"fsType"`
		StoragePolicyName string `json:"storagePolicyName"`
	} `json:"vsphereVolume"`
	Cinder *struct {
		VolumeID  string    `json:"volumeID"`
		FSType    string    `json:"fsType"`
		ReadOnly  bool      `json:"readOnly"`
		SecretRef *localRef `json:"secretRef"`
	} `json:"cinder"`
	PhotonPersistentDisk *struct {
		PdID   string `json:"pdID"`
		FSType string `json:"fsType"`
	} `json:"photonPersistentDisk"`
	PortworxVolume *struct {
		VolumeID string `json:"volumeID"`
	} `json:"portworxVolume"`
	ScaleIO *struct {
		Gateway          string `json:"gateway"`
		System           string `json:"system"`
		ProtectionDomain string `json:"protectionDomain"`
		StoragePool      string `json:"storagePool"`
		StorageMode      string `json:"storageMode"`
		VolumeName       string `json:"volumeName"`
		FSType           string `json:"fsType"`
		ReadOnly         bool   `json:"readOnly"`
	} `json:"scaleIO"`
	CephFS *struct {
		Monitors   []string  `json:"monitors"`
		Path       string    `json:"path"`
		User       string    `json:"user"`
		SecretFile string    `json:"secretFile"`
		SecretRef  *localRef `json:"secretRef"`
		ReadOnly   bool      `json:"readOnly"`
	} `json:"cephfs"`
	StorageOS *struct {
		VolumeName      string `json:"volumeName"`
		VolumeNamespace string `json:"volumeNamespace"`
		FSType          string `json:"fsType"`
		ReadOnly        bool   `json:"readOnly"`
	} `json:"storageos"`
	FC *struct {
		TargetWWNs []string `json:"targetWWNs"`
		Lun        *int32   `json:"lun"`
		FSType     string   `json:"fsType"`
		ReadOnly   bool     `json:"readOnly"`
	} `json:"fc"`
	AzureFile *struct {
		SecretName string `json:"secretName"`
		ShareName  string `json:"shareName"`
		ReadOnly   bool   `json:"readOnly"`
	} `json:"azureFile"`
	FlexVolume *struct {
		Driver    string            `json:"driver"`
		FSType    string            `json:"fsType"`
		SecretRef *localRef         `json:"secretRef"`
		ReadOnly  bool              `json:"readOnly"`
		Options   map[string]string `json:"options"`
	} `json:"flexVolume"`
	Flocker *struct {
		DatasetName string `json:"datasetName"`
		DatasetUUID string `json:"datasetUUID"`
	} `json:"flocker"`
	Projected *struct {
		Sources []struct {
			Secret *struct {
				Name     string `json:"name"`
				Optional *bool  `json:"optional"`
			} `json:"secret"`
			DownwardAPI *struct{} `json:"downwardAPI"`
			ConfigMap   *struct {
				Name     string `json:"name"`
				Optional *bool  `json:"optional"`
			} `json:"configMap"`
			ServiceAccountToken *struct {
				ExpirationSeconds *int64 `json:"expirationSeconds"`
			} `json:"serviceAccountToken"`
		} `json:"sources"`
	} `json:"projected"`
	CSI *struct {
		Driver           string            `json:"driver"`
		ReadOnly         *bool             `json:"readOnly"`
		FSType           *string           `json:"fsType"`
		VolumeAttributes map[string]string `json:"volumeAttributes"`
	} `json:"csi"`
	Image *struct {
		Reference  string `json:"reference"`
		PullPolicy string `json:"pullPolicy"`
	} `json:"image"`
}

// localRef is a v1 LocalObjectReference. kubectl prints the ones of volume
// sources with %v, that is with the API type's generated String method;
// String gives that text.
type localRef struct {
	Name string `json:"name"`
}

func (r *localRef) String() string {
	if r == nil {
		return "nil"
	}
	return "&LocalObjectReference{Name:" + r.Name + ",}"
}

// supported refuses the sources kubectl's describer dereferences without a
// check; only the source kubectl picks for the volume is looked at. The
// error text is the field path below the volume.
func (v *volumeDoc) supported() error {
	switch {
	case v.HostPath != nil, v.EmptyDir != nil, v.GCEPersistentDisk != nil, v.AWSElasticBlockStore != nil,
		v.GitRepo != nil, v.Secret != nil, v.ConfigMap != nil, v.NFS != nil, v.ISCSI != nil, v.Glusterfs != nil,
		v.PersistentVolumeClaim != nil, v.Ephemeral != nil, v.RBD != nil, v.Quobyte != nil, v.DownwardAPI != nil:
		return nil
	case v.AzureDisk != nil:
		d := v.AzureDisk
		if d.Kind == nil || d.FSType == nil || d.CachingMode == nil || d.ReadOnly == nil {
			return fmt.Errorf("azureDisk (without kind, fsType, cachingMode or readOnly)")
		}
	case v.VsphereVolume != nil, v.Cinder != nil, v.PhotonPersistentDisk != nil, v.PortworxVolume != nil,
		v.ScaleIO != nil, v.CephFS != nil, v.StorageOS != nil, v.FC != nil, v.AzureFile != nil, v.FlexVolume != nil,
		v.Flocker != nil:
		return nil
	case v.Projected != nil:
		for i, s := range v.Projected.Sources {
			if s.Secret == nil && s.DownwardAPI == nil && s.ConfigMap == nil &&
				s.ServiceAccountToken != nil && s.ServiceAccountToken.ExpirationSeconds == nil {
				return fmt.Errorf("projected.sources[%d].serviceAccountToken (without expirationSeconds)", i)
			}
		}
	}
	return nil
}

func (w *prefixWriter) volumes(list []volumeDoc) {
	if len(list) == 0 {
		w.write(0, "%sVolumes:\t<none>\n", "  ")
		return
	}
	w.write(0, "%sVolumes:\n", "  ")
	for i := range list {
		v := &list[i]
		w.write(1, "%s%v:\n", " ", v.Name)
		w.volumeSource(v)
	}
}

// volumeSource lays out the source of one volume, picking the first set
// source in the order kubectl's describeVolumes tries them.
func (w *prefixWriter) volumeSource(v *volumeDoc) {
	switch {
	case v.HostPath != nil:
		typ := "<none>"
		if v.HostPath.Type != nil {
			typ = *v.HostPath.Type
		}
		w.write(2, "Type:\tHostPath (bare host directory volume)\n    Path:\t%v\n    HostPathType:\t%v\n", v.HostPath.Path, typ)
	case v.EmptyDir != nil:
		limit := "<unset>"
		if q, err := parseQuantity(string(v.EmptyDir.SizeLimit)); err == nil && q.Sign() > 0 {
			limit = string(v.EmptyDir.SizeLimit)
		}
		w.write(2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t%v\n    SizeLimit:\t%v\n", v.EmptyDir.Medium, limit)
	case v.GCEPersistentDisk != nil:
		d := v.GCEPersistentDisk
		w.write(2, "Type:\tGCEPersistentDisk (a Persistent Disk resource in Google Compute Engine)\n    PDName:\t%v\n    FSType:\t%v\n    Partition:\t%v\n    ReadOnly:\t%v\n",
			d.PDName, d.FSType, d.Partition, d.ReadOnly)
	case v.AWSElasticBlockStore != nil:
		d := v.AWSElasticBlockStore
		w.write(2, "Type:\tAWSElasticBlockStore (a Persistent Disk resource in AWS)\n    VolumeID:\t%v\n    FSType:\t%v\n    Partition:\t%v\n    ReadOnly:\t%v\n",
			d.VolumeID, d.FSType, d.Partition, d.ReadOnly)
	case v.GitRepo != nil:
		w.write(2, "Type:\tGitRepo (a volume that is pulled from git when the pod is created)\n    Repository:\t%v\n    Revision:\t%v\n",
			v.GitRepo.Repository, v.GitRepo.Revision)
	case v.Secret != nil:
		w.write(2, "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t%v\n    Optional:\t%v\n",
			v.Secret.SecretName, v.Secret.Optional != nil && *v.Secret.Optional)
	case v.ConfigMap != nil:
		w.write(2, "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t%v\n    Optional:\t%v\n",
			v.ConfigMap.Name, v.ConfigMap.Optional != nil && *v.ConfigMap.Optional)
	case v.NFS != nil:
		w.write(2, "Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n    Server:\t%v\n    Path:\t%v\n    ReadOnly:\t%v\n",
			v.NFS.Server, v.NFS.Path, v.NFS.ReadOnly)
	case v.ISCSI != nil:
		d := v.ISCSI
		initiator := "<none>"
		if d.InitiatorName != nil {
			initiator = *d.InitiatorName
		}
		// "ISCSIInterface" has no colon in kubectl's layout.
		w.write(2, "Type:\tISCSI (an ISCSI Disk resource that is attached to a kubelet's host machine and then exposed to the pod)\n"+
			"    TargetPortal:\t%v\n    IQN:\t%v\n    Lun:\t%v\n    ISCSIInterface\t%v\n    FSType:\t%v\n    ReadOnly:\t%v\n"+
			"    Portals:\t%v\n    DiscoveryCHAPAuth:\t%v\n    SessionCHAPAuth:\t%v\n    SecretRef:\t%v\n    InitiatorName:\t%v\n",
			d.TargetPortal, d.IQN, d.Lun, d.ISCSIInterface, d.FSType, d.ReadOnly, d.Portals, d.DiscoveryCHAPAuth, d.SessionCHAPAuth, d.SecretRef, initiator)
	case v.Glusterfs != nil:
		w.write(2, "Type:\tGlusterfs (a Glusterfs mount on the host that shares a pod's lifetime)\n    EndpointsName:\t%v\n    Path:\t%v\n    ReadOnly:\t%v\n",
			v.Glusterfs.EndpointsName, v.Glusterfs.Path, v.Glusterfs.ReadOnly)
	case v.PersistentVolumeClaim != nil:
		w.write(2, "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t%v\n    ReadOnly:\t%v\n",
			v.PersistentVolumeClaim.ClaimName, v.PersistentVolumeClaim.ReadOnly)
	case v.Ephemeral != nil:
		w.write(2, "Type:\tEphemeralVolume (an inline specification for a volume that gets created and deleted with the pod)\n")
		if v.Ephemeral.VolumeClaimTemplate != nil {
			w.nested(2).claimTemplate(v)
		}
	case v.RBD != nil:
		d := v.RBD
		w.write(2, "Type:\tRBD (a Rados Block Device mount on the host that shares a pod's lifetime)\n"+
			"    CephMonitors:\t%v\n    RBDImage:\t%v\n    FSType:\t%v\n    RBDPool:\t%v\n    RadosUser:\t%v\n    Keyring:\t%v\n    SecretRef:\t%v\n    ReadOnly:\t%v\n",
			d.CephMonitors, d.RBDImage, d.FSType, d.RBDPool, d.RadosUser, d.Keyring, d.SecretRef, d.ReadOnly)
	case v.Quobyte != nil:
		w.write(2, "Type:\tQuobyte (a Quobyte mount on the host that shares a pod's lifetime)\n    Registry:\t%v\n    Volume:\t%v\n    ReadOnly:\t%v\n",
			v.Quobyte.Registry, v.Quobyte.Volume, v.Quobyte.ReadOnly)
	case v.DownwardAPI != nil:
		w.write(2, "Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n")
		for _, item := range v.DownwardAPI.Items {
			if item.FieldRef != nil {
				w.write(3, "%v -> %v\n", item.FieldRef.FieldPath, item.Path)
			}
			if item.ResourceFieldRef != nil {
				w.write(3, "%v -> %v\n", item.ResourceFieldRef.Resource, item.Path)
			}
		}
	case v.AzureDisk != nil:
		d := v.AzureDisk
		w.write(2, "Type:\tAzureDisk (an Azure Data Disk mount on the host and bind mount to the pod)\n"+
			"    DiskName:\t%v\n    DiskURI:\t%v\n    Kind: \t%v\n    FSType:\t%v\n    CachingMode:\t%v\n    ReadOnly:\t%v\n",
			d.DiskName, d.DataDiskURI, *d.Kind, *d.FSType, *d.CachingMode, *d.ReadOnly)
	case v.VsphereVolume != nil:
		d := v.VsphereVolume
		w.write(2, "Type:\tvSphereVolume (a Persistent Disk resource in vSphere)\n    VolumePath:\t%v\n    FSType:\t%v\n    StoragePolicyName:\t%v\n",
			d.VolumePath, d.FSType, d.StoragePolicyName)
	case v.Cinder != nil:
		d := v.Cinder
		w.write(2, "Type:\tCinder (a Persistent Disk resource in OpenStack)\n    VolumeID:\t%v\n    FSType:\t%v\n    ReadOnly:\t%v\n    SecretRef:\t%v\n",
			d.VolumeID, d.FSType, d.ReadOnly, d.SecretRef)
	case v.PhotonPersistentDisk != nil:
		w.write(2, "Type:\tPhotonPersistentDisk (a Persistent Disk resource in photon platform)\n    PdID:\t%v\n    FSType:\t%v\n",
			v.PhotonPersistentDisk.PdID, v.PhotonPersistentDisk.FSType)
	case v.PortworxVolume != nil:
		w.write(2, "Type:\tPortworxVolume (a Portworx Volume resource)\n    VolumeID:\t%v\n", v.PortworxVolume.VolumeID)
	case v.ScaleIO != nil:
		d := v.ScaleIO
		w.write(2, "Type:\tScaleIO (a persistent volume backed by a block device in ScaleIO)\n"+
			"    Gateway:\t%v\n    System:\t%v\n    Protection Domain:\t%v\n    Storage Pool:\t%v\n    Storage Mode:\t%v\n    VolumeName:\t%v\n    FSType:\t%v\n    ReadOnly:\t%v\n",
			d.Gateway, d.System, d.ProtectionDomain, d.StoragePool, d.StorageMode, d.VolumeName, d.FSType, d.ReadOnly)
	case v.CephFS != nil:
		d := v.CephFS
		w.write(2, "Type:\tCephFS (a CephFS mount on the host that shares a pod's lifetime)\n"+
			"    Monitors:\t%v\n    Path:\t%v\n    User:\t%v\n    SecretFile:\t%v\n    SecretRef:\t%v\n    ReadOnly:\t%v\n",
			d.Monitors, d.Path, d.User, d.SecretFile, d.SecretRef, d.ReadOnly)
	case v.StorageOS != nil:
		d := v.StorageOS
		w.write(2, "Type:\tStorageOS (a StorageOS Persistent Disk resource)\n    VolumeName:\t%v\n    VolumeNamespace:\t%v\n    FSType:\t%v\n    ReadOnly:\t%v\n",
			d.VolumeName, d.VolumeNamespace, d.FSType, d.ReadOnly)
	case v.FC != nil:
		d := v.FC
		lun := "<none>"
		if d.Lun != nil {
			lun = strconv.Itoa(int(*d.Lun))
		}
		w.write(2, "Type:\tFC (a Fibre Channel disk)\n    TargetWWNs:\t%v\n    LUN:\t%v\n    FSType:\t%v\n    ReadOnly:\t%v\n",
			strings.Join(d.TargetWWNs, ", "), lun, d.FSType, d.ReadOnly)
	case v.AzureFile != nil:
		d := v.AzureFile
		w.write(2, "Type:\tAzureFile (an Azure File Service mount on the host and bind mount to the pod)\n    SecretName:\t%v\n    ShareName:\t%v\n    ReadOnly:\t%v\n",
			d.SecretName, d.ShareName, d.ReadOnly)
	case v.FlexVolume != nil:
		d := v.FlexVolume
		w.write(2, "Type:\tFlexVolume (a generic volume resource that is provisioned/attached using an exec based plugin)\n"+
			"    Driver:\t%v\n    FSType:\t%v\n    SecretRef:\t%v\n    ReadOnly:\t%v\n    Options:\t%v\n",
			d.Driver, d.FSType, d.SecretRef, d.ReadOnly, d.Options)
	case v.Flocker != nil:
		w.write(2, "Type:\tFlocker (a Flocker volume mounted by the Flocker agent)\n    DatasetName:\t%v\n    DatasetUUID:\t%v\n",
			v.Flocker.DatasetName, v.Flocker.DatasetUUID)
	case v.Projected != nil:
		w.write(2, "Type:\tProjected (a volume that contains injected data from multiple sources)\n")
		for _, s := range v.Projected.Sources {
			switch {
			case s.Secret != nil:
				w.write(2, "SecretName:\t%v\n    Optional:\t%v\n", s.Secret.Name, s.Secret.Optional != nil && *s.Secret.Optional)
			case s.DownwardAPI != nil:
				w.write(2, "DownwardAPI:\ttrue\n")
			case s.ConfigMap != nil:
				w.write(2, "ConfigMapName:\t%v\n    Optional:\t%v\n", s.ConfigMap.Name, s.ConfigMap.Optional != nil && *s.ConfigMap.Optional)
			case s.ServiceAccountToken != nil:
				w.write(2, "TokenExpirationSeconds:\t%d\n", *s.ServiceAccountToken.ExpirationSeconds)
			}
		}
	case v.CSI != nil:
		d := v.CSI
		fsType := ""
		if d.FSType != nil {
			fsType = *d.FSType
		}
		w.write(2, "Type:\tCSI (a Container Storage Interface (CSI) volume source)\n    Driver:\t%v\n    FSType:\t%v\n    ReadOnly:\t%v\n",
			d.Driver, fsType, d.ReadOnly != nil && *d.ReadOnly)
		w.csiAttributes(d.VolumeAttributes)
	case v.Image != nil:
		w.write(2, "Type:\tImage (a container image or OCI artifact)\n    Reference:\t%v\n    PullPolicy:\t%v\n",
			v.Image.Reference, v.Image.PullPolicy)
	default:
		w.write(1, "<unknown>\n")
	}
}

// claimTemplate lays out an ephemeral volume's claim template as kubectl
// lays out a claim that is not a full object, on a writer nested two levels
// (whose continuation lines and "<none>" carry that indentation too). A
// template has no status, so the capacity is the empty quantity's "0" once
// a volume is named, and the access modes are empty.
func (w *prefixWriter) claimTemplate(v *volumeDoc) {
	t := v.Ephemeral.VolumeClaimTemplate
	class := ""
	if c, ok := t.Metadata.Annotations[betaStorageClassAnnotation]; ok {
		class = c
	} else if t.Spec.StorageClassName != nil {
		class = *t.Spec.StorageClassName
	}
	w.write(0, "StorageClass:\t%s\n", class)
	w.write(0, "Volume:\t%s\n", t.Spec.VolumeName)
	w.labels("Labels", t.Metadata.Labels)
	w.annotations("Annotations", t.Metadata.Annotations)
	capacity := ""
	if t.Spec.VolumeName != "" {
		capacity = "0"
	}
	w.write(0, "Capacity:\t%s\n", capacity)
	w.write(0, "Access Modes:\t%s\n", "")
	if t.Spec.VolumeMode != nil {
		w.write(0, "VolumeMode:\t%v\n", *t.Spec.VolumeMode)
	}
	if ds := t.Spec.DataSource; ds != nil {
		w.write(0, "DataSource:\n")
		if ds.APIGroup != nil {
			w.write(1, "APIGroup:\t%v\n", *ds.APIGroup)
		}
		w.write(1, "Kind:\t%v\n", ds.Kind)
		w.write(1, "Name:\t%v\n", ds.Name)
	}
}

// betaStorageClassAnnotation names a claim's storage class ahead of its
// storageClassName field.
const betaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class"

// csiAttributes lays out a CSI volume's attributes as kubectl does: at the
// volume's level, sorted by key, each key=value cut after 140 bytes.
func (w *prefixWriter) csiAttributes(attrs map[string]string) {
	w.write(2, "%s%s:%s", "", "VolumeAttributes", "\t")
	if len(attrs) == 0 {
		w.line("<none>")
		return
	}
	for i, k := range slices.Sorted(maps.Keys(attrs)) {
		if i != 0 {
			w.write(2, "")
			w.write(2, "\t")
		}
		line := k + "=" + attrs[k]
		if len(line) > maxAnnotationLen {
			w.write(2, "%s...\n", line[:maxAnnotationLen])
		} else {
			w.write(2, "%s\n", line)
		}
	}
}
