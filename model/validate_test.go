package model_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

const (
	fSurge = "spec.strategy.rollingUpdate.maxSurge"
	fUnav  = "spec.strategy.rollingUpdate.maxUnavailable"
)

func TestValidateDeployment(t *testing.T) {
	type c struct {
		tc
		edit func(d *model.Deployment)
		want []string // exact set of failing fields; nil = valid
	}
	fence := func(unav, surge *model.IntOrString) func(d *model.Deployment) {
		return func(d *model.Deployment) {
			d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{MaxUnavailable: unav, MaxSurge: surge}
		}
	}
	runCases(t, []c{
		// ---- valid ----
		{tc{"valid", "a defaulted apps/v1 Deployment"}, func(*model.Deployment) {}, nil},
		{tc{"replicas 0", "apps/v1: replicas >= 0"}, func(d *model.Deployment) { d.Spec.Replicas = i32(0) }, nil},
		{tc{"rounds to zero is valid", "apps/v1 validation/upstream TestResolveFenceposts: 10%/0 with 5 replicas resolves to 0/0 but is allowed"},
			func(d *model.Deployment) { d.Spec.Replicas = i32(5); fence(ios("10%"), ioi(0))(d) }, nil},
		{tc{"1% surge 0 unavailable", "apps/v1 validation: rounds to zero, not literally zero"}, fence(ioi(0), ios("1%")), nil},
		{tc{"surge 150%", "apps/v1: only maxUnavailable is capped at 100%"}, fence(ioi(1), ios("150%")), nil},
		{tc{"unavailable 100%", "apps/v1 IsNotMoreThan100Percent: 100 is allowed"}, fence(ios("100%"), ioi(0)), nil},
		{tc{"surge 0 unavailable 1", "only both zero is forbidden"}, fence(ioi(1), ioi(0)), nil},
		{tc{"surge 0% unavailable 1%", "only both zero is forbidden"}, fence(ios("1%"), ios("0%")), nil},
		{tc{"surge 00% unavailable 1", "00% is zero, but one fencepost is enough"}, fence(ioi(1), ios("00%")), nil},
		{tc{"large int surge", "apps/v1: any non-negative int"}, fence(ioi(0), ioi(model.NoLimit)), nil},
		{tc{"recreate", "apps/v1 validation: Recreate without a rollingUpdate block"},
			func(d *model.Deployment) { d.Spec.Strategy = model.Strategy{Type: model.RecreateStrategy} }, nil},
		{tc{"no history limit", "revisionHistoryLimit is optional"}, func(d *model.Deployment) { d.Spec.RevisionHistoryLimit = nil }, nil},
		{tc{"history limit 0", "apps/v1: >= 0"}, func(d *model.Deployment) { d.Spec.RevisionHistoryLimit = i32(0) }, nil},
		{tc{"no deadline", "progressDeadlineSeconds is optional"}, func(d *model.Deployment) { d.Spec.ProgressDeadlineSeconds = nil }, nil},
		{tc{"deadline sentinel", "the Deployment fields upstream reads: MaxInt32 means no deadline"}, func(d *model.Deployment) { d.Spec.ProgressDeadlineSeconds = i32(model.NoLimit) }, nil},
		{tc{"deadline just above minReady", "apps/v1 validation: progressDeadlineSeconds > minReadySeconds"},
			func(d *model.Deployment) { d.Spec.MinReadySeconds = 599 }, nil},
		{tc{"minReady without deadline", "apps/v1 validation: the comparison applies only when both are set"},
			func(d *model.Deployment) { d.Spec.MinReadySeconds = 1000; d.Spec.ProgressDeadlineSeconds = nil }, nil},
		{tc{"expression selector", "apps/v1: any valid non-empty selector that matches the template"},
			func(d *model.Deployment) {
				d.Spec.Selector = exprs(req("app", model.SelectorOpIn, "web", "api"), req("canary", model.SelectorOpDoesNotExist))
			}, nil},
		{tc{"prefixed selector key", "label keys may carry a DNS subdomain prefix"},
			func(d *model.Deployment) {
				d.Spec.Selector = matchLabels("example.com/app", "web")
				d.Spec.Template.Labels = map[string]string{"example.com/app": "web"}
			}, nil},
		{tc{"dotted name", "ValidateDeploymentName: DNS-1123 subdomain"}, func(d *model.Deployment) { d.Name = "web.prod-1" }, nil},
		{tc{"253 char name", "DNS-1123 subdomain: at most 253 characters"},
			func(d *model.Deployment) { d.Name = strings.Repeat("a", 253) }, nil},
		{tc{"paused", "paused is a plain bool"}, func(d *model.Deployment) { d.Spec.Paused = true }, nil},

		// ---- replicas ----
		{tc{"negative replicas", "apps/v1 ValidateNonnegativeField(replicas)"},
			func(d *model.Deployment) { d.Spec.Replicas = i32(-1) }, []string{"spec.replicas"}},
		{tc{"nil replicas", "apps/v1 defaulting: the algorithm dereferences replicas; undefaulted input is refused"},
			func(d *model.Deployment) { d.Spec.Replicas = nil }, []string{"spec.replicas"}},

		// ---- fenceposts ----
		{tc{"both 0", "apps/v1 validation: maxUnavailable may not be 0 when maxSurge is 0"}, fence(ioi(0), ioi(0)), []string{fUnav}},
		{tc{"0% and 0", "apps/v1 validation: 0% is literally zero"}, fence(ios("0%"), ioi(0)), []string{fUnav}},
		{tc{"0 and 0%", "apps/v1 validation: 0% is literally zero"}, fence(ioi(0), ios("0%")), []string{fUnav}},
		{tc{"0% and 0%", "apps/v1 validation: both literally zero"}, fence(ios("0%"), ios("0%")), []string{fUnav}},
		{tc{"00% and 0", "apps/v1 getPercentValue: 00% is 0"}, fence(ios("00%"), ioi(0)), []string{fUnav}},
		{tc{"0 and 00%", "apps/v1 getPercentValue: 00% is 0"}, fence(ioi(0), ios("00%")), []string{fUnav}},
		{tc{"surge 12x%", "apps/v1 IsValidPercent ^[0-9]+%$ (the FieldError example of the model docs)"}, fence(ios("25%"), ios("12x%")), []string{fSurge}},
		{tc{"surge bare %", "IsValidPercent: needs digits"}, fence(ios("25%"), ios("%")), []string{fSurge}},
		{tc{"surge -5%", "IsValidPercent: no sign"}, fence(ios("25%"), ios("-5%")), []string{fSurge}},
		{tc{"surge +5%", "IsValidPercent: no sign"}, fence(ios("25%"), ios("+5%")), []string{fSurge}},
		{tc{"surge string 5", "IsValidPercent: a string value must end in %"}, fence(ios("25%"), ios("5")), []string{fSurge}},
		{tc{"surge 5.5%", "IsValidPercent: integers only"}, fence(ios("25%"), ios("5.5%")), []string{fSurge}},
		{tc{"surge space", "IsValidPercent: no spaces"}, fence(ios("25%"), ios(" 5%")), []string{fSurge}},
		{tc{"surge empty string", "IsValidPercent: empty is not a percentage"}, fence(ios("25%"), ios("")), []string{fSurge}},
		{tc{"unavailable 12x%", "IsValidPercent"}, fence(ios("12x%"), ios("25%")), []string{fUnav}},
		{tc{"unavailable -5%", "IsValidPercent"}, fence(ios("-5%"), ioi(1)), []string{fUnav}},
		{tc{"surge negative int", "ValidatePositiveIntOrPercent: ints must be >= 0"}, fence(ioi(1), ioi(-1)), []string{fSurge}},
		{tc{"unavailable negative int", "ValidatePositiveIntOrPercent: ints must be >= 0"}, fence(ioi(-1), ioi(1)), []string{fUnav}},
		{tc{"unavailable 101%", "apps/v1 IsNotMoreThan100Percent"}, fence(ios("101%"), ioi(1)), []string{fUnav}},
		{tc{"both malformed", "each fencepost is reported"}, fence(ios("x"), ios("y")), []string{fUnav, fSurge}},
		{tc{"unknown IntOrString type", "ValidatePositiveIntOrPercent: a type other than Int/String is invalid"},
			fence(ioi(1), &model.IntOrString{Type: 7, StrVal: "25%"}), []string{fSurge}},
		{tc{"nil surge", "apps/v1 defaulting: the algorithm dereferences maxSurge; undefaulted input is refused"}, fence(ioi(1), nil), []string{fSurge}},
		{tc{"nil unavailable", "apps/v1 defaulting: undefaulted input is refused"}, fence(nil, ioi(1)), []string{fUnav}},
		{tc{"nil rollingUpdate block", "apps/v1 defaulting: the algorithm dereferences rollingUpdate"},
			func(d *model.Deployment) { d.Spec.Strategy.RollingUpdate = nil }, []string{"spec.strategy.rollingUpdate"}},

		// ---- strategy ----
		{tc{"recreate with block", "apps/v1 validation: rollingUpdate may not be specified for Recreate"},
			func(d *model.Deployment) { d.Spec.Strategy.Type = model.RecreateStrategy }, []string{"spec.strategy.rollingUpdate"}},
		{tc{"unknown strategy", "the Deployment fields upstream reads: anything but RollingUpdate/Recreate is an error"},
			func(d *model.Deployment) { d.Spec.Strategy.Type = "Canary" }, []string{"spec.strategy.type"}},
		{tc{"empty strategy type", "apps/v1 defaulting: undefaulted type is refused"},
			func(d *model.Deployment) { d.Spec.Strategy.Type = "" }, []string{"spec.strategy.type"}},
		{tc{"lowercase strategy", "strategy types are case-sensitive"},
			func(d *model.Deployment) { d.Spec.Strategy.Type = "rollingupdate" }, []string{"spec.strategy.type"}},

		// ---- selector ----
		{tc{"nil selector", "upstream syncDeployment: a nil selector matches nothing; apps/v1 requires one"},
			func(d *model.Deployment) { d.Spec.Selector = nil }, []string{"spec.selector"}},
		{tc{"empty selector", "apps/v1: empty selector is invalid for deployment"},
			func(d *model.Deployment) { d.Spec.Selector = &model.LabelSelector{} }, []string{"spec.selector"}},
		{tc{"empty non-nil matchLabels", "fix for upstream quirk (selector edge cases): matchLabels {} selects everything and is rejected"},
			func(d *model.Deployment) { d.Spec.Selector = &model.LabelSelector{MatchLabels: map[string]string{}} }, []string{"spec.selector"}},
		{tc{"empty non-nil matchExpressions", "upstream quirk (selector edge cases): len(matchLabels)+len(matchExpressions) == 0"},
			func(d *model.Deployment) {
				d.Spec.Selector = &model.LabelSelector{MatchExpressions: []model.LabelSelectorRequirement{}}
			}, []string{"spec.selector"}},
		{tc{"bad operator", "upstream syncDeployment: invalid selector"},
			func(d *model.Deployment) { d.Spec.Selector = exprs(req("app", "Equals", "web")) }, []string{"spec.selector"}},
		{tc{"In without values", "LabelSelectorRequirement: In needs values"},
			func(d *model.Deployment) { d.Spec.Selector = exprs(req("app", model.SelectorOpIn)) }, []string{"spec.selector"}},
		{tc{"bad selector key", "invalid label key 'a b'"},
			func(d *model.Deployment) { d.Spec.Selector = matchLabels("a b", "web") }, []string{"spec.selector"}},
		{tc{"selector does not match template", "apps/v1: `selector` does not match template `labels`"},
			func(d *model.Deployment) { d.Spec.Selector = matchLabels("app", "db") }, []string{"spec.template.metadata.labels"}},
		{tc{"template without labels", "apps/v1: selector must match template labels"},
			func(d *model.Deployment) { d.Spec.Template.Labels = nil }, []string{"spec.template.metadata.labels"}},
		{tc{"expression does not match template", "apps/v1: selector must match template labels"},
			func(d *model.Deployment) { d.Spec.Selector = exprs(req("app", model.SelectorOpNotIn, "web")) }, []string{"spec.template.metadata.labels"}},
		{tc{"template bad label key", "apps/v1 ValidateLabels: keys are qualified names"},
			func(d *model.Deployment) { d.Spec.Template.Labels["a b"] = "x" }, []string{"spec.template.metadata.labels"}},
		{tc{"template bad label value", "apps/v1 ValidateLabels: values are label values"},
			func(d *model.Deployment) { d.Spec.Template.Labels["tier"] = strings.Repeat("x", 64) }, []string{"spec.template.metadata.labels[tier]"}},

		// ---- minReady / deadline / history ----
		{tc{"deadline equals minReady", "apps/v1 validation: progressDeadlineSeconds must be > minReadySeconds"},
			func(d *model.Deployment) { d.Spec.MinReadySeconds = 10; d.Spec.ProgressDeadlineSeconds = i32(10) }, []string{"spec.progressDeadlineSeconds"}},
		{tc{"deadline below minReady", "apps/v1 validation"},
			func(d *model.Deployment) { d.Spec.MinReadySeconds = 10; d.Spec.ProgressDeadlineSeconds = i32(5) }, []string{"spec.progressDeadlineSeconds"}},
		{tc{"deadline 0", "apps/v1: 0 <= minReadySeconds 0"},
			func(d *model.Deployment) { d.Spec.ProgressDeadlineSeconds = i32(0) }, []string{"spec.progressDeadlineSeconds"}},
		{tc{"deadline negative", "apps/v1 ValidateNonnegativeField(progressDeadlineSeconds)"},
			func(d *model.Deployment) { d.Spec.ProgressDeadlineSeconds = i32(-1) }, []string{"spec.progressDeadlineSeconds"}},
		{tc{"minReady negative", "apps/v1 ValidateNonnegativeField(minReadySeconds)"},
			func(d *model.Deployment) { d.Spec.MinReadySeconds = -1 }, []string{"spec.minReadySeconds"}},
		{tc{"history negative", "apps/v1 ValidateNonnegativeField(revisionHistoryLimit)"},
			func(d *model.Deployment) { d.Spec.RevisionHistoryLimit = i32(-1) }, []string{"spec.revisionHistoryLimit"}},

		// ---- metadata ----
		{tc{"empty uid", "upstream ClaimReplicaSets: ownership is by UID"}, func(d *model.Deployment) { d.UID = "" }, []string{"metadata.uid"}},
		{tc{"uppercase name", "DNS-1123 subdomain: lower case"}, func(d *model.Deployment) { d.Name = "Web" }, []string{"metadata.name"}},
		{tc{"empty name", "names are required"}, func(d *model.Deployment) { d.Name = "" }, []string{"metadata.name"}},
		{tc{"254 char name", "DNS-1123 subdomain: at most 253 characters"},
			func(d *model.Deployment) { d.Name = strings.Repeat("a", 254) }, []string{"metadata.name"}},
		{tc{"underscore name", "DNS-1123: no underscores"}, func(d *model.Deployment) { d.Name = "web_1" }, []string{"metadata.name"}},
		{tc{"leading dash name", "DNS-1123: starts alphanumeric"}, func(d *model.Deployment) { d.Name = "-web" }, []string{"metadata.name"}},
		{tc{"trailing dot name", "DNS-1123: ends alphanumeric"}, func(d *model.Deployment) { d.Name = "web." }, []string{"metadata.name"}},
		{tc{"double dot name", "DNS-1123: empty label between dots"}, func(d *model.Deployment) { d.Name = "a..b" }, []string{"metadata.name"}},
		{tc{"negative generation", "generation is a counter"}, func(d *model.Deployment) { d.Generation = -1 }, []string{"metadata.generation"}},

		// ---- status ----
		{tc{"status replicas", "status counts are non-negative"}, func(d *model.Deployment) { d.Status.Replicas = -1 }, []string{"status.replicas"}},
		{tc{"status updated", "status counts are non-negative"}, func(d *model.Deployment) { d.Status.UpdatedReplicas = -1 }, []string{"status.updatedReplicas"}},
		{tc{"status ready", "status counts are non-negative"}, func(d *model.Deployment) { d.Status.ReadyReplicas = -1 }, []string{"status.readyReplicas"}},
		{tc{"status available", "status counts are non-negative"}, func(d *model.Deployment) { d.Status.AvailableReplicas = -1 }, []string{"status.availableReplicas"}},
		{tc{"status unavailable", "status counts are non-negative"}, func(d *model.Deployment) { d.Status.UnavailableReplicas = -1 }, []string{"status.unavailableReplicas"}},
		{tc{"status terminating", "status counts are non-negative"}, func(d *model.Deployment) { d.Status.TerminatingReplicas = i32(-1) }, []string{"status.terminatingReplicas"}},
		{tc{"status collisionCount", "the Deployment fields upstream reads: collisionCount only grows from 0"}, func(d *model.Deployment) { d.Status.CollisionCount = i32(-1) }, []string{"status.collisionCount"}},
		{tc{"duplicate condition is valid", "the API server accepts repeated condition types; upstream GetDeploymentCondition reads the first"},
			func(d *model.Deployment) {
				d.Status.Conditions = []model.DeploymentCondition{{Type: model.DeploymentAvailable}, {Type: model.DeploymentProgressing}, {Type: model.DeploymentAvailable}}
			}, nil},

		// ---- several at once ----
		{tc{"every problem listed", "ValidateDeployment doc: a *ValidationError listing every problem"},
			func(d *model.Deployment) {
				d.UID = ""
				d.Spec.Replicas = i32(-2)
				d.Spec.Strategy.RollingUpdate.MaxSurge = ios("12x%")
				d.Spec.RevisionHistoryLimit = i32(-1)
				d.Status.ReadyReplicas = -3
			}, []string{"metadata.uid", "spec.replicas", fSurge, "spec.revisionHistoryLimit", "status.readyReplicas"}},
	}, func(t *testing.T, c c) {
		d := validDeployment()
		c.edit(d)
		before := snapshot(t, d)
		err := model.ValidateDeployment(d)
		if snapshot(t, d) != before {
			t.Fatal("ValidateDeployment mutated its input")
		}
		got := fieldsOf(t, err)
		if !sameFields(got, c.want) {
			t.Fatalf("failing fields = %q, want %q\nerror: %v", got, c.want, err)
		}
		// Validate reports the same problems under the "deployment." prefix.
		serr := model.Validate(d, nil, nil)
		var prefixed []string
		for _, f := range c.want {
			prefixed = append(prefixed, "deployment."+f)
		}
		if got := fieldsOf(t, serr); !sameFields(got, prefixed) {
			t.Fatalf("Validate fields = %q, want %q", got, prefixed)
		}
	})
}

