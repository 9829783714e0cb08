package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/api/meta"
	k8stesting "k8s.io/client-go/testing"
)

// writeKey is what the sanity checks compare of one write: verb, resource,
// name and the numbers a sync decides (spec.replicas, the status counts,
// the revision annotation, condition types, statuses and reasons).
func writeKey(verb, resource, sub, name string, obj any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s/%s %s", verb, resource, sub, name)
	if obj == nil || verb == "patch" || verb == "delete" {
		return b.String()
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return b.String() + " unmarshallable: " + err.Error()
	}
	var o struct {
		Metadata struct {
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
		Spec struct {
			Replicas *int32 `json:"replicas"`
		} `json:"spec"`
		Status struct {
			Replicas, UpdatedReplicas, ReadyReplicas, AvailableReplicas, UnavailableReplicas int32
			CollisionCount                                                                   *int32
			Conditions                                                                       []struct{ Type, Status, Reason string }
		} `json:"status"`
	}
	if err := json.Unmarshal(data, &o); err != nil {
		return b.String() + " undecodable: " + err.Error()
	}
	if o.Spec.Replicas != nil {
		fmt.Fprintf(&b, " replicas=%d", *o.Spec.Replicas)
	}
	st := o.Status
	fmt.Fprintf(&b, " rev=%q status=%d/%d/%d/%d/%d", o.Metadata.Annotations["deployment.kubernetes.io/revision"],
		st.Replicas, st.UpdatedReplicas, st.ReadyReplicas, st.AvailableReplicas, st.UnavailableReplicas)
	if st.CollisionCount != nil {
		fmt.Fprintf(&b, " collisions=%d", *st.CollisionCount)
	}
	for _, c := range st.Conditions {
		fmt.Fprintf(&b, " %s=%s/%s", c.Type, c.Status, c.Reason)
	}
	return b.String()
}

// upstreamWrites lists the accepted writes of one upstream sync (the
// planner does not plan writes a real API server rejects).
func upstreamWrites(actions []k8stesting.Action) []string {
	var out []string
	for _, a := range actions {
		var obj any
		name := ""
		switch a := a.(type) {
		case k8stesting.CreateAction:
			obj = a.GetObject()
		case k8stesting.PatchAction:
			name = a.GetName()
		case k8stesting.DeleteAction:
			name = a.GetName()
		}
		if obj != nil {
			if m, err := meta.Accessor(obj); err == nil {
				name = m.GetName()
			}
		}
		out = append(out, writeKey(a.GetVerb(), a.GetResource().Resource, a.GetSubresource(), name, obj))
	}
	return out
}

func plannedWrites(out appsv1.Output) []string {
	var ws []string
	for _, a := range out.Actions {
		ws = append(ws, writeKey(a.Verb, a.Resource, a.Subresource, a.Name, a.Object))
	}
	return ws
}

// rejected counts the writes of the recording that the API rejected.
func rejected(e expectOutput) int {
	n := 0
	for _, a := range e.Actions {
		if a.Error != "" {
			n++
		}
	}
	return n
}

// TestSanitySync: on every public case the real controller (run by the
// benchmark harness) and appsv1.Sync write the same objects with the same
// decided numbers, in the same order (as multisets where the recording says
// the order is the API cache's), and both end with an error or neither;
// the harness also sends as many writes as the recording has.
func TestSanitySync(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadCases(t) {
		u, err := newUpstreamSync(ctx, c.Case)
		if err != nil {
			t.Fatal(err)
		}
		actions, uerr := u.run(ctx)
		if len(actions) != len(c.Expect.Actions) {
			t.Errorf("%s: harness sent %d writes, the recording has %d", c.ID, len(actions), len(c.Expect.Actions))
		}
		var ok []k8stesting.Action
		for _, a := range actions {
			if !(a.GetVerb() == "create" && rejected(c.Expect) > 0 && isTaken(c.Case, a)) {
				ok = append(ok, a)
			}
		}
		up := upstreamWrites(ok)
		out, _, err := appsv1.Sync(c.Case.State())
		var se *plan.SyncError
		if err != nil && !errors.As(err, &se) {
			t.Errorf("%s: appsv1.Sync: %v", c.ID, err)
			continue
		}
		rp := plannedWrites(out)
		if c.Unorder {
			slices.Sort(up)
			slices.Sort(rp)
		}
		if !slices.Equal(up, rp) {
			t.Errorf("%s: writes differ\n upstream:    %q\n rolloutplan: %q", c.ID, up, rp)
		}
		if (uerr != nil) != (err != nil) {
			t.Errorf("%s: upstream error %v, rolloutplan error %v", c.ID, uerr, err)
		}
		if err != nil {
			assert.Equal(t, err.Error(), out.Error, "%s: Output.Error is the *plan.SyncError's message", c.ID)
		} else {
			assert.Empty(t, out.Error, "%s: Output.Error without an error", c.ID)
		}
	}
}

func isTaken(c appsv1.Case, a k8stesting.Action) bool {
	ca, ok := a.(k8stesting.CreateAction)
	if !ok {
		return false
	}
	m, err := meta.Accessor(ca.GetObject())
	if err != nil {
		return false
	}
	for _, rs := range c.ReplicaSets {
		if rs.Name == m.GetName() {
			return true
		}
	}
	return false
}

// TestSanitySyncRepeat: the SyncModel row calls plan.Sync on the same
// States again and again, which times the work of one sync only if no call
// changes its State and every call gives the first call's answer.
func TestSanitySyncRepeat(t *testing.T) {
	opt := appsv1.WithUpstreamHash()
	ins, fresh := modelStates(t), modelStates(t)
	for i, in := range ins {
		want, wantErr := plan.Sync(in, opt)
		for round := range 2 {
			got, err := plan.Sync(in, opt)
			assert.Equal(t, wantErr, err, "case %d, round %d", i, round)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("case %d, round %d: plan.Sync on the same State again (-first +again):\n%s", i, round, diff)
			}
		}
		if diff := cmp.Diff(fresh[i], in); diff != "" {
			t.Fatalf("case %d: plan.Sync changed its State (-before +after):\n%s", i, diff)
		}
	}
}

// TestSanitySyncer: the one Syncer the SyncAdapter row times answers every
// case as appsv1.Sync does (whose writes TestSanitySync compares with
// upstream's), on a first sight and from its cache: the same Output, Plan
// and error.
func TestSanitySyncer(t *testing.T) {
	var syncer appsv1.Syncer
	cases := loadCases(t)
	for round := range 2 {
		for _, c := range cases {
			wantOut, wantPlan, wantErr := appsv1.Sync(c.Case.State())
			out, p, err := syncer.Sync(c.Case.State())
			assert.Equal(t, wantErr, err, "%s, round %d", c.ID, round)
			if diff := cmp.Diff(wantOut, out); diff != "" {
				t.Fatalf("%s, round %d: the Syncer's Output (-appsv1.Sync +Syncer):\n%s", c.ID, round, diff)
			}
			if diff := cmp.Diff(wantPlan, p); diff != "" {
				t.Fatalf("%s, round %d: the Syncer's Plan (-appsv1.Sync +Syncer):\n%s", c.ID, round, diff)
			}
		}
	}
}
