package rollout

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// DaemonSetStatus returns what kubectl rollout status reports for ds: the
// message it prints (ending in a newline), whether the rollout is done, or
// the error that ends the command. kubectl ignores --revision for
// DaemonSets, so there is no revision argument. The checks run in
// kubectl's order, on the status the controller wrote:
//
//  1. spec.updateStrategy.type not RollingUpdate (OnDelete, or a type left
//     empty): [ErrStatusNotRollingUpdate], with done true;
//  2. metadata.generation above status.observedGeneration: "Waiting for
//     daemon set spec update to be observed..." (unlike a StatefulSet's, an
//     observedGeneration of 0 at generation 0 counts as observed);
//  3. status.updatedNumberScheduled below desiredNumberScheduled: `Waiting
//     for daemon set "NAME" rollout to finish: %d out of %d new pods have
//     been updated...`;
//  4. status.numberAvailable below desiredNumberScheduled: `Waiting for
//     daemon set "NAME" rollout to finish: %d of %d updated pods are
//     available...`;
//  5. otherwise `daemon set "NAME" successfully rolled out`, done.
//
// A nil ds is an error.
func DaemonSetStatus(ds *model.DaemonSet) (message string, done bool, err error) {
	if ds == nil {
		return "", false, daemonSetNil()
	}
	if ds.Spec.UpdateStrategy.Type != model.DaemonSetRollingUpdate {
		return "", true, ErrStatusNotRollingUpdate
	}
	st := &ds.Status
	if ds.Generation > st.ObservedGeneration {
		return "Waiting for daemon set spec update to be observed...\n", false, nil
	}
	if st.UpdatedNumberScheduled < st.DesiredNumberScheduled {
		return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d out of %d new pods have been updated...\n",
			ds.Name, st.UpdatedNumberScheduled, st.DesiredNumberScheduled), false, nil
	}
	if st.NumberAvailable < st.DesiredNumberScheduled {
		return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d of %d updated pods are available...\n",
			ds.Name, st.NumberAvailable, st.DesiredNumberScheduled), false, nil
	}
	return fmt.Sprintf("daemon set %q successfully rolled out\n", ds.Name), true, nil
}

// DaemonSetHistory returns what kubectl rollout history prints for ds: a
// table of the revisions of its history with each revision's change cause
// (the ControllerRevision's kubernetes.io/change-cause annotation, "<none>"
// when empty), laid out as for Deployments ([History]), or [NoHistory].
// The revisions' data is not read.
//
// revisions may be every ControllerRevision of the cluster: as kubectl,
// only those of ds's namespace that ds's selector matches (every one for a
// nil selector, which kubectl lists with the empty selector string) and
// whose controller reference has ds's UID are the history. They are taken
// in the order the API server lists them, by name, and of two revisions
// with the same number the later one is shown. The only error is an
// invalid selector: kubectl's prefix `failed to create selector for
// DaemonSet NAME: `, then the model's reason in its own words (the API
// server refuses such selectors, so kubectl's wording never shows); a nil
// ds is an error too.
//
//	REVISION  CHANGE-CAUSE
//	1         <none>
//	2         kubectl apply --filename=fluentd.yaml
func DaemonSetHistory(ds *model.DaemonSet, revisions []*model.ControllerRevision) (string, error) {
	history, err := daemonSetHistory(ds, revisions)
	if err != nil {
		return "", err
	}
	return revisionTable(latestByNumber(history))
}

// DaemonSetHistoryRevision returns what kubectl rollout history
// --revision=n prints for ds: the pod template revision n restores onto ds
// ([DaemonSetRevisionTemplate]), in [DescribeTemplate]'s layout, without
// the change cause. Of two revisions with number n the later in name order
// is shown, as in [DaemonSetHistory]. With no history at all it returns
// [NoHistory] and no error; a number no revision has is
// [ErrUnknownRevision]; a revision whose data kubectl cannot apply is
// kubectl's "unable to parse history NAME". n <= 0 gives the
// [DaemonSetHistory] table, as in kubectl.
func DaemonSetHistoryRevision(ds *model.DaemonSet, revisions []*model.ControllerRevision, n int64) (string, error) {
	if n <= 0 {
		return DaemonSetHistory(ds, revisions)
	}
	history, err := daemonSetHistory(ds, revisions)
	if err != nil {
		return "", err
	}
	byNumber := latestByNumber(history)
	if len(byNumber) == 0 {
		return NoHistory, nil
	}
	r, ok := byNumber[n]
	if !ok {
		return "", ErrUnknownRevision
	}
	t, err := DaemonSetRevisionTemplate(ds, r)
	if err != nil {
		if _, fails := errors.AsType[*RevisionDataError](err); fails {
			return "", fmt.Errorf("unable to parse history %s", r.Name)
		}
		return "", fmt.Errorf("revision %d: %w", n, err)
	}
	out, err := DescribeTemplate(t)
	if err != nil {
		return "", fmt.Errorf("revision %d: %w", n, err)
	}
	return out, nil
}

