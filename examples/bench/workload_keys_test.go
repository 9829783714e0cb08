package bench

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"k8s.io/apimachinery/pkg/api/meta"
	k8stesting "k8s.io/client-go/testing"
)

// workloadWriteKey is what the StatefulSet and DaemonSet sanity checks
// compare of one write: verb, resource and name (a created DaemonSet pod,
// sent with generateName, by its generateName and the node its affinity
// pins it to), the revision label of a pod, the number of a
// ControllerRevision, the owner kinds of an updated pod or claim, the whole
// status of a status update, and whether the API rejected it.
func workloadWriteKey(verb, resource, sub, name string, obj any, rejected bool) string {
	var b strings.Builder
	defer func() {
		if rejected {
			b.WriteString(" rejected")
		}
	}()
	var o struct {
		Metadata struct {
			Name            string            `json:"name"`
			GenerateName    string            `json:"generateName"`
			Labels          map[string]string `json:"labels"`
			OwnerReferences []struct {
				Kind string `json:"kind"`
			} `json:"ownerReferences"`
		} `json:"metadata"`
		Revision int64 `json:"revision"`
		Spec     struct {
			Affinity *struct {
				NodeAffinity *struct {
					Required *struct {
						Terms []struct {
							MatchFields []struct {
								Values []string `json:"values"`
							} `json:"matchFields"`
						} `json:"nodeSelectorTerms"`
					} `json:"requiredDuringSchedulingIgnoredDuringExecution"`
				} `json:"nodeAffinity"`
			} `json:"affinity"`
		} `json:"spec"`
		Status map[string]any `json:"status"`
	}
	if obj != nil && verb != "patch" && verb != "delete" {
		data, err := json.Marshal(obj)
		if err == nil {
			err = json.Unmarshal(data, &o)
		}
		if err != nil {
			fmt.Fprintf(&b, "%s %s/%s %s undecodable: %v", verb, resource, sub, name, err)
			return b.String()
		}
	}
	if verb == "create" && o.Metadata.GenerateName != "" && o.Metadata.Name == "" {
		name = o.Metadata.GenerateName + "*"
	}
	fmt.Fprintf(&b, "%s %s/%s %s", verb, resource, sub, name)
	if h, ok := o.Metadata.Labels["controller-revision-hash"]; ok && resource == "pods" {
		fmt.Fprintf(&b, " rev=%s", h)
	}
	if a := o.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.Required != nil {
		for _, t := range a.NodeAffinity.Required.Terms {
			for _, f := range t.MatchFields {
				fmt.Fprintf(&b, " node=%s", strings.Join(f.Values, ","))
			}
		}
	}
	if resource == "controllerrevisions" && verb != "patch" && verb != "delete" {
		fmt.Fprintf(&b, " revision=%d", o.Revision)
	}
	if verb == "update" && (resource == "pods" || resource == "persistentvolumeclaims") {
		var kinds []string
		for _, r := range o.Metadata.OwnerReferences {
			kinds = append(kinds, r.Kind)
		}
		fmt.Fprintf(&b, " owners=%s", strings.Join(kinds, ","))
	}
	if sub == "status" {
		st, _ := json.Marshal(o.Status) // a map: keys sorted
		fmt.Fprintf(&b, " status=%s", st)
	}
	return b.String()
}

// upstreamWorkloadKeys keys the writes a controller sent.
func upstreamWorkloadKeys(ws []upstreamWrite, withRejected bool) []string {
	var out []string
	for _, w := range ws {
		var obj any
		name := ""
		switch w.GetVerb() {
		case "create":
			obj = w.Action.(k8stesting.CreateAction).GetObject()
		case "update":
			obj = w.Action.(k8stesting.UpdateAction).GetObject()
		case "patch":
			name = w.Action.(k8stesting.PatchAction).GetName()
		case "delete":
			name = w.Action.(k8stesting.DeleteAction).GetName()
		}
		if obj != nil {
			if m, err := meta.Accessor(obj); err == nil {
				name = m.GetName()
			}
		}
		out = append(out, workloadWriteKey(w.GetVerb(), w.GetResource().Resource, w.GetSubresource(), name, obj, withRejected && w.Rejected))
	}
	return out
}

// statefulSetKeys keys the writes of the adapter's StatefulSet Output.
func statefulSetKeys(out appsv1.StatefulSetOutput) []string {
	var ws []string
	for _, a := range out.Actions {
		ws = append(ws, workloadWriteKey(a.Verb, a.Resource, a.Subresource, a.Name, a.Object, a.Error != ""))
	}
	return ws
}

// daemonSetKeys keys the writes of the adapter's DaemonSet Output (its
// created pods are named by the planner, but sent with generateName only).
func daemonSetKeys(out appsv1.Output) []string {
	var ws []string
	for _, a := range out.Actions {
		ws = append(ws, workloadWriteKey(a.Verb, a.Resource, a.Subresource, a.Name, a.Object, false))
	}
	return ws
}

// withoutPools takes from keys, for each pool, the writes it holds (each
// pool key at most once) and returns the rest, sorted, and a message for
// each pool that does not give exactly its K writes.
func withoutPools(keys []string, pools []writePool) (rest []string, bad []string) {
	rest = slices.Clone(keys)
	for i, p := range pools {
		left := slices.Clone(p.Keys)
		taken := 0
		rest = slices.DeleteFunc(rest, func(k string) bool {
			if j := slices.Index(left, k); j >= 0 {
				left = slices.Delete(left, j, j+1)
				taken++
				return true
			}
			return false
		})
		if taken != p.K {
			bad = append(bad, fmt.Sprintf("pool %d: %d writes from it, want %d", i, taken, p.K))
		}
	}
	slices.Sort(rest)
	return rest, bad
}

// kindCounts counts writes by "verb resource/subresource": what is fixed
// when upstream's picks vary between runs.
func kindCounts(keys []string) map[string]int {
	out := map[string]int{}
	for _, k := range keys {
		f := strings.Fields(k)
		out[f[0]+" "+f[1]]++
	}
	return out
}

func sortedCounts(m map[string]int) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%s ×%d", k, m[k]))
	}
	return out
}
