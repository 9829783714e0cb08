package model_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
)

func TestDefault(t *testing.T) {
	base := func() *model.Deployment {
		return &model.Deployment{
			ObjectMeta: model.ObjectMeta{Name: "web", UID: "u", Labels: map[string]string{"x": "y"}},
			Spec: model.DeploymentSpec{
				Selector:        matchLabels("app", "web"),
				Template:        model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "{}"},
				MinReadySeconds: 7,
				Paused:          true,
			},
			Status: model.DeploymentStatus{ObservedGeneration: 3, Replicas: 2},
		}
	}
	// with applies edits to a fresh base.
	with := func(edit func(d *model.Deployment)) *model.Deployment {
		d := base()
		edit(d)
		return d
	}
	full := func(edit func(d *model.Deployment)) *model.Deployment {
		return with(func(d *model.Deployment) {
			d.Spec.Replicas = i32(1)
			d.Spec.Strategy = model.Strategy{Type: model.RollingUpdateStrategy,
				RollingUpdate: &model.RollingUpdate{MaxUnavailable: ios("25%"), MaxSurge: ios("25%")}}
			d.Spec.RevisionHistoryLimit = i32(10)
			d.Spec.ProgressDeadlineSeconds = i32(600)
			edit(d)
		})
	}
	type c struct {
		tc
		in   *model.Deployment
		want *model.Deployment
	}
	runCases(t, []c{
		{tc{"all defaults", "apps/v1 defaulting: replicas 1, RollingUpdate, 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600"},
			base(), full(func(*model.Deployment) {})},
		{tc{"replicas 0 kept", "apps/v1 defaulting: only a missing (nil) replicas is defaulted; 0 is a value"},
			with(func(d *model.Deployment) { d.Spec.Replicas = i32(0) }),
			full(func(d *model.Deployment) { d.Spec.Replicas = i32(0) })},
		{tc{"replicas 5 kept", "apps/v1 defaulting: set values are kept"},
			with(func(d *model.Deployment) { d.Spec.Replicas = i32(5) }),
			full(func(d *model.Deployment) { d.Spec.Replicas = i32(5) })},
		{tc{"recreate no block", "apps/v1 defaulting: the rollingUpdate block is created only when the type is RollingUpdate"},
			with(func(d *model.Deployment) { d.Spec.Strategy.Type = model.RecreateStrategy }),
			full(func(d *model.Deployment) { d.Spec.Strategy = model.Strategy{Type: model.RecreateStrategy} })},
		{tc{"recreate keeps a given block", "defaulting never removes fields; validation rejects the block (apps/v1 validation)"},
			with(func(d *model.Deployment) {
				d.Spec.Strategy = model.Strategy{Type: model.RecreateStrategy, RollingUpdate: &model.RollingUpdate{MaxSurge: ioi(1)}}
			}),
			full(func(d *model.Deployment) {
				d.Spec.Strategy = model.Strategy{Type: model.RecreateStrategy, RollingUpdate: &model.RollingUpdate{MaxSurge: ioi(1)}}
			})},
		{tc{"explicit rolling update nil block", "apps/v1 defaulting: a missing rollingUpdate block is created"},
			with(func(d *model.Deployment) { d.Spec.Strategy.Type = model.RollingUpdateStrategy }),
			full(func(*model.Deployment) {})},
		{tc{"empty block", "apps/v1 defaulting: missing maxUnavailable/maxSurge set to 25% in an existing block"},
			with(func(d *model.Deployment) { d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{} }),
			full(func(*model.Deployment) {})},
		{tc{"only maxSurge set", "apps/v1 defaulting: only the missing fencepost is defaulted"},
			with(func(d *model.Deployment) { d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{MaxSurge: ioi(0)} }),
			full(func(d *model.Deployment) { d.Spec.Strategy.RollingUpdate.MaxSurge = ioi(0) })},
		{tc{"only maxUnavailable set", "apps/v1 defaulting: only the missing fencepost is defaulted"},
			with(func(d *model.Deployment) {
				d.Spec.Strategy = model.Strategy{Type: model.RollingUpdateStrategy, RollingUpdate: &model.RollingUpdate{MaxUnavailable: ios("10%")}}
			}),
			full(func(d *model.Deployment) { d.Spec.Strategy.RollingUpdate.MaxUnavailable = ios("10%") })},
		{tc{"both fenceposts set", "apps/v1 defaulting: set values are kept, even invalid ones"},
			with(func(d *model.Deployment) {
				d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{MaxUnavailable: ioi(0), MaxSurge: ios("12x%")}
			}),
			full(func(d *model.Deployment) {
				d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{MaxUnavailable: ioi(0), MaxSurge: ios("12x%")}
			})},
		{tc{"unknown type untouched", "apps/v1 defaulting defaults only an empty type; anything else is left for validation/sync error"},
			with(func(d *model.Deployment) { d.Spec.Strategy.Type = "Canary" }),
			full(func(d *model.Deployment) { d.Spec.Strategy = model.Strategy{Type: "Canary"} })},
		{tc{"history limit 0 kept", "apps/v1 defaulting: only nil is defaulted; 0 keeps no old RSs"},
			with(func(d *model.Deployment) { d.Spec.RevisionHistoryLimit = i32(0) }),
			full(func(d *model.Deployment) { d.Spec.RevisionHistoryLimit = i32(0) })},
		{tc{"no-limit sentinels kept", "the Deployment fields upstream reads: MaxInt32 means unlimited / no deadline"},
			with(func(d *model.Deployment) {
				d.Spec.RevisionHistoryLimit = i32(model.NoLimit)
				d.Spec.ProgressDeadlineSeconds = i32(model.NoLimit)
			}),
			full(func(d *model.Deployment) {
				d.Spec.RevisionHistoryLimit = i32(model.NoLimit)
				d.Spec.ProgressDeadlineSeconds = i32(model.NoLimit)
			})},
		{tc{"progress deadline kept", "apps/v1 defaulting: set values are kept"},
			with(func(d *model.Deployment) { d.Spec.ProgressDeadlineSeconds = i32(30) }),
			full(func(d *model.Deployment) { d.Spec.ProgressDeadlineSeconds = i32(30) })},
		{tc{"nil", "Default(nil) is nil, not a panic (the library contract: never panics)"}, nil, nil},
	}, func(t *testing.T, c c) {
		var before string
		if c.in != nil {
			before = snapshot(t, c.in)
		}
		got := model.Default(c.in)
		if d := cmp.Diff(c.want, got); d != "" {
			t.Fatalf("Default (-want +got):\n%s", d)
		}
		if c.in == nil {
			return
		}
		if after := snapshot(t, c.in); after != before {
			t.Fatalf("Default mutated its input:\nbefore %s\nafter  %s", before, after)
		}
		if got == c.in {
			t.Fatal("Default returned its input")
		}
		// The result shares nothing with the input.
		mutateDeployment(got)
		if after := snapshot(t, c.in); after != before {
			t.Fatalf("Default's result shares memory with the input:\nbefore %s\nafter  %s", before, after)
		}
		// Idempotent.
		again := model.Default(model.Default(c.in))
		if d := cmp.Diff(model.Default(c.in), again); d != "" {
			t.Fatalf("Default is not idempotent (-once +twice):\n%s", d)
		}
	})
}

