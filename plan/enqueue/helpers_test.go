package enqueue_test

import (
	"github.com/rolloutplan/rolloutplan/model"
)

// Small builders for the tables: one namespace "ns" unless said otherwise.

func dep(name, uid string, strategy model.StrategyType, match map[string]string) *model.Deployment {
	d := &model.Deployment{ObjectMeta: model.ObjectMeta{Namespace: "ns", Name: name, UID: uid}}
	if match != nil {
		d.Spec.Selector = &model.LabelSelector{MatchLabels: match}
	}
	d.Spec.Strategy.Type = strategy
	return d
}

func ownedBy(kind, name, uid string) []model.OwnerReference {
	return []model.OwnerReference{model.NewControllerRef("apps/v1", kind, name, uid)}
}

func rs(name, uid, rv string, labels map[string]string, owners []model.OwnerReference) *model.ReplicaSet {
	return &model.ReplicaSet{ObjectMeta: model.ObjectMeta{
		Namespace: "ns", Name: name, UID: uid, ResourceVersion: rv, Labels: labels, OwnerReferences: owners,
	}}
}

func pod(name string, labels map[string]string, owners []model.OwnerReference) *model.Pod {
	return &model.Pod{ObjectMeta: model.ObjectMeta{Namespace: "ns", Name: name, UID: "pod-" + name, Labels: labels, OwnerReferences: owners}}
}

func lbl(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}
