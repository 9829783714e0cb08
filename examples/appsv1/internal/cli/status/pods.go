package status

import (
	"fmt"
	"io"
	"time"

	core "k8s.io/api/core/v1"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/evidence"
)

// maxPods bounds the pods an explanation lists; the rest are counted.
const maxPods = 10

// PodWait is a pod of the workload that is not ready, as --explain names
// it next to the controller's arithmetic: what it belongs to, how long it
// has not been ready, and why (package plan/evidence).
type PodWait struct {
	Pod string `json:"pod"`
	// Of is what the pod belongs to: "ReplicaSet web-7d9f5c6b8d (new)",
	// "revision web-5d4f8 (update)", "node n1".
	Of          string   `json:"of,omitempty"`
	NotReadyFor string   `json:"notReadyFor"`
	Causes      []string `json:"causes,omitempty"`
	// Stalled is why the pod is taken as stalled (a cause the kubelet
	// retries without end, or a wait past what the workload's pods showed),
	// as a prediction would take it.
	Stalled string `json:"stalled,omitempty"`
}

// podWaits assesses pods at now and returns, longest waiting first, the
// waits of at most maxPods pods (and how many more there are), each
// described by of.
func podWaits(pods []*model.Pod, now time.Time, of func(*model.Pod) string) ([]PodWait, int) {
	a := evidence.Assess(pods, now, evidence.Options{})
	byName := make(map[string]*model.Pod, len(pods))
	for _, p := range pods {
		byName[p.Name] = p
	}
	var out []PodWait
	for _, w := range a.Waits {
		if len(out) == maxPods {
			return out, len(a.Waits) - maxPods
		}
		pw := PodWait{Pod: w.Pod, Of: of(byName[w.Pod]), NotReadyFor: w.For.String(), Stalled: w.Stalled}
		for _, c := range w.Causes {
			pw.Causes = append(pw.Causes, c.String())
		}
		out = append(out, pw)
	}
	return out, 0
}

// podsToModel converts the pods of a state for the assessment.
func podsToModel(pods []*core.Pod) ([]*model.Pod, error) {
	out := make([]*model.Pod, 0, len(pods))
	for i, p := range pods {
		m, err := appsv1.PodToModel(p)
		if err != nil {
			return nil, fmt.Errorf("explain: pods[%d]: %w", i, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// writePods prints the pods not ready: one line for the pod, one for each
// cause and one for a stall that no cause says.
func (e Explanation) writePods(w io.Writer) {
	if len(e.Pods) == 0 {
		return
	}
	fmt.Fprintln(w, "Pods not ready:")
	for _, p := range e.Pods {
		fmt.Fprintf(w, "  - %s", p.Pod)
		if p.Of != "" {
			fmt.Fprintf(w, " (%s)", p.Of)
		}
		fmt.Fprintf(w, ", not ready for %s\n", p.NotReadyFor)
		said := false
		for _, c := range p.Causes {
			fmt.Fprintf(w, "    %s\n", c)
			said = said || c == p.Stalled
		}
		if len(p.Causes) == 0 {
			fmt.Fprintln(w, "    its status gives no reason")
		}
		if p.Stalled != "" && !said {
			fmt.Fprintf(w, "    stalled: %s\n", p.Stalled)
		}
	}
	if e.MorePods > 0 {
		fmt.Fprintf(w, "  … and %d more\n", e.MorePods)
	}
}

// replicaSetOf names the ReplicaSet of a Deployment's pod, and whether it
// is the new one (of the Deployment's template) or an old one.
func replicaSetOf(d *model.Deployment, replicaSets []*model.ReplicaSet) func(*model.Pod) string {
	return func(p *model.Pod) string {
		ref := p.ControllerRef()
		if ref == nil {
			return ""
		}
		for _, rs := range replicaSets {
			if rs.UID != ref.UID {
				continue
			}
			if model.EqualIgnoreHash(rs.Spec.Template, d.Spec.Template) {
				return fmt.Sprintf("ReplicaSet %s, new", rs.Name)
			}
			return fmt.Sprintf("ReplicaSet %s, old", rs.Name)
		}
		return "ReplicaSet " + ref.Name
	}
}

// revisionOf names the revision of a StatefulSet's pod, and whether it is
// the set's update or current revision.
func revisionOf(current, update string) func(*model.Pod) string {
	return func(p *model.Pod) string {
		r := p.Labels[model.StatefulSetRevisionLabel]
		switch {
		case r == "":
			return ""
		case r == update:
			return fmt.Sprintf("revision %s, update", r)
		case r == current:
			return fmt.Sprintf("revision %s, current", r)
		}
		return "revision " + r
	}
}

// nodeOf names the node of a DaemonSet's pod.
func nodeOf(p *model.Pod) string {
	if p.Spec.NodeName == "" {
		return ""
	}
	return "node " + p.Spec.NodeName
}
