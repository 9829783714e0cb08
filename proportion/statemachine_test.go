package proportion

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
)

// scaleMachine replays a series of scaling events (and annotation tampering)
// through scale() as rebuilt in scale_sim_test.go, applying every write as
// the API server would. After each step the ReplicaSets hold exactly the
// total the step aimed for (design I6: D for a single ReplicaSet, else
// Allowed plus whatever the clamp of upstream quirk (proportional scaling anomalies) added back) and none is negative.
type scaleMachine struct {
	surge, unav *model.IntOrString
	rss         []*model.ReplicaSet
	wantTotal   int32
}

func newScaleMachine(t *rapid.T) *scaleMachine {
	m := &scaleMachine{surge: genFencepost(t, "surge", false), unav: genFencepost(t, "unavailable", true)}
	n := rapid.IntRange(1, 5).Draw(t, "n")
	for i := range n {
		spec := rapid.Int32Range(0, 50).Draw(t, fmt.Sprint("spec", i))
		m.rss = append(m.rss, replicaSet(fmt.Sprintf("rs-%d", i), spec, minute(rapid.IntRange(0, 2).Draw(t, fmt.Sprint("created", i)))))
		m.wantTotal += spec
	}
	for _, rs := range m.rss {
		annotate(rs, m.wantTotal, m.wantTotal)
	}
	return m
}

func (m *scaleMachine) scale(t *rapid.T) {
	d := rolling(rapid.Int32Range(0, 200).Draw(t, "D"), m.surge, m.unav)
	if x := FindActiveOrLatest(nil, m.rss); x != nil {
		m.wantTotal = d.DesiredReplicas()
		for _, rs := range m.rss {
			if rs != x && rs.SpecReplicas() > 0 {
				t.Fatalf("FindActiveOrLatest chose %s while %s is active", x.Name, rs.Name)
			}
		}
	} else {
		dist := Distribute(d, ScaleCandidates(nil, m.rss), Options{})
		m.wantTotal = dist.Allowed + dist.Clamped()
	}
	m.rss = applyWrites(m.rss, simulateScale(d, nil, m.rss, Options{}))
}

func (m *scaleMachine) tamper(t *rapid.T) {
	i := rapid.IntRange(0, len(m.rss)-1).Draw(t, "which")
	rs := m.rss[i].DeepCopy()
	if v, ok := genAnnotation(t, "max"); ok {
		if rs.Annotations == nil {
			rs.Annotations = map[string]string{}
		}
		rs.Annotations[model.MaxReplicasAnnotation] = v
	} else {
		delete(rs.Annotations, model.MaxReplicasAnnotation)
	}
	m.rss[i] = rs
}

func (m *scaleMachine) check(t *rapid.T) {
	var total int32
	for _, rs := range m.rss {
		if rs.SpecReplicas() < 0 {
			t.Fatalf("%s has %d replicas", rs.Name, rs.SpecReplicas())
		}
		total += rs.SpecReplicas()
	}
	if total != m.wantTotal {
		t.Fatalf("total %d, the last step aimed for %d", total, m.wantTotal)
	}
}

func TestPropScaleEventsStateMachine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := newScaleMachine(t)
		t.Repeat(map[string]func(*rapid.T){
			"scale":  m.scale,
			"tamper": m.tamper,
			"":       m.check,
		})
	})
}