// TestFieldErrorMessage pins the FieldError message format.
func TestFieldErrorMessage(t *testing.T) {
	d := validDeployment()
	d.Spec.Strategy.RollingUpdate.MaxSurge = ios("12x%")
	err := model.ValidateDeployment(d)
	const want = `spec.strategy.rollingUpdate.maxSurge: invalid value "12x%": must be an integer or a percentage such as "25%"`
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v\nwant    %s", err, want)
	}
	var fe *model.FieldError
	if !errors.As(err, &fe) || fe.Field != fSurge || fe.Value != "12x%" {
		t.Fatalf("FieldError = %+v", fe)
	}
	if !errors.Is(fe, model.ErrInvalid) {
		t.Fatal("a FieldError alone must also match ErrInvalid")
	}
	if errors.Is(err, errors.New("invalid input")) {
		t.Fatal("only the ErrInvalid sentinel itself should match")
	}
	d.Spec.Replicas = i32(-1)
	err = model.ValidateDeployment(d)
	if got := err.Error(); got != `spec.replicas: invalid value "-1": must be greater than or equal to 0; `+want {
		t.Fatalf("joined message = %q", got)
	}
	// A wrapped validation error still unwraps.
	wrapped := fmt.Errorf("sync web: %w", err)
	var ve *model.ValidationError
	if !errors.As(wrapped, &ve) || len(ve.Errors) != 2 || !errors.Is(wrapped, model.ErrInvalid) {
		t.Fatalf("wrapped: %v", wrapped)
	}
	if model.ValidateDeployment(validDeployment()) != nil {
		t.Fatal("a valid deployment must give a nil error (not a typed nil)")
	}
}

