package rollout

import (
	"errors"
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
)

// ErrStatusNotRollingUpdate is kubectl rollout status's error, with its
// text, for a StatefulSet or DaemonSet whose update strategy is not
// RollingUpdate (OnDelete, or a type left empty): kubectl reports it as
// done and exits with the error.
var ErrStatusNotRollingUpdate = errors.New("rollout status is only available for RollingUpdate strategy type")

// StatefulSetStatus returns what kubectl rollout status reports for s: the
// message it prints (ending in a newline), whether the rollout is done, or
// the error that ends the command. kubectl has no revision check for
// StatefulSets: rollout status --revision=N reads the same. The checks run
// in kubectl's order, on the status the controller wrote:
//
//  1. spec.updateStrategy.type not RollingUpdate: [ErrStatusNotRollingUpdate],
//     with done true;
//  2. status.observedGeneration 0 or below metadata.generation: "Waiting
//     for statefulset spec update to be observed...";
//  3. spec.replicas set and status.readyReplicas below it: "Waiting for %d
//     pods to be ready..." (the difference);
//  4. spec.updateStrategy.rollingUpdate set: with spec.replicas and a
//     partition set and status.updatedReplicas below replicas - partition,
//     "Waiting for partitioned roll out to finish: %d out of %d new pods
//     have been updated..."; otherwise "partitioned roll out complete: %d
//     new pods have been updated...", done (a partition of 0, as apps/v1
//     defaults it, counts as partitioned too);
//  5. without rollingUpdate, status.updateRevision differing from
//     currentRevision: "waiting for statefulset rolling update to complete
//     %d pods at revision %s..." (updatedReplicas, updateRevision);
//  6. otherwise "statefulset rolling update complete %d pods at revision
//     %s..." (currentReplicas, currentRevision), done.
//
// The arithmetic is kubectl's, in int32. A nil s is an error.
func StatefulSetStatus(s *model.StatefulSet) (message string, done bool, err error) {
	if s == nil {
		return "", false, &model.FieldError{Field: "statefulset", Detail: "must not be nil"}
	}
	strategy := &s.Spec.UpdateStrategy
	if strategy.Type != model.RollingUpdateStatefulSetStrategyType {
		return "", true, ErrStatusNotRollingUpdate
	}
	st := &s.Status
	if st.ObservedGeneration == 0 || s.Generation > st.ObservedGeneration {
		return "Waiting for statefulset spec update to be observed...\n", false, nil
	}
	replicas := s.Spec.Replicas
	if replicas != nil && st.ReadyReplicas < *replicas {
		return fmt.Sprintf("Waiting for %d pods to be ready...\n", *replicas-st.ReadyReplicas), false, nil
	}
	if ru := strategy.RollingUpdate; ru != nil {
		if replicas != nil && ru.Partition != nil {
			if want := *replicas - *ru.Partition; st.UpdatedReplicas < want {
				return fmt.Sprintf("Waiting for partitioned roll out to finish: %d out of %d new pods have been updated...\n",
					st.UpdatedReplicas, want), false, nil
			}
		}
		return fmt.Sprintf("partitioned roll out complete: %d new pods have been updated...\n", st.UpdatedReplicas), true, nil
	}
	if st.UpdateRevision != st.CurrentRevision {
		return fmt.Sprintf("waiting for statefulset rolling update to complete %d pods at revision %s...\n",
			st.UpdatedReplicas, st.UpdateRevision), false, nil
	}
	return fmt.Sprintf("statefulset rolling update complete %d pods at revision %s...\n", st.CurrentReplicas, st.CurrentRevision), true, nil
}

// StatefulSetHistory returns what kubectl rollout history prints for s: a
// table of the revisions of its history with each revision's change cause
// (its kubernetes.io/change-cause annotation, "<none>" when empty), laid out
// as for Deployments ([History]), or [NoHistory].
//
// revisions may be every ControllerRevision of the cluster: as kubectl,
// only those of s's namespace that s's selector matches (every one for a
// nil selector, as kubectl lists with the selector's empty string form)
// and whose controller reference has s's UID are the history. They are
// taken in the order the API server lists them, by name, and of two
// revisions with the same number the later one is shown. The only error is
// an invalid selector (kubectl's prefix, then the model's reason); a nil s
// is an error too.
//
//	REVISION  CHANGE-CAUSE
//	1         <none>
//	2         kubectl apply --filename=web.yaml
func StatefulSetHistory(s *model.StatefulSet, revisions []*model.ControllerRevision) (string, error) {
	history, err := statefulSetHistory(s, revisions)
	if err != nil {
		return "", err
	}
	return revisionTable(latestByNumber(history))
}

// StatefulSetHistoryRevision returns what kubectl rollout history
// --revision=n prints for s: the pod template revision n restores, in
// [DescribeTemplate]'s layout. Unlike a Deployment's, the template is
// shown as the revision records it, without the change cause. The
// template is the revision's Template field (the template its data
// restores onto s, which the apps/v1 adapter fills in; data kubectl could
// not apply, its "unable to parse history NAME", does not get that far,
// as the adapter refuses it). Of two revisions
// with number n the later in name order is shown, as in [StatefulSetHistory].
// With no history at all it returns [NoHistory] and no error; a number no
// revision has is [ErrUnknownRevision]. n <= 0 gives the
// [StatefulSetHistory] table, as in kubectl.
func StatefulSetHistoryRevision(s *model.StatefulSet, revisions []*model.ControllerRevision, n int64) (string, error) {
	if n <= 0 {
		return StatefulSetHistory(s, revisions)
	}
	history, err := statefulSetHistory(s, revisions)
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
	out, err := DescribeTemplate(r.Template)
	if err != nil {
		return "", fmt.Errorf("revision %d: %w", n, err)
	}
	return out, nil
}

// statefulSetHistory is kubectl's list of s's ControllerRevisions: those of
// s's namespace its selector matches and s controls, in name order (the API
// server's list order). s must not be nil.
func statefulSetHistory(s *model.StatefulSet, revisions []*model.ControllerRevision) ([]*model.ControllerRevision, error) {
	if s == nil {
		return nil, &model.FieldError{Field: "statefulset", Detail: "must not be nil"}
	}
	out, err := controlledRevisions(s.Namespace, s.UID, s.Spec.Selector, revisions)
	if err != nil {
		return nil, fmt.Errorf("failed to create selector for StatefulSet %s: %w", s.Name, err)
	}
	return out, nil
}

// latestByNumber indexes a history by revision number; of several
// revisions with one number the last in the list wins, as in kubectl.
func latestByNumber(history []*model.ControllerRevision) map[int64]*model.ControllerRevision {
	out := make(map[int64]*model.ControllerRevision, len(history))
	for _, r := range history {
		out[r.Revision] = r
	}
	return out
}
