package plan_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// The caller's word that the ReplicaSets and pods are valid changes no
// plan of the 200 recorded states (each of which is valid), and leaves out
// exactly the rules of those objects: a pod the API server would refuse
// is planned over with the option and refused without it.
func TestReplicaSetsAndPodsValidated(t *testing.T) {
	for i, s := range readConformanceStates(t) {
		want, wantErr := plan.Sync(s)
		got, gotErr := plan.Sync(s, plan.ReplicaSetsAndPodsValidated(), plan.PodSpecsValidated())
		require.Equal(t, wantErr, gotErr, "state %d", i)
		a, _ := json.Marshal(want)
		b, _ := json.Marshal(got)
		require.JSONEq(t, string(a), string(b), "state %d", i)
	}

	var s plan.State
	for _, c := range readConformanceStates(t) {
		if len(c.Pods) > 0 {
			s = c
			break
		}
	}
	require.NotEmpty(t, s.Pods, "no recorded state has pods")
	bad := s.Pods[0].DeepCopy()
	bad.Name = "BAD NAME"
	s.Pods = append([]*model.Pod{bad}, s.Pods[1:]...)
	_, err := plan.Sync(s)
	var verr *model.ValidationError
	require.ErrorAs(t, err, &verr)
	require.Equal(t, "pods[0].metadata.name", verr.Errors[0].Field)
	_, err = plan.Sync(s, plan.ReplicaSetsAndPodsValidated())
	require.NoError(t, syncFailure(err))

	// nil objects and duplicate names are still refused.
	s.Pods = append(s.Pods, nil)
	_, err = plan.Sync(s, plan.ReplicaSetsAndPodsValidated())
	require.ErrorAs(t, err, &verr)
	require.Equal(t, fmt.Sprintf("pods[%d]", len(s.Pods)-1), verr.Errors[0].Field)
}
