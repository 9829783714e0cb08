package rollout

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// NoHistory is what kubectl rollout history prints, without an error, when
// no ReplicaSet of the Deployment has a readable revision.
const NoHistory = "No rollout history found."

// ErrUnknownRevision is kubectl rollout history --revision=N's error for a
// revision no ReplicaSet has, with kubectl's text.
var ErrUnknownRevision = errors.New("unable to find the specified revision")

// History returns what kubectl rollout history prints for d: a table of
// every revision with its change cause ("<none>" when empty), laid out as
// kubectl's tabwriter lays it out (columns two spaces apart), or
// [NoHistory]. The rows are [revision.History]'s: rss may be every
// ReplicaSet of the namespace, only those d controls and selects count, and
// of two ReplicaSets with the same revision the later in kubectl's order
// wins. The only error is an invalid selector; a nil d is an error too.
//
//	REVISION  CHANGE-CAUSE
//	1         <none>
//	2         kubectl set image deployment/web web=web:2
func History(d *model.Deployment, rss []*model.ReplicaSet) (string, error) {
	entries, err := historyEntries(d, rss)
	if err != nil {
		return "", err
	}
	if len(entries) == 0 {
		return NoHistory, nil
	}
	var b strings.Builder
	// kubectl's layout: text/tabwriter with minwidth 0, tabwidth 8,
	// padding 2, blank padding, no flags.
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "REVISION\tCHANGE-CAUSE\n")
	for _, e := range entries {
		cause := e.ChangeCause
		if cause == "" {
			cause = "<none>"
		}
		fmt.Fprintf(tw, "%d\t%s\n", e.Revision, cause)
	}
	if err := tw.Flush(); err != nil {
		return "", err
	}
	return b.String(), nil
}

// HistoryWarnings returns the warnings kubectl rollout history logs before
// its output: one per ReplicaSet it considers whose revision annotation is
// not a number, in the order it walks them, with kubectl's text:
//
//	unable to get revision from replicaset web-5d7 for deployment web in namespace default: strconv.ParseInt: parsing "x": invalid syntax
//
// Those ReplicaSets are left out of the history. The only error is an
// invalid selector.
func HistoryWarnings(d *model.Deployment, rss []*model.ReplicaSet) ([]string, error) {
	all, err := revision.KubectlReplicaSets(d, rss)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, rs := range all {
		if _, err := annotationRevision(rs.Annotations); err != nil {
			out = append(out, fmt.Sprintf("unable to get revision from replicaset %s for deployment %s in namespace %s: %v",
				rs.Name, d.Name, d.Namespace, err))
		}
	}
	return out, nil
}

// HistoryRevision returns what kubectl rollout history --revision=n prints:
// the pod template of the ReplicaSet holding revision n, with its change
// cause set as the template's kubernetes.io/change-cause annotation, in
// kubectl's describe layout ([DescribeTemplate]). With no history at all it
// returns [NoHistory] and no error (kubectl checks that first); a revision
// no ReplicaSet has is [ErrUnknownRevision]. n <= 0 gives the [History]
// table, as in kubectl.
func HistoryRevision(d *model.Deployment, rss []*model.ReplicaSet, n int64) (string, error) {
	if n <= 0 {
		return History(d, rss)
	}
	entries, err := historyEntries(d, rss)
	if err != nil {
		return "", err
	}
	if len(entries) == 0 {
		return NoHistory, nil
	}
	for _, e := range entries {
		if e.Revision != n {
			continue
		}
		t := e.ReplicaSet.Spec.Template.DeepCopy()
		if e.ChangeCause != "" {
			if t.Annotations == nil {
				t.Annotations = map[string]string{}
			}
			t.Annotations[model.ChangeCauseAnnotation] = e.ChangeCause
		}
		out, err := DescribeTemplate(t)
		if err != nil {
			return "", fmt.Errorf("revision %d: %w", n, err)
		}
		return out, nil
	}
	return "", ErrUnknownRevision
}

// historyEntries is [revision.History] for a Deployment that must not be nil,
// the start both [History] and [HistoryRevision] share.
func historyEntries(d *model.Deployment, rss []*model.ReplicaSet) ([]revision.Entry, error) {
	if d == nil {
		return nil, &model.FieldError{Field: "deployment", Detail: "must not be nil"}
	}
	return revision.History(d, rss)
}