func TestValidateReplicaSet(t *testing.T) {
	type c struct {
		tc
		edit func(rs *model.ReplicaSet)
		want []string
	}
	runCases(t, []c{
		{tc{"valid", "a ReplicaSet as the controller writes it"}, func(*model.ReplicaSet) {}, nil},
		{tc{"zero replicas", "scaled-down old RSs have 0"}, func(rs *model.ReplicaSet) { rs.Spec.Replicas = i32(0) }, nil},
		{tc{"terminating set", "upstream calculateStatus: terminatingReplicas may be reported"}, func(rs *model.ReplicaSet) { rs.Status.TerminatingReplicas = i32(2) }, nil},
		{tc{"nil replicas", "conventions: spec(rs) is never nil after defaulting"}, func(rs *model.ReplicaSet) { rs.Spec.Replicas = nil }, []string{"spec.replicas"}},
		{tc{"negative replicas", "apps/v1 ValidateNonnegativeField(replicas)"}, func(rs *model.ReplicaSet) { rs.Spec.Replicas = i32(-1) }, []string{"spec.replicas"}},
		{tc{"negative minReady", "apps/v1 ValidateNonnegativeField(minReadySeconds)"}, func(rs *model.ReplicaSet) { rs.Spec.MinReadySeconds = -1 }, []string{"spec.minReadySeconds"}},
		{tc{"nil selector", "apps/v1: selector required"}, func(rs *model.ReplicaSet) { rs.Spec.Selector = nil }, []string{"spec.selector"}},
		{tc{"invalid selector", "upstream syncReplicaSet: invalid selector ⇒ error"}, func(rs *model.ReplicaSet) { rs.Spec.Selector = exprs(req("a", model.SelectorOpExists, "x")) }, []string{"spec.selector"}},
		{tc{"empty uid", "upstream ClaimReplicaSets: ownership is by UID"}, func(rs *model.ReplicaSet) { rs.UID = "" }, []string{"metadata.uid"}},
		{tc{"uppercase name", "DNS-1123 subdomain"}, func(rs *model.ReplicaSet) { rs.Name = "Web-abc" }, []string{"metadata.name"}},
		{tc{"long name", "apps/v1 validation: 253 is the limit"}, func(rs *model.ReplicaSet) { rs.Name = strings.Repeat("w", 254) }, []string{"metadata.name"}},
		{tc{"status replicas", "non-negative"}, func(rs *model.ReplicaSet) { rs.Status.Replicas = -1 }, []string{"status.replicas"}},
		{tc{"status fullyLabeled", "non-negative"}, func(rs *model.ReplicaSet) { rs.Status.FullyLabeledReplicas = -1 }, []string{"status.fullyLabeledReplicas"}},
		{tc{"status ready", "non-negative"}, func(rs *model.ReplicaSet) { rs.Status.ReadyReplicas = -1 }, []string{"status.readyReplicas"}},
		{tc{"status available", "non-negative"}, func(rs *model.ReplicaSet) { rs.Status.AvailableReplicas = -1 }, []string{"status.availableReplicas"}},
		{tc{"status terminating", "non-negative"}, func(rs *model.ReplicaSet) { rs.Status.TerminatingReplicas = i32(-1) }, []string{"status.terminatingReplicas"}},
		{tc{"status observedGeneration", "non-negative"}, func(rs *model.ReplicaSet) { rs.Status.ObservedGeneration = -1 }, []string{"status.observedGeneration"}},
	}, func(t *testing.T, c c) {
		rs := validReplicaSet("web-abc", "uid-rs", 3)
		c.edit(rs)
		got := fieldsOf(t, model.ValidateReplicaSet(rs))
		if !sameFields(got, c.want) {
			t.Fatalf("fields = %q, want %q", got, c.want)
		}
		var prefixed []string
		for _, f := range c.want {
			prefixed = append(prefixed, "replicaSets[1]."+f)
		}
		other := validReplicaSet("web-other", "uid-other", 0)
		if got := fieldsOf(t, model.Validate(validDeployment(), []*model.ReplicaSet{other, rs}, nil)); !sameFields(got, prefixed) {
			t.Fatalf("Validate fields = %q, want %q", got, prefixed)
		}
	})
}

