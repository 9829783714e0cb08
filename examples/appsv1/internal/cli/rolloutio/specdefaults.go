package rolloutio

import (
	apps "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/rolloutplan/rolloutplan/model"
)

// DeploymentSpecDefaults returns d if its spec has every field the API
// server defaults, and otherwise a copy with the missing ones filled in as
// apps/v1 does (model.Default's: replicas 1, strategy RollingUpdate with
// maxSurge and maxUnavailable 25 %, revisionHistoryLimit 10,
// progressDeadlineSeconds 600). An object read from a cluster has them
// all; one written by hand with a UID or a resourceVersion (which the
// reader does not take for a manifest) may not, and the planners refuse a
// spec without them: the reader looks at every Deployment as the server
// would store it. The pod template is left as it is: it is hashed as
// written (a manifest's gets its defaults in withDefaults).
func DeploymentSpecDefaults(d *apps.Deployment) *apps.Deployment {
	if d == nil {
		return nil
	}
	s := &d.Spec
	ru := s.Strategy.RollingUpdate
	if s.Replicas != nil && s.Strategy.Type != "" && s.RevisionHistoryLimit != nil && s.ProgressDeadlineSeconds != nil &&
		(s.Strategy.Type != apps.RollingUpdateDeploymentStrategyType || ru != nil && ru.MaxUnavailable != nil && ru.MaxSurge != nil) {
		return d
	}
	d = d.DeepCopy()
	s = &d.Spec
	if s.Replicas == nil {
		s.Replicas = new(int32(model.DefaultReplicas))
	}
	if s.Strategy.Type == "" {
		s.Strategy.Type = apps.RollingUpdateDeploymentStrategyType
	}
	if s.Strategy.Type == apps.RollingUpdateDeploymentStrategyType {
		if s.Strategy.RollingUpdate == nil {
			s.Strategy.RollingUpdate = &apps.RollingUpdateDeployment{}
		}
		ru := s.Strategy.RollingUpdate
		if ru.MaxUnavailable == nil {
			ru.MaxUnavailable = new(intstr.FromString(model.DefaultMaxUnavailable))
		}
		if ru.MaxSurge == nil {
			ru.MaxSurge = new(intstr.FromString(model.DefaultMaxSurge))
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = new(int32(model.DefaultRevisionHistoryLimit))
	}
	if s.ProgressDeadlineSeconds == nil {
		s.ProgressDeadlineSeconds = new(int32(model.DefaultProgressDeadlineSeconds))
	}
	return d
}

// StatefulSetSpecDefaults is DeploymentSpecDefaults for a StatefulSet
// (model.DefaultStatefulSet's defaults: podManagementPolicy OrderedReady,
// updateStrategy RollingUpdate with partition 0, the claim retention
// policy Retain, replicas 1, revisionHistoryLimit 10).
func StatefulSetSpecDefaults(set *apps.StatefulSet) *apps.StatefulSet {
	if set == nil {
		return nil
	}
	s := &set.Spec
	ru := s.UpdateStrategy.RollingUpdate
	p := s.PersistentVolumeClaimRetentionPolicy
	if s.PodManagementPolicy != "" && s.UpdateStrategy.Type != "" && s.Replicas != nil && s.RevisionHistoryLimit != nil &&
		(s.UpdateStrategy.Type != apps.RollingUpdateStatefulSetStrategyType || ru == nil || ru.Partition != nil) &&
		p != nil && p.WhenDeleted != "" && p.WhenScaled != "" {
		return set
	}
	set = set.DeepCopy()
	s = &set.Spec
	if s.PodManagementPolicy == "" {
		s.PodManagementPolicy = apps.OrderedReadyPodManagement
	}
	if s.UpdateStrategy.Type == "" {
		s.UpdateStrategy.Type = apps.RollingUpdateStatefulSetStrategyType
		if s.UpdateStrategy.RollingUpdate == nil {
			s.UpdateStrategy.RollingUpdate = &apps.RollingUpdateStatefulSetStrategy{}
		}
	}
	if ru := s.UpdateStrategy.RollingUpdate; s.UpdateStrategy.Type == apps.RollingUpdateStatefulSetStrategyType && ru != nil && ru.Partition == nil {
		ru.Partition = new(int32(model.DefaultPartition))
	}
	if s.PersistentVolumeClaimRetentionPolicy == nil {
		s.PersistentVolumeClaimRetentionPolicy = &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	if p := s.PersistentVolumeClaimRetentionPolicy; p.WhenDeleted == "" {
		p.WhenDeleted = apps.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if p := s.PersistentVolumeClaimRetentionPolicy; p.WhenScaled == "" {
		p.WhenScaled = apps.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if s.Replicas == nil {
		s.Replicas = new(int32(model.DefaultReplicas))
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = new(int32(model.DefaultStatefulSetRevisionHistoryLimit))
	}
	return set
}

// DaemonSetSpecDefaults is DeploymentSpecDefaults for a DaemonSet
// (model.DefaultDaemonSet's defaults: updateStrategy RollingUpdate with
// maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10).
func DaemonSetSpecDefaults(ds *apps.DaemonSet) *apps.DaemonSet {
	if ds == nil {
		return nil
	}
	s := &ds.Spec
	ru := s.UpdateStrategy.RollingUpdate
	if s.UpdateStrategy.Type != "" && s.RevisionHistoryLimit != nil &&
		(s.UpdateStrategy.Type != apps.RollingUpdateDaemonSetStrategyType || ru != nil && ru.MaxUnavailable != nil && ru.MaxSurge != nil) {
		return ds
	}
	ds = ds.DeepCopy()
	s = &ds.Spec
	if s.UpdateStrategy.Type == "" {
		s.UpdateStrategy.Type = apps.RollingUpdateDaemonSetStrategyType
	}
	if s.UpdateStrategy.Type == apps.RollingUpdateDaemonSetStrategyType {
		if s.UpdateStrategy.RollingUpdate == nil {
			s.UpdateStrategy.RollingUpdate = &apps.RollingUpdateDaemonSet{}
		}
		ru := s.UpdateStrategy.RollingUpdate
		if ru.MaxUnavailable == nil {
			ru.MaxUnavailable = new(intstr.FromInt32(model.DefaultDaemonSetMaxUnavailable))
		}
		if ru.MaxSurge == nil {
			ru.MaxSurge = new(intstr.FromInt32(model.DefaultDaemonSetMaxSurge))
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = new(int32(model.DefaultDaemonSetRevisionHistoryLimit))
	}
	return ds
}
