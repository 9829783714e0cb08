package rollout

import (
	"errors"
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// Status returns what kubectl rollout status reports for d: the message it
// prints (ending in a newline), whether the rollout is done, or the error
// that ends the command. revision > 0 asks for that revision: a Deployment
// at another revision is an error. The checks run in kubectl's order:
//
//  1. revision > 0 and d's revision annotation unparsable or different:
//     "desired revision (2) is different from the running revision (1)";
//  2. d.Generation > status.observedGeneration: "Waiting for deployment spec
//     update to be observed...";
//  3. a Progressing condition with reason ProgressDeadlineExceeded:
//     `deployment "web" exceeded its progress deadline`;
//  4. spec.replicas set and status.updatedReplicas below it: "... %d out of
//     %d new replicas have been updated...";
//  5. status.replicas above updatedReplicas: "... %d old replicas are
//     pending termination...";
//  6. availableReplicas below updatedReplicas: "... %d of %d updated
//     replicas are available...";
//  7. otherwise `deployment "web" successfully rolled out`, done.
//
// These are kubectl's own tests, not the controller's notion of complete
// ([plan.DeploymentComplete]): kubectl reads the status the controller
// wrote, and a nil spec.replicas skips step 4. A nil d is an error.
func Status(d *model.Deployment, revision int64) (message string, done bool, err error) {
	if d == nil {
		return "", false, &model.FieldError{Field: "deployment", Detail: "must not be nil"}
	}
	if revision > 0 {
		running, err := annotationRevision(d.Annotations)
		if err != nil {
			return "", false, fmt.Errorf("cannot get the revision of deployment %q: %v", d.Name, err)
		}
		if revision != running {
			return "", false, &RevisionMismatchError{Desired: revision, Running: running}
		}
	}
	if d.Generation > d.Status.ObservedGeneration {
		return "Waiting for deployment spec update to be observed...\n", false, nil
	}
	if c := d.Status.Condition(model.DeploymentProgressing); c != nil && c.Reason == model.ReasonProgressDeadlineExceeded {
		return "", false, &DeadlineExceededError{Deployment: d.Name}
	}
	st := &d.Status
	if d.Spec.Replicas != nil && st.UpdatedReplicas < *d.Spec.Replicas {
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d out of %d new replicas have been updated...\n",
			d.Name, st.UpdatedReplicas, *d.Spec.Replicas), false, nil
	}
	if st.Replicas > st.UpdatedReplicas {
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d old replicas are pending termination...\n",
			d.Name, st.Replicas-st.UpdatedReplicas), false, nil
	}
	if st.AvailableReplicas < st.UpdatedReplicas {
		return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d of %d updated replicas are available...\n",
			d.Name, st.AvailableReplicas, st.UpdatedReplicas), false, nil
	}
	return fmt.Sprintf("deployment %q successfully rolled out\n", d.Name), true, nil
}

// deploymentRevision is kubectl's reading of the revision annotation: absent
// is 0, otherwise strconv.ParseInt's result and error (kubectl prints the
// strconv error as is).
func annotationRevision(annotations map[string]string) (int64, error) {
	n, err := revision.Revision(annotations)
	var re *revision.RevisionError
	if errors.As(err, &re) {
		return 0, re.Err
	}
	return n, err
}

// ErrRevisionMismatch is matched (errors.Is) by [*RevisionMismatchError].
var ErrRevisionMismatch = errors.New("desired revision is not the running revision")

// ErrDeadlineExceeded is matched (errors.Is) by [*DeadlineExceededError].
var ErrDeadlineExceeded = errors.New("progress deadline exceeded")

// RevisionMismatchError is rollout status --revision=N on a Deployment at
// another revision.
type RevisionMismatchError struct {
	Desired, Running int64
}

// Error returns kubectl's message.
func (e *RevisionMismatchError) Error() string {
	return fmt.Sprintf("desired revision (%d) is different from the running revision (%d)", e.Desired, e.Running)
}

// Is makes errors.Is match [ErrRevisionMismatch].
func (e *RevisionMismatchError) Is(target error) bool { return target == ErrRevisionMismatch }

// DeadlineExceededError is rollout status on a Deployment whose Progressing
// condition says ProgressDeadlineExceeded.
type DeadlineExceededError struct {
	Deployment string
}

// Error returns kubectl's message.
func (e *DeadlineExceededError) Error() string {
	return fmt.Sprintf("deployment %q exceeded its progress deadline", e.Deployment)
}

// Is makes errors.Is match [ErrDeadlineExceeded].
func (e *DeadlineExceededError) Is(target error) bool { return target == ErrDeadlineExceeded }