func TestValidatePod(t *testing.T) {
	type c struct {
		tc
		edit func(p *model.Pod)
		want []string
	}
	runCases(t, []c{
		{tc{"valid", "a running ready pod"}, func(*model.Pod) {}, nil},
		{tc{"no uid", "pod UIDs are only used for ranking ties; optional"}, func(p *model.Pod) { p.UID = "" }, nil},
		{tc{"empty name", "pods are identified by name in writes"}, func(p *model.Pod) { p.Name = "" }, []string{"metadata.name"}},
		{tc{"negative restarts", "upstream getPodsToDelete (ActivePodsWithRanks) ranking reads restartCount; must be >= 0"},
			func(p *model.Pod) {
				p.Status.ContainerStatuses = []model.ContainerStatus{{Name: "a", RestartCount: 0}, {Name: "b", RestartCount: -1}}
			}, []string{"status.containerStatuses[1].restartCount"}},
	}, func(t *testing.T, c c) {
		p := validPod("web-abc-x", "pod-uid")
		c.edit(p)
		if got := fieldsOf(t, model.ValidatePod(p)); !sameFields(got, c.want) {
			t.Fatalf("fields = %q, want %q", got, c.want)
		}
		var prefixed []string
		for _, f := range c.want {
			prefixed = append(prefixed, "pods[0]."+f)
		}
		if got := fieldsOf(t, model.Validate(validDeployment(), nil, []*model.Pod{p})); !sameFields(got, prefixed) {
			t.Fatalf("Validate fields = %q, want %q", got, prefixed)
		}
	})
}

