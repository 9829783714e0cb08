package replicaset

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
)

// GroupPodsByController groups copies of pods by the UID of their controller
// reference; pods without one (orphans, which any ReplicaSet whose selector
// matches may adopt) are under "". Each group is sorted by namespace, then
// name, so the result does not depend on the order of pods. Nil pods are
// skipped.
//
// For example, pods a and b controlled by ReplicaSet uid "rs-1" and an orphan
// c give {"rs-1": [a, b], "": [c]}.
func GroupPodsByController(pods []*model.Pod) map[string][]*model.Pod {
	out := make(map[string][]*model.Pod)
	for _, p := range pods {
		if p == nil {
			continue
		}
		uid := ""
		if ref := p.ControllerRef(); ref != nil {
			uid = ref.UID
		}
		out[uid] = append(out[uid], p.DeepCopy())
	}
	for _, group := range out {
		slices.SortFunc(group, func(a, b *model.Pod) int {
			return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name), strings.Compare(a.UID, b.UID))
		})
	}
	return out
}

// relatedReplicaSets returns rs and every ReplicaSet of replicaSets in rs's
// namespace controlled by the same owner (by controller reference UID), rs
// itself taken from the argument rather than from the list. Upstream finds
// them through an index of controller UIDs; a ReplicaSet without a controller
// has no related ReplicaSets at all, not even itself.
func relatedReplicaSets(rs *model.ReplicaSet, replicaSets []*model.ReplicaSet) []*model.ReplicaSet {
	ref := rs.ControllerRef()
	if ref == nil {
		return nil
	}
	out := []*model.ReplicaSet{rs}
	for _, other := range replicaSets {
		if other == nil || other.UID == rs.UID || other.Namespace != rs.Namespace {
			continue
		}
		if o := other.ControllerRef(); o != nil && o.UID == ref.UID {
			out = append(out, other)
		}
	}
	return out
}

// relatedMask marks the pods (of rs's namespace) selected by any related
// ReplicaSet. A ReplicaSet whose selector cannot be evaluated selects nothing,
// as upstream has it.
func relatedMask(rs *model.ReplicaSet, pods []*model.Pod, replicaSets []*model.ReplicaSet) []bool {
	mask := make([]bool, len(pods))
	for _, r := range relatedReplicaSets(rs, replicaSets) {
		m, err := model.NewSharedMatcher(r.Spec.Selector)
		if err != nil {
			continue
		}
		for i, p := range pods {
			if !mask[i] && p != nil && p.Namespace == rs.Namespace && m.Matches(p.Labels) {
				mask[i] = true
			}
		}
	}
	return mask
}

// RelatedPods returns copies of the pods upstream ranks co-location against
// when rs scales down (getIndirectlyRelatedPods): every pod of rs's namespace,
// active or not, selected by rs or by any ReplicaSet in replicaSets with the
// same controller. Pods are deduplicated and sorted by name. A ReplicaSet
// without a controller reference has no related pods, so every co-location
// rank is 0; a related ReplicaSet with an invalid selector selects nothing.
//
// For example, when Deployment web controls ReplicaSets web-1 (app=web,
// hash=1) and web-2 (app=web, hash=2), the related pods of web-1 are the pods
// of both.
func RelatedPods(rs *model.ReplicaSet, pods []*model.Pod, replicaSets []*model.ReplicaSet) []*model.Pod {
	if rs == nil {
		return nil
	}
	mask := relatedMask(rs, pods, replicaSets)
	var out []*model.Pod
	seen := make(map[string]bool)
	for i, p := range pods {
		if !mask[i] {
			continue
		}
		key := p.UID
		if key == "" {
			key = "name/" + p.Name
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, p.DeepCopy())
	}
	slices.SortFunc(out, func(a, b *model.Pod) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.UID, b.UID))
	})
	return out
}

// patchOwnerRef and patchMeta give the adoption and release patches the
// exact field order upstream's bodies have.
type patchOwnerRef struct {
	Patch              string `json:"$patch,omitempty"`
	APIVersion         string `json:"apiVersion,omitempty"`
	Kind               string `json:"kind,omitempty"`
	Name               string `json:"name,omitempty"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

type patchMeta struct {
	OwnerReferences []patchOwnerRef `json:"ownerReferences"`
	UID             string          `json:"uid"`
}

type patchBody struct {
	Metadata patchMeta `json:"metadata"`
}

func encodePatch(ref patchOwnerRef, podUID string) string {
	b, err := json.Marshal(patchBody{Metadata: patchMeta{OwnerReferences: []patchOwnerRef{ref}, UID: podUID}})
	if err != nil {
		// Only strings and bools are encoded; this cannot happen.
		return ""
	}
	return string(b)
}

// adoptPatch is the strategic-merge patch that makes rs the controller of
// the pod with UID podUID, e.g.
//
//	{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"rs-1","controller":true,"blockOwnerDeletion":true}],"uid":"pod-1"}}
func adoptPatch(ref model.OwnerReference, podUID string) string {
	t := true
	return encodePatch(patchOwnerRef{APIVersion: ref.APIVersion, Kind: ref.Kind, Name: ref.Name, UID: ref.UID, Controller: &t, BlockOwnerDeletion: &t}, podUID)
}

// releasePatch is the strategic-merge patch that removes the owner reference
// to rsUID from the pod with UID podUID.
func releasePatch(rsUID, podUID string) string {
	return encodePatch(patchOwnerRef{Patch: "delete", UID: rsUID}, podUID)
}
