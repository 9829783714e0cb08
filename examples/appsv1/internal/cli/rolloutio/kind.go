package rolloutio

import (
	"fmt"
	"strings"
)

// Kind is a workload kind the subcommands work on.
type Kind string

// The workload kinds.
const (
	Deployment  Kind = "Deployment"
	StatefulSet Kind = "StatefulSet"
	DaemonSet   Kind = "DaemonSet"
)

// Kinds are every workload kind, in the order messages list them.
var Kinds = []Kind{Deployment, StatefulSet, DaemonSet}

// kindSpellings are the resource spellings kubectl accepts for each kind:
// singular, plural and short name, each alone, with the group and with
// the version and group.
var kindSpellings = func() map[string]Kind {
	out := map[string]Kind{}
	for kind, names := range map[Kind][]string{
		Deployment:  {"deployment", "deployments", "deploy"},
		StatefulSet: {"statefulset", "statefulsets", "sts"},
		DaemonSet:   {"daemonset", "daemonsets", "ds"},
	} {
		for _, n := range names {
			out[n], out[n+".apps"], out[n+".v1.apps"] = kind, kind, kind
		}
	}
	return out
}()

// ParseKind reads a resource spelling kubectl accepts ("sts",
// "daemonsets.apps", "deployment.v1.apps"; any case).
func ParseKind(s string) (Kind, bool) {
	k, ok := kindSpellings[strings.ToLower(s)]
	return k, ok
}

// Lower is the kind as kubectl writes it in a resource argument:
// "statefulset".
func (k Kind) Lower() string { return strings.ToLower(string(k)) }

// Resource is the kind's API resource: "statefulsets".
func (k Kind) Resource() string { return k.Lower() + "s" }

// Plural is the kind's plural in prose: "StatefulSets".
func (k Kind) Plural() string { return string(k) + "s" }

// ObjectName is how kubectl names an object of the kind in its output:
// "statefulset.apps/NAME".
func (k Kind) ObjectName(name string) string { return k.Lower() + ".apps/" + name }

// Refused is kubectl's refusal of an operation on the object name of the
// kind: `statefulsets.apps "NAME" pausing is not supported`, printed after
// "error: ".
func (k Kind) Refused(name string, err error) error {
	return fmt.Errorf("%s.apps %q %v", k.Resource(), name, err)
}

// kindList writes kinds for messages: "deployments", "deployments and
// statefulsets", "deployments, statefulsets and daemonsets".
func kindList(kinds []Kind) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Resource()
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
