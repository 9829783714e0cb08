package next

import (
	"fmt"
	"maps"
	"slices"

	apps "k8s.io/api/apps/v1"
)

// statusChanges lists each field of a Deployment's status (and each
// annotation) that differs between was and now, as "field: old → new".
func statusChanges(was, now *apps.Deployment) []string {
	var out []string
	field := func(name string, a, b any) {
		if a != b {
			out = append(out, fmt.Sprintf("%s: %v → %v", name, a, b))
		}
	}
	ws, ns := was.Status, now.Status
	field("status.observedGeneration", ws.ObservedGeneration, ns.ObservedGeneration)
	field("status.replicas", ws.Replicas, ns.Replicas)
	field("status.updatedReplicas", ws.UpdatedReplicas, ns.UpdatedReplicas)
	field("status.readyReplicas", ws.ReadyReplicas, ns.ReadyReplicas)
	field("status.availableReplicas", ws.AvailableReplicas, ns.AvailableReplicas)
	field("status.unavailableReplicas", ws.UnavailableReplicas, ns.UnavailableReplicas)
	field("status.terminatingReplicas", ptr(ws.TerminatingReplicas), ptr(ns.TerminatingReplicas))
	field("status.collisionCount", ptr(ws.CollisionCount), ptr(ns.CollisionCount))
	types := map[apps.DeploymentConditionType]bool{}
	for _, c := range ws.Conditions {
		types[c.Type] = true
	}
	for _, c := range ns.Conditions {
		types[c.Type] = true
	}
	for _, t := range slices.Sorted(maps.Keys(types)) {
		a, b := condition(ws.Conditions, t), condition(ns.Conditions, t)
		field("status.conditions["+string(t)+"]", a, b)
	}
	keys := map[string]bool{}
	for k := range was.Annotations {
		keys[k] = true
	}
	for k := range now.Annotations {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		a, aok := was.Annotations[k]
		b, bok := now.Annotations[k]
		if a != b || aok != bok {
			out = append(out, fmt.Sprintf("metadata.annotations[%s]: %s → %s", k, quoted(a, aok), quoted(b, bok)))
		}
	}
	return out
}

func ptr(p *int32) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

func quoted(s string, ok bool) string {
	if !ok {
		return "(none)"
	}
	return fmt.Sprintf("%q", s)
}

// condition summarises one condition as "Status/Reason: message", or
// "(none)".
func condition(cs []apps.DeploymentCondition, t apps.DeploymentConditionType) string {
	for _, c := range cs {
		if c.Type == t {
			return fmt.Sprintf("%s/%s: %s", c.Status, c.Reason, c.Message)
		}
	}
	return "(none)"
}
