package replicaset

import (
	"slices"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// TestSyncManyLabelSelector: a selector of six matchLabels (more than a
// model.Matcher keeps without an allocation) and a match expression, with
// template labels beyond the selector's. Hand-checked: p0, p1 and p5 carry
// every required label and no "blocked" label, so they are the 3 active pods
// (replicas 3: nothing to create or delete); only p0 also carries team=t, so
// fullyLabeledReplicas is 1 (the ReplicaSet controller's template-label
// selector); p2 (blocked), p3 (no e) and p4 (e=2) are controlled by rs but no
// longer selected, so they are released.
func TestSyncManyLabelSelector(t *testing.T) {
	rs := mkRS("web", 3)
	required := map[string]string{"app": "web", "a": "1", "b": "1", "c": "1", "d": "1", "e": "1"}
	rs.Spec.Selector = &model.LabelSelector{
		MatchLabels:      required,
		MatchExpressions: []model.LabelSelectorRequirement{{Key: "blocked", Operator: model.SelectorOpDoesNotExist}},
	}
	rs.Spec.Template.Labels = map[string]string{"app": "web", "a": "1", "b": "1", "c": "1", "d": "1", "e": "1", "team": "t"}
	with := func(extra map[string]string, drop string) podOpt {
		return func(p *model.Pod) {
			p.Labels = map[string]string{}
			for k, v := range required {
				if k != drop {
					p.Labels[k] = v
				}
			}
			for k, v := range extra {
				p.Labels[k] = v
			}
		}
	}
	ready := running("n1", t0.Add(-time.Hour))
	pods := []*model.Pod{
		mkPod("p0", ownedBy(rs), ready, with(map[string]string{"team": "t"}, "")),
		mkPod("p1", ownedBy(rs), ready, with(nil, "")),
		mkPod("p2", ownedBy(rs), ready, with(map[string]string{"team": "t", "blocked": "yes"}, "")),
		mkPod("p3", ownedBy(rs), ready, with(map[string]string{"team": "t"}, "e")),
		mkPod("p4", ownedBy(rs), ready, with(map[string]string{"team": "t", "e": "2"}, "")),
		mkPod("p5", ownedBy(rs), ready, with(map[string]string{"team": "other"}, "")),
	}
	p, err := Sync(rs, pods, []*model.ReplicaSet{rs}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if st := p.Status; st.Replicas != 3 || st.FullyLabeledReplicas != 1 {
		t.Errorf("status replicas %d, fullyLabeledReplicas %d; want 3, 1", st.Replicas, st.FullyLabeledReplicas)
	}
	if got := names(p, ReleasePod); !slices.Equal(got, []string{"p2", "p3", "p4"}) {
		t.Errorf("released %v, want [p2 p3 p4]", got)
	}
	if n := p.Count(CreatePod) + p.Count(DeletePod); n != 0 {
		t.Errorf("%d creates and deletes, want none", n)
	}
	// RelatedPods selects with the same selector: p0, p1 and p5.
	var related []string
	for _, r := range RelatedPods(rs, pods, []*model.ReplicaSet{rs}) {
		related = append(related, r.Name)
	}
	if !slices.Equal(related, []string{"p0", "p1", "p5"}) {
		t.Errorf("related pods %v, want [p0 p1 p5]", related)
	}
}
