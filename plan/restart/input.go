package restart

import (
	"github.com/rolloutplan/rolloutplan/model"
)

// Config is an observed ConfigMap or Secret.
type Config struct {
	Ref Ref
	// Version is the resourceVersion. An observation at the version last
	// seen for the same resource is ignored, as on an informer resync.
	Version string
	// Checksum is [ConfigMapChecksum] or [SecretChecksum] of the data.
	Checksum string
}

// Workload is an observed Deployment or StatefulSet.
type Workload struct {
	Ref         Ref
	Version     string
	Annotations map[string]string
	// Template is the pod template; its Spec is read by [References] and its
	// annotations for the restart annotation.
	Template model.PodTemplate
}

// ConfigMapConfig returns the observation of a ConfigMap from its metadata and
// data (see [ConfigMapChecksum] for includeBinary).
func ConfigMapConfig(meta model.ObjectMeta, data map[string]string, binaryData map[string][]byte, includeBinary bool) Config {
	return Config{
		Ref:      Ref{Kind: KindConfigMap, Namespace: meta.Namespace, Name: meta.Name},
		Version:  meta.ResourceVersion,
		Checksum: ConfigMapChecksum(data, binaryData, includeBinary),
	}
}

// SecretConfig returns the observation of a Secret from its metadata and
// data (with stringData already merged, as the API server stores it).
func SecretConfig(meta model.ObjectMeta, data map[string][]byte) Config {
	return Config{
		Ref:      Ref{Kind: KindSecret, Namespace: meta.Namespace, Name: meta.Name},
		Version:  meta.ResourceVersion,
		Checksum: SecretChecksum(data),
	}
}

// DeploymentWorkload returns the observation of a Deployment. It shares the
// maps of d, which the planner never modifies.
func DeploymentWorkload(d *model.Deployment) Workload {
	return Workload{
		Ref:         Ref{Kind: KindDeployment, Namespace: d.Namespace, Name: d.Name},
		Version:     d.ResourceVersion,
		Annotations: d.Annotations,
		Template:    d.Spec.Template,
	}
}

// StatefulSetWorkload returns the observation of a StatefulSet. It shares the
// maps of s, which the planner never modifies.
func StatefulSetWorkload(s *model.StatefulSet) Workload {
	return Workload{
		Ref:         Ref{Kind: KindStatefulSet, Namespace: s.Namespace, Name: s.Name},
		Version:     s.ResourceVersion,
		Annotations: s.Annotations,
		Template:    s.Spec.Template,
	}
}
