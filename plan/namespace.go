package plan

import "github.com/rolloutplan/rolloutplan/model"

// NoteOtherNamespace: the snapshot held ReplicaSets or Pods of another
// namespace (an empty namespace included). Upstream's listers are
// namespaced, so it never sees them; the plan ignores them too and the note
// counts them.
const NoteOtherNamespace ReasonCode = "OtherNamespace"

// inNamespace returns the objects of list whose namespace is ns and how many
// others were left out. It returns list itself when nothing is left
// out, so the result must not be modified.
//
// A nil entry is kept: it has no namespace to judge by.
func inNamespace[T comparable](list []T, ns string, meta func(T) *model.ObjectMeta) ([]T, int) {
	foreign := countForeign(list, ns, meta)
	if foreign == 0 {
		return list, 0
	}
	var zero T
	out := make([]T, 0, len(list)-foreign)
	for _, x := range list {
		if x == zero || meta(x).Namespace == ns {
			out = append(out, x)
		}
	}
	return out, foreign
}

// countForeign counts the entries of list that inNamespace leaves out: those
// whose namespace is not ns (a nil entry is kept).
func countForeign[T comparable](list []T, ns string, meta func(T) *model.ObjectMeta) int {
	var zero T
	foreign := 0
	for _, x := range list {
		if x != zero && meta(x).Namespace != ns {
			foreign++
		}
	}
	return foreign
}

func rsMeta(rs *model.ReplicaSet) *model.ObjectMeta { return &rs.ObjectMeta }

func podMeta(p *model.Pod) *model.ObjectMeta { return &p.ObjectMeta }

// scopeToNamespace drops the ReplicaSets and Pods of other namespaces from
// the syncer's view, as upstream's namespaced listers do, and notes how
// many it dropped.
func (s *syncer) scopeToNamespace() {
	ns := s.d.Namespace
	var rsOut, podOut int
	s.all, rsOut = inNamespace(s.all, ns, rsMeta)
	s.pods, podOut = inNamespace(s.pods, ns, podMeta)
	if rsOut+podOut > 0 {
		s.note(reason(NoteOtherNamespace, vals(v("replicaSets", int64(rsOut)), v("pods", int64(podOut))),
			"ignored %d ReplicaSets and %d Pods of other namespaces than %q: upstream lists only the Deployment's namespace",
			rsOut, podOut, ns))
	}
}