// DaemonSetRestart returns the patch kubectl rollout restart sends to ds:
// the pod template annotation kubectl.kubernetes.io/restartedAt set to now
// in RFC 3339, as a strategic merge patch, exactly as for a Deployment
// ([Restart]) except that nothing is refused (DaemonSets have no
// spec.paused). When the annotation already holds that value the patch is
// "{}" (kubectl then reports that a restart was triggered within the past
// second). A nil ds is an error.
func DaemonSetRestart(ds *model.DaemonSet, now time.Time) ([]byte, error) {
	if ds == nil {
		return nil, daemonSetNil()
	}
	at := now.Format(time.RFC3339)
	if v, ok := ds.Spec.Template.Annotations[model.RestartedAtAnnotation]; ok && v == at {
		return []byte("{}"), nil
	}
	return json.Marshal(map[string]any{"spec": map[string]any{"template": map[string]any{
		"metadata": map[string]any{"annotations": map[string]string{model.RestartedAtAnnotation: at}}}}})
}

// DaemonSetPause is kubectl rollout pause on a DaemonSet: always
// [ErrPauseNotSupported] and no patch (kubectl prints `error:
// daemonsets.apps "NAME" pausing is not supported`). A nil ds is an error.
func DaemonSetPause(ds *model.DaemonSet) ([]byte, error) {
	if ds == nil {
		return nil, daemonSetNil()
	}
	return nil, ErrPauseNotSupported
}

// DaemonSetResume is kubectl rollout resume on a DaemonSet: always
// [ErrResumeNotSupported] and no patch (kubectl prints `error:
// daemonsets.apps "NAME" resuming is not supported`). A nil ds is an
// error.
func DaemonSetResume(ds *model.DaemonSet) ([]byte, error) {
	if ds == nil {
		return nil, daemonSetNil()
	}
	return nil, ErrResumeNotSupported
}

func daemonSetNil() error {
	return &model.FieldError{Field: "daemonset", Detail: "must not be nil"}
}

// daemonSetHistory is kubectl's list of ds's ControllerRevisions: those of
// ds's namespace its selector matches and ds controls, in name order (the
// API server's list order).
func daemonSetHistory(ds *model.DaemonSet, revisions []*model.ControllerRevision) ([]*model.ControllerRevision, error) {
	if ds == nil {
		return nil, daemonSetNil()
	}
	out, err := controlledRevisions(ds.Namespace, ds.UID, ds.Spec.Selector, revisions)
	if err != nil {
		return nil, fmt.Errorf("failed to create selector for DaemonSet %s: %w", ds.Name, err)
	}
	return out, nil
}

// controlledRevisions returns the revisions of namespace that selector
// matches (all of them for a nil selector, as kubectl lists with its empty
// string form) and whose controller reference has uid, sorted by name as
// the API server lists them. The only error is the selector's.
func controlledRevisions(namespace, uid string, selector *model.LabelSelector, revisions []*model.ControllerRevision) ([]*model.ControllerRevision, error) {
	matches := func(map[string]string) bool { return true }
	if selector != nil {
		m, err := model.NewMatcher(selector)
		if err != nil {
			return nil, err
		}
		matches = m.Matches
	}
	var out []*model.ControllerRevision
	for _, r := range revisions {
		if r != nil && r.Namespace == namespace && matches(r.Labels) && r.IsControlledBy(uid) {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b *model.ControllerRevision) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// revisionTable lays out kubectl's history table of ControllerRevisions
// indexed by number, or returns [NoHistory] for none.
func revisionTable(byNumber map[int64]*model.ControllerRevision) (string, error) {
	if len(byNumber) == 0 {
		return NoHistory, nil
	}
	numbers := make([]int64, 0, len(byNumber))
	for n := range byNumber {
		numbers = append(numbers, n)
	}
	slices.Sort(numbers)
	var b strings.Builder
	// kubectl's layout, as in History.
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "REVISION\tCHANGE-CAUSE\n")
	for _, n := range numbers {
		cause := byNumber[n].Annotations[model.ChangeCauseAnnotation]
		if cause == "" {
			cause = "<none>"
		}
		fmt.Fprintf(tw, "%d\t%s\n", n, cause)
	}
	if err := tw.Flush(); err != nil {
		return "", err
	}
	return b.String(), nil
}
