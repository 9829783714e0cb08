package appsv1

import (
	"fmt"
	"maps"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/restart"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// RestartConfigMap converts a ConfigMap into the restart planner's
// observation: its full name, resourceVersion and data checksum
// ([restart.ConfigMapChecksum]; binaryData only with includeBinary).
func RestartConfigMap(cm *core.ConfigMap, includeBinary bool) (restart.Config, error) {
	if cm == nil {
		return restart.Config{}, fmt.Errorf("configmap: %w", ErrNil)
	}
	return restart.ConfigMapConfig(model.ObjectMeta{Name: cm.Name, Namespace: cm.Namespace, ResourceVersion: cm.ResourceVersion},
		cm.Data, cm.BinaryData, includeBinary), nil
}

// RestartSecret converts a Secret into the restart planner's observation.
// stringData, which only a client writes, is merged into data as the API
// server does (stringData wins).
func RestartSecret(s *core.Secret) (restart.Config, error) {
	if s == nil {
		return restart.Config{}, fmt.Errorf("secret: %w", ErrNil)
	}
	data := s.Data
	if len(s.StringData) > 0 {
		data = maps.Clone(s.Data)
		if data == nil {
			data = map[string][]byte{}
		}
		for k, v := range s.StringData {
			data[k] = []byte(v)
		}
	}
	return restart.SecretConfig(model.ObjectMeta{Name: s.Name, Namespace: s.Namespace, ResourceVersion: s.ResourceVersion}, data), nil
}

// StatefulSetToModel converts a StatefulSet into the minimal model the
// restart planner reads: metadata and pod template.
func StatefulSetToModel(s *apps.StatefulSet) (*model.StatefulSet, error) {
	if s == nil {
		return nil, fmt.Errorf("statefulset: %w", ErrNil)
	}
	t, err := TemplateToModel(&s.Spec.Template)
	if err != nil {
		return nil, fmt.Errorf("statefulset %s/%s: spec.%w", s.Namespace, s.Name, err)
	}
	return &model.StatefulSet{ObjectMeta: metaToModel(&s.ObjectMeta), Spec: model.StatefulSetSpec{Template: t}}, nil
}

// RestartDeployment converts a Deployment into the restart planner's
// observation.
func RestartDeployment(d *apps.Deployment) (restart.Workload, error) {
	if d == nil {
		return restart.Workload{}, fmt.Errorf("deployment: %w", ErrNil)
	}
	t, err := TemplateToModel(&d.Spec.Template)
	if err != nil {
		return restart.Workload{}, fmt.Errorf("deployment %s/%s: spec.%w", d.Namespace, d.Name, err)
	}
	md := &model.Deployment{ObjectMeta: metaToModel(&d.ObjectMeta), Spec: model.DeploymentSpec{Template: t}}
	return restart.DeploymentWorkload(md), nil
}

// RestartStatefulSet converts a StatefulSet into the restart planner's
// observation.
func RestartStatefulSet(s *apps.StatefulSet) (restart.Workload, error) {
	m, err := StatefulSetToModel(s)
	if err != nil {
		return restart.Workload{}, err
	}
	return restart.StatefulSetWorkload(m), nil
}

// RestartRequest is the API request of a [restart.Patch]: a JSON merge
// patch of a Deployment or StatefulSet, as the original controller sends it
// (PatchDeployment / PatchStatefulSet with types.MergePatchType).
type RestartRequest struct {
	Resource  schema.GroupVersionResource
	Namespace string
	Name      string
	PatchType types.PatchType
	Data      []byte
}

// RestartPatchRequest returns the request that sends p.
func RestartPatchRequest(p restart.Patch) (RestartRequest, error) {
	var res string
	switch p.Workload.Kind {
	case restart.KindDeployment:
		res = "deployments"
	case restart.KindStatefulSet:
		res = "statefulsets"
	default:
		return RestartRequest{}, fmt.Errorf("patch of %s: %w %q", p.Workload, restart.ErrUnknownKind, p.Workload.Kind)
	}
	return RestartRequest{
		Resource:  apps.SchemeGroupVersion.WithResource(res),
		Namespace: p.Workload.Namespace,
		Name:      p.Workload.Name,
		PatchType: types.MergePatchType,
		Data:      p.Body,
	}, nil
}

// ApplyRestartPatch returns d with p applied as the API server applies the
// merge patch: the checksums annotation set and, for a restart, the
// template's restart annotation set. d is not modified.
func ApplyRestartPatch(d *apps.Deployment, p restart.Patch) *apps.Deployment {
	out := d.DeepCopy()
	setAnnotations(&out.ObjectMeta.Annotations, &out.Spec.Template.Annotations, p)
	return out
}

// ApplyRestartPatchStatefulSet is [ApplyRestartPatch] for a StatefulSet.
func ApplyRestartPatchStatefulSet(s *apps.StatefulSet, p restart.Patch) *apps.StatefulSet {
	out := s.DeepCopy()
	setAnnotations(&out.ObjectMeta.Annotations, &out.Spec.Template.Annotations, p)
	return out
}

func setAnnotations(meta, template *map[string]string, p restart.Patch) {
	if *meta == nil {
		*meta = map[string]string{}
	}
	(*meta)[restart.AnnotationChecksums] = restart.FormatChecksums(p.Checksums)
	if p.Restart {
		if *template == nil {
			*template = map[string]string{}
		}
		(*template)[restart.AnnotationTimestamp] = p.Timestamp
	}
}
