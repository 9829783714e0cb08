package model

import (
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/internal/conformancefile"
)

// conformanceStatesFile holds the 200 recorded conformance states (the
// inputs of kube-controller-manager v1.36.3 syncs, converted to model types)
// that plan's benchmarks replay; examples/appsv1 regenerates it. Each entry
// is {"id": ..., "state": plan.State}; only the objects are read here, as
// model cannot import plan.
const conformanceStatesFile = "../plan/testdata/conformance-states.json.gz"

// ConformanceSnapshot is the part of a plan.State that Validate checks.
type ConformanceSnapshot struct {
	ID          string
	Deployment  *Deployment
	ReplicaSets []*ReplicaSet
	Pods        []*Pod
}

// ReadConformanceSnapshots reads the 200 states (exported for the
// external test package).
func ReadConformanceSnapshots(tb testing.TB) []ConformanceSnapshot {
	tb.Helper()
	cases, err := conformancefile.Read[struct {
		Deployment  *Deployment
		ReplicaSets []*ReplicaSet
		Pods        []*Pod
	}](conformanceStatesFile)
	if err != nil {
		tb.Fatal(err)
	}
	if len(cases) != 200 {
		tb.Fatalf("%s holds %d states, want 200", conformanceStatesFile, len(cases))
	}
	out := make([]ConformanceSnapshot, len(cases))
	for i, c := range cases {
		out[i] = ConformanceSnapshot{ID: c.ID, Deployment: c.State.Deployment, ReplicaSets: c.State.ReplicaSets, Pods: c.State.Pods}
	}
	return out
}

// chooser draws the decisions of a mutation: a number in [0, n).
type chooser interface{ intn(n int) int }

// lcg is a fixed linear congruential sequence of choices.
type lcg uint64

func (x *lcg) intn(n int) int {
	*x = *x*6364136223846793005 + 1442695040888963407
	return int((uint64(*x) >> 33) % uint64(n))
}

// byteChooser takes its choices from fuzz input; once the input runs out
// every choice is 0.
type byteChooser []byte

func (b *byteChooser) intn(n int) int {
	if len(*b) == 0 {
		return 0
	}
	c := int((*b)[0])
	*b = (*b)[1:]
	return c % n
}

// edgeStrings are values at and around the boundaries of the name, label,
// namespace and UID rules: lengths 63/64, 128/129, 253/254, separators at
// the ends, upper case, spaces and non-ASCII, and valid ones.
var edgeStrings = []string{
	"", "a", "A", "0", "-", ".", "_", "/", "-a", "a-", "a.b", "a..b", ".a", "a.", "a_b", "_a", "a_", "a b", "a\tb",
	"é", "aé", "a/b", "/a", "a/", "x/y/z", "example.com/x", "Example.com/x", "example.com/", "-example.com/x",
	"example..com/x", "a.b-c.d/e_f.g", "web", "web-1", "web.prod", "Web", "default", "kube-system",
	"2926f4de-efdc-560d-a02b-c2f4aa1d780f", "uid with space", "uid\x7f", "uid~!", "\x00",
	"2926f4de-efdc-560d\x7fa02b-c2f4aa1d780f", "2926f4de efdc-560d-a02b-c2f4aa1d780f", "2926f4de-efdc-560d-a02b-c2f4aa1d780\x80",
	"!\"#$%&'()*+,-./0123456789:;<=>?@AZ[\\]^_`az{|}~",
	strings.Repeat("a", 63), strings.Repeat("a", 64), "x/" + strings.Repeat("b", 63), "x/" + strings.Repeat("b", 64),
	strings.Repeat("u", 128), strings.Repeat("u", 129), strings.Repeat("n", 253), strings.Repeat("n", 254),
	strings.Repeat("ab.", 84) + "a", strings.Repeat("ab.", 84) + "ab", strings.Repeat("p", 253) + "/x", strings.Repeat("p", 254) + "/x",
	"aB", "a-B", "MiXeD/Key", "app.kubernetes.io/Name", "EXAMPLE.COM/APP",
}

