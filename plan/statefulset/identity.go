package statefulset

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
)

// ParseOrdinal splits a pod name "<parent>-<digits>" at its last dash into
// the parent's name and the ordinal, as upstream's getParentNameAndOrdinal:
// ("web", 2) for "web-2", ("web", 1) for "web-01". A name without such a
// suffix has parent "" and ordinal -1; digits beyond int32 keep the parent
// and give ordinal -1.
func ParseOrdinal(name string) (parent string, ordinal int) {
	end := len(name)
	i := end
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i == end || i == 0 || name[i-1] != '-' {
		return "", -1
	}
	parent = name[:i-1]
	// Upstream matches with a regular expression whose "." stops at a line
	// feed, so the parent starts after the last one.
	if j := strings.LastIndexByte(parent, '\n'); j >= 0 {
		parent = parent[j+1:]
	}
	n, err := strconv.ParseInt(name[i:], 10, 32)
	if err != nil {
		return parent, -1
	}
	return parent, int(n)
}

// PodName returns the name of a set's pod at an ordinal: "<set>-<ordinal>".
func PodName(setName string, ordinal int) string {
	return setName + "-" + strconv.Itoa(ordinal)
}

// ClaimName returns the name of the claim of a volumeClaimTemplate for the
// pod at an ordinal: "<template>-<set>-<ordinal>".
func ClaimName(templateName, setName string, ordinal int) string {
	return templateName + "-" + setName + "-" + strconv.Itoa(ordinal)
}

// ordinalOf is the ordinal of a pod name, -1 when it has none.
func ordinalOf(name string) int {
	_, o := ParseOrdinal(name)
	return o
}

// isMemberOf reports whether pod's name makes it a pod of set.
func isMemberOf(set *model.StatefulSet, p *model.Pod) bool {
	parent, _ := ParseOrdinal(p.Name)
	return parent == set.Name
}

// inOrdinalRange reports whether a pod name's ordinal is in
// [start, start+replicas).
func inOrdinalRange(set *model.StatefulSet, name string) bool {
	o := ordinalOf(name)
	start := int(set.StartOrdinal())
	return o >= start && o <= start+int(*set.Spec.Replicas)-1
}

// identityMatches is upstream's identityMatches: a valid ordinal, the set's
// name as parent, the canonical name, the set's namespace and the pod-name
// label.
func identityMatches(set *model.StatefulSet, p *model.Pod) bool {
	parent, o := ParseOrdinal(p.Name)
	return o >= 0 && parent == set.Name && p.Name == PodName(set.Name, o) &&
		p.Namespace == set.Namespace && p.Labels[model.StatefulSetPodNameLabel] == p.Name
}

// storageMatches reports whether the pod mounts, under each template's name,
// the claim of that template for its ordinal.
func storageMatches(set *model.StatefulSet, p *model.Pod) bool {
	o := ordinalOf(p.Name)
	if o < 0 {
		return false
	}
	for _, t := range set.Spec.VolumeClaimTemplates {
		v, ok := volumeNamed(p.Spec.Volumes, t.Name)
		if !ok || v.ClaimName != ClaimName(t.Name, set.Name, o) {
			return false
		}
	}
	return true
}

// volumeNamed returns the last volume of that name (upstream indexes volumes
// in a map, so a later duplicate wins).
func volumeNamed(vs []model.Volume, name string) (model.Volume, bool) {
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].Name == name {
			return vs[i], true
		}
	}
	return model.Volume{}, false
}

// claimTemplates returns the set's claim templates sorted by name: upstream
// walks them through a Go map, in random order, where it creates claims and
// mounts them; the planner uses name order.
func claimTemplates(set *model.StatefulSet) []*model.PersistentVolumeClaim {
	out := make([]*model.PersistentVolumeClaim, len(set.Spec.VolumeClaimTemplates))
	for i := range set.Spec.VolumeClaimTemplates {
		out[i] = &set.Spec.VolumeClaimTemplates[i]
	}
	slices.SortStableFunc(out, func(a, b *model.PersistentVolumeClaim) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// newClaim is the claim upstream creates from template t for the pod at
// ordinal: the template with the claim's name, the set's namespace, and the
// selector's matchLabels added to its labels.
func newClaim(set *model.StatefulSet, t *model.PersistentVolumeClaim, ordinal int) *model.PersistentVolumeClaim {
	c := t.DeepCopy()
	c.Name = ClaimName(t.Name, set.Name, ordinal)
	c.Namespace = set.Namespace
	if c.Labels == nil {
		c.Labels = maps.Clone(set.Spec.Selector.MatchLabels)
	} else {
		maps.Copy(c.Labels, set.Spec.Selector.MatchLabels)
	}
	return c
}

// storageVolumes is upstream's updateStorage: the claim volumes, then the
// pod's volumes of other names.
func storageVolumes(set *model.StatefulSet, ordinal int, current []model.Volume) []model.Volume {
	tmpls := claimTemplates(set)
	out := make([]model.Volume, 0, len(tmpls)+len(current))
	names := make(map[string]bool, len(tmpls))
	for _, t := range tmpls {
		if names[t.Name] {
			continue
		}
		names[t.Name] = true
		out = append(out, model.Volume{Name: t.Name, ClaimName: ClaimName(t.Name, set.Name, ordinal)})
	}
	for _, v := range current {
		if !names[v.Name] {
			out = append(out, v)
		}
	}
	return out
}

// newPod is upstream's newStatefulSetPod with the revision label: the pod a
// set at template tmpl creates at an ordinal.
func newPod(set *model.StatefulSet, tmpl model.PodTemplate, revision string, ordinal int) *model.Pod {
	name := PodName(set.Name, ordinal)
	labels := maps.Clone(tmpl.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[model.StatefulSetPodNameLabel] = name
	labels[model.PodIndexLabel] = strconv.Itoa(ordinal)
	labels[model.StatefulSetRevisionLabel] = revision
	p := &model.Pod{
		ObjectMeta: model.ObjectMeta{
			Name:            name,
			Namespace:       set.Namespace,
			Labels:          labels,
			Annotations:     maps.Clone(tmpl.Annotations),
			OwnerReferences: []model.OwnerReference{setControllerRef(set)},
		},
		Spec: model.PodSpec{Body: tmpl.Spec, Hostname: name, Subdomain: set.Spec.ServiceName},
	}
	p.Spec.Volumes = storageVolumes(set, ordinal, nil)
	return p
}

// setControllerRef is the controller reference to the set.
func setControllerRef(set *model.StatefulSet) model.OwnerReference {
	return model.NewControllerRef(model.AppsV1APIVersion, model.StatefulSetKind, set.Name, set.UID)
}

// podRevision is the pod's controller-revision-hash label ("" without one).
func podRevision(p *model.Pod) string { return p.Labels[model.StatefulSetRevisionLabel] }