func TestDefaultReplicaSet(t *testing.T) {
	type c struct {
		tc
		in   *int32
		want *int32
	}
	runCases(t, []c{
		{tc{"nil replicas", "apps/v1 defaulting: ReplicaSet replicas defaults to 1"}, nil, i32(1)},
		{tc{"zero kept", "apps/v1 defaulting: only nil is defaulted"}, i32(0), i32(0)},
		{tc{"value kept", "apps/v1 defaulting: set values are kept"}, i32(4), i32(4)},
	}, func(t *testing.T, c c) {
		rs := validReplicaSet("web-abc", "u1", 1)
		rs.Spec.Replicas = c.in
		before := snapshot(t, rs)
		got := model.DefaultReplicaSet(rs)
		if d := cmp.Diff(c.want, got.Spec.Replicas); d != "" {
			t.Fatalf("replicas (-want +got):\n%s", d)
		}
		want := rs.DeepCopy()
		want.Spec.Replicas = c.want
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("other fields changed (-want +got):\n%s", d)
		}
		mutateReplicaSet(got)
		if snapshot(t, rs) != before {
			t.Fatal("DefaultReplicaSet mutated or shares memory with its input")
		}
	})
	if model.DefaultReplicaSet(nil) != nil {
		t.Fatal("DefaultReplicaSet(nil) must be nil")
	}
}

func TestDesiredAndSpecReplicas(t *testing.T) {
	d := &model.Deployment{}
	if d.DesiredReplicas() != 1 {
		t.Fatal("nil replicas: D must be the apps/v1 default 1 (apps/v1 defaulting)")
	}
	d.Spec.Replicas = i32(0)
	if d.DesiredReplicas() != 0 {
		t.Fatal("replicas 0 must stay 0")
	}
	rs := &model.ReplicaSet{}
	if rs.SpecReplicas() != 1 {
		t.Fatal("nil RS replicas must be the apps/v1 default 1 (apps/v1 defaulting)")
	}
	rs.Spec.Replicas = i32(7)
	if rs.SpecReplicas() != 7 {
		t.Fatal("RS replicas 7")
	}
}