var edgeInts = []int32{-2147483648, -1, 0, 1, 5, 600, 2147483647}

var edgeFenceposts = []IntOrString{
	FromInt(0), FromInt(1), FromInt(-1), FromString("0%"), FromString("00%"), FromString("25%"), FromString("100%"),
	FromString("101%"), FromString("12x%"), FromString("%"), FromString("-5%"), FromString("99999999999999999999%"),
	FromString(""), {Type: 7, StrVal: "x"}, {Type: String, StrVal: "5"},
}

// mutateSnapshot returns a deep copy of the snapshot with some fields set
// to edge values (none when the first choice is 0), so that most results
// are valid or break one or two rules. The input is not changed.
func mutateSnapshot(c chooser, d *Deployment, rss []*ReplicaSet, pods []*Pod) (*Deployment, []*ReplicaSet, []*Pod) {
	d = d.DeepCopy()
	rss = append([]*ReplicaSet(nil), rss...)
	for i := range rss {
		rss[i] = rss[i].DeepCopy()
	}
	pods = append([]*Pod(nil), pods...)
	for i := range pods {
		pods[i] = pods[i].DeepCopy()
	}
	str := func() string { return edgeStrings[c.intn(len(edgeStrings))] }
	num := func() int32 { return edgeInts[c.intn(len(edgeInts))] }
	// other returns the meta of some object of the snapshot, so that names
	// and UIDs can be copied to make duplicates.
	other := func() *ObjectMeta {
		switch k := c.intn(3); {
		case k == 1 && len(rss) > 0:
			if rs := rss[c.intn(len(rss))]; rs != nil {
				return &rs.ObjectMeta
			}
		case k == 2 && len(pods) > 0:
			if p := pods[c.intn(len(pods))]; p != nil {
				return &p.ObjectMeta
			}
		}
		if d != nil {
			return &d.ObjectMeta
		}
		return &ObjectMeta{}
	}
	mutateMeta := func(m *ObjectMeta) {
		switch c.intn(7) {
		case 0:
			m.Name = str()
		case 1:
			m.Namespace = str()
		case 2:
			m.UID = str()
		case 3:
			m.Generation = int64(num())
		case 4:
			m.Name = other().Name
		case 5:
			m.UID = other().UID
		case 6:
			o := other()
			m.Namespace, m.Name = o.Namespace, o.Name
		}
	}
	setLabel := func(m *map[string]string) {
		if *m == nil || c.intn(4) == 0 {
			*m = map[string]string{}
		}
		(*m)[str()] = str()
	}
	mutateSelector := func(s **LabelSelector) {
		switch c.intn(6) {
		case 0:
			*s = nil
		case 1:
			*s = &LabelSelector{}
		case 2, 3:
			if *s == nil {
				*s = &LabelSelector{}
			}
			setLabel(&(*s).MatchLabels)
		default:
			if *s == nil {
				*s = &LabelSelector{}
			}
			ops := []SelectorOperator{SelectorOpIn, SelectorOpNotIn, SelectorOpExists, SelectorOpDoesNotExist, "Bogus", ""}
			r := LabelSelectorRequirement{Key: str(), Operator: ops[c.intn(len(ops))]}
			for range c.intn(3) {
				r.Values = append(r.Values, str())
			}
			(*s).MatchExpressions = append((*s).MatchExpressions, r)
		}
	}
	fence := func() *IntOrString {
		if c.intn(8) == 0 {
			return nil
		}
		v := edgeFenceposts[c.intn(len(edgeFenceposts))]
		return &v
	}
	n := c.intn(4) // 0: unchanged
	for range n {
		switch c.intn(4) {
		case 0: // the Deployment
			if c.intn(40) == 0 {
				d = nil
			}
			if d == nil {
				continue
			}
			s := &d.Spec
			switch c.intn(22) {
			case 0, 1, 2:
				mutateMeta(&d.ObjectMeta)
			case 3:
				s.Replicas = nil
			case 4:
				s.Replicas = Int32Ptr(num())
			case 5, 6:
				mutateSelector(&s.Selector)
			case 7:
				setLabel(&s.Template.Labels)
			case 8:
				setLabel(&s.Template.Annotations)
			case 9:
				types := []StrategyType{RollingUpdateStrategy, RecreateStrategy, "", "Canary"}
				s.Strategy.Type = types[c.intn(len(types))]
			case 10:
				s.Strategy.RollingUpdate = nil
			case 11, 12:
				if s.Strategy.RollingUpdate == nil {
					s.Strategy.RollingUpdate = &RollingUpdate{}
				}
				if c.intn(2) == 0 {
					s.Strategy.RollingUpdate.MaxSurge = fence()
				} else {
					s.Strategy.RollingUpdate.MaxUnavailable = fence()
				}
			case 13:
				s.MinReadySeconds = num()
			case 14:
				s.RevisionHistoryLimit = Int32Ptr(num())
			case 15:
				s.ProgressDeadlineSeconds = Int32Ptr(num())
			case 16:
				s.ProgressDeadlineSeconds = Int32Ptr(s.MinReadySeconds)
			case 17:
				st := &d.Status
				fields := []*int32{&st.Replicas, &st.UpdatedReplicas, &st.ReadyReplicas, &st.AvailableReplicas, &st.UnavailableReplicas}
				*fields[c.intn(len(fields))] = num()
			case 18:
				d.Status.CollisionCount = Int32Ptr(num())
			case 19:
				d.Status.TerminatingReplicas = Int32Ptr(num())
			case 20:
				s.Template.Labels = nil
			case 21:
				if s.Selector != nil {
					s.Template.Labels = s.Selector.MatchLabels
				}
			}
		case 1: // a ReplicaSet
			if len(rss) == 0 || c.intn(3) == 0 {
				rss = append(rss, &ReplicaSet{ObjectMeta: ObjectMeta{Name: str(), Namespace: "default", UID: str()},
					Spec: ReplicaSetSpec{Replicas: Int32Ptr(1), Selector: &LabelSelector{MatchLabels: map[string]string{"app": "x"}}}})
			}
			i := c.intn(len(rss))
			if c.intn(30) == 0 {
				rss[i] = nil
			}
			rs := rss[i]
			if rs == nil {
				continue
			}
			switch c.intn(11) {
			case 0, 1, 2:
				mutateMeta(&rs.ObjectMeta)
			case 3:
				rs.Spec.Replicas = nil
			case 4:
				rs.Spec.Replicas = Int32Ptr(num())
			case 5:
				rs.Spec.MinReadySeconds = num()
			case 6, 7:
				mutateSelector(&rs.Spec.Selector)
			case 8:
				st := &rs.Status
				fields := []*int32{&st.Replicas, &st.FullyLabeledReplicas, &st.ReadyReplicas, &st.AvailableReplicas}
				*fields[c.intn(len(fields))] = num()
			case 9:
				rs.Status.TerminatingReplicas = Int32Ptr(num())
			case 10:
				rs.Status.ObservedGeneration = int64(num())
			}
		default: // a Pod
			if len(pods) == 0 || c.intn(3) == 0 {
				pods = append(pods, &Pod{ObjectMeta: ObjectMeta{Name: str(), Namespace: "default", UID: str()}})
			}
			i := c.intn(len(pods))
			if c.intn(30) == 0 {
				pods[i] = nil
			}
			p := pods[i]
			if p == nil {
				continue
			}
			switch c.intn(5) {
			case 0, 1, 2:
				mutateMeta(&p.ObjectMeta)
			case 3:
				p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, ContainerStatus{Name: "c", RestartCount: num()})
			case 4:
				if n := len(p.Status.ContainerStatuses); n > 0 {
					p.Status.ContainerStatuses[c.intn(n)].RestartCount = num()
				}
			}
		}
	}
	return d, rss, pods
}