func TestValidateSnapshot(t *testing.T) {
	rs := func(ns, name, uid string) *model.ReplicaSet {
		r := validReplicaSet(name, uid, 1)
		r.Namespace = ns
		return r
	}
	pod := func(ns, name, uid string) *model.Pod {
		p := validPod(name, uid)
		p.Namespace = ns
		return p
	}
	type c struct {
		tc
		d    *model.Deployment
		rss  []*model.ReplicaSet
		pods []*model.Pod
		want []string
	}
	runCases(t, []c{
		{tc{"valid", "a consistent snapshot"}, validDeployment(),
			[]*model.ReplicaSet{rs("default", "web-a", "1"), rs("default", "web-b", "2")},
			[]*model.Pod{pod("default", "p1", "u1"), pod("default", "p2", "u2")}, nil},
		{tc{"empty lists", "a Deployment with no ReplicaSets yet (upstream TestSyncDeploymentCreatesReplicaSet first sync)"}, validDeployment(), nil, nil, nil},
		{tc{"duplicate rs name", "Validate doc: no two ReplicaSets share a name (namespace/name is identity)"}, validDeployment(),
			[]*model.ReplicaSet{rs("default", "web-a", "1"), rs("default", "web-a", "2")}, nil, []string{"replicaSets[1].metadata.name"}},
		{tc{"same name other namespace", "identity is namespace/name"}, validDeployment(),
			[]*model.ReplicaSet{rs("default", "web-a", "1"), rs("other", "web-a", "2")}, nil, nil},
		{tc{"duplicate rs uid", "Validate doc: no two ReplicaSets share a UID"}, validDeployment(),
			[]*model.ReplicaSet{rs("default", "web-a", "1"), rs("default", "web-b", "2"), rs("default", "web-c", "1")}, nil, []string{"replicaSets[2].metadata.uid"}},
		{tc{"duplicate rs name and uid", "both are reported"}, validDeployment(),
			[]*model.ReplicaSet{rs("default", "web-a", "1"), rs("default", "web-a", "1")}, nil,
			[]string{"replicaSets[1].metadata.name", "replicaSets[1].metadata.uid"}},
		{tc{"empty rs uid twice", "an empty UID is reported once per RS, not as a duplicate"}, validDeployment(),
			[]*model.ReplicaSet{rs("default", "web-a", ""), rs("default", "web-b", "")}, nil,
			[]string{"replicaSets[0].metadata.uid", "replicaSets[1].metadata.uid"}},
		{tc{"duplicate pod name", "Validate doc: no two Pods share a name"}, validDeployment(), nil,
			[]*model.Pod{pod("default", "p1", "u1"), pod("default", "p2", "u2"), pod("default", "p1", "u3")}, []string{"pods[2].metadata.name"}},
		{tc{"same pod name other namespace", "identity is namespace/name"}, validDeployment(), nil,
			[]*model.Pod{pod("default", "p1", "u1"), pod("other", "p1", "u2")}, nil},
		{tc{"duplicate pod uid", "Validate doc: no two Pods share a UID"}, validDeployment(), nil,
			[]*model.Pod{pod("default", "p1", "u1"), pod("default", "p2", "u1")}, []string{"pods[1].metadata.uid"}},
		{tc{"empty pod uids", "pod UID is optional; empty UIDs are not duplicates"}, validDeployment(), nil,
			[]*model.Pod{pod("default", "p1", ""), pod("default", "p2", "")}, nil},
		{tc{"nil deployment", "the library contract: never panics; the field is named"}, nil, nil, nil, []string{"deployment"}},
		{tc{"nil rs entry", "the library contract: never panics; the entry is named"}, validDeployment(),
			[]*model.ReplicaSet{rs("default", "web-a", "1"), nil}, nil, []string{"replicaSets[1]"}},
		{tc{"nil pod entry", "the library contract: never panics; the entry is named"}, validDeployment(), nil,
			[]*model.Pod{nil}, []string{"pods[0]"}},
		{tc{"errors everywhere", "Validate lists every problem across objects"}, func() *model.Deployment {
			d := validDeployment()
			d.Spec.Replicas = i32(-1)
			return d
		}(), []*model.ReplicaSet{func() *model.ReplicaSet { r := rs("default", "web-a", "1"); r.Spec.Replicas = nil; return r }()},
			[]*model.Pod{pod("default", "", "u")},
			[]string{"deployment.spec.replicas", "replicaSets[0].spec.replicas", "pods[0].metadata.name"}},
	}, func(t *testing.T, c c) {
		got := fieldsOf(t, model.Validate(c.d, c.rss, c.pods))
		if !sameFields(got, c.want) {
			t.Fatalf("fields = %q, want %q", got, c.want)
		}
	})
	// The single-object validators name a nil object by its kind.
	for _, x := range []struct {
		err  error
		want string
	}{
		{model.ValidateDeployment(nil), "deployment"},
		{model.ValidateReplicaSet(nil), "replicaSet"},
		{model.ValidatePod(nil), "pod"},
	} {
		if got := fieldsOf(t, x.err); !sameFields(got, []string{x.want}) {
			t.Errorf("nil object: fields %q, want %q", got, x.want)
		}
	}
}
