package plan_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// A WithHasher function whose output cannot label pods and end a ReplicaSet
// name makes Sync fail with an error naming the option, instead of a plan
// creating "web-../x y" or a name that lost its Deployment prefix.
func TestHasherOutputIsChecked(t *testing.T) {
	for _, c := range []struct {
		why
		hash string
		ok   bool
	}{
		{why{"path and space", "not a label value"}, "../x y", false},
		{why{"300 bytes", "a label value has at most 63 characters"}, strings.Repeat("a", 300), false},
		{why{"empty", "the label value would be empty"}, "", false},
		{why{"upper case", "a name suffix must be lower case"}, "ABC", false},
		{why{"dash at the end", "must end with a letter or digit"}, "abc-", false},
		{why{"63 characters", "the limit, inclusive"}, strings.Repeat("b", 63), true},
		{why{"upstream-like", "SafeEncodeString alphabet"}, "5d7b9c6f4", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newDeployment("web", 3, "v1")
			h := c.hash
			p, err := plan.Sync(plan.State{Deployment: d, Now: t0}, plan.WithHasher(func(model.PodTemplate, *int32) string { return h }))
			if c.ok {
				if err != nil || p.Actions[0].Object.Name != "web-"+h {
					t.Fatalf("Sync = %v, %v", p.Actions, err)
				}
				return
			}
			var fe *model.FieldError
			if err == nil || !errors.As(err, &fe) || fe.Field != "plan.WithHasher" || !errors.Is(err, model.ErrInvalid) {
				t.Fatalf("err = %v, want a FieldError naming plan.WithHasher", err)
			}
			if len(err.Error()) > 400 {
				t.Errorf("message of %d bytes", len(err.Error()))
			}
			if len(p.Actions) != 0 {
				t.Errorf("a plan came with the error: %v", p.Actions)
			}
		})
	}
}
