package replicaset_test

import (
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/replicaset"
)

// A template whose labels the selector does not match is reported with the
// labels in selector syntax, sorted, never as a Go map.
func TestSelectorMismatchPrintsLabels(t *testing.T) {
	rs := webRS(1)
	rs.Spec.Template.Labels = map[string]string{"tier": "front", "app": "api"}
	_, err := replicaset.Sync(rs, nil, []*model.ReplicaSet{rs}, now)
	if err == nil {
		t.Fatal("a template the selector does not match was accepted")
	}
	if msg := err.Error(); !strings.Contains(msg, `"app=api,tier=front"`) || strings.Contains(msg, "map[") {
		t.Errorf("error = %q, want the labels as app=api,tier=front", msg)
	}
}
