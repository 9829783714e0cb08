package model_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
)

// upstreamAddOrUpdateToleration is upstream AddOrUpdateTolerationInPodSpec
// as written there, building a new list each call: the reference
// DaemonPodTolerations, which adds in place, must agree with.
func upstreamAddOrUpdateToleration(list []model.Toleration, t model.Toleration) []model.Toleration {
	var out []model.Toleration
	updated := false
	for _, have := range list {
		if have.Key == t.Key && have.Effect == t.Effect && have.Operator == t.Operator && have.Value == t.Value {
			if have.TolerationSeconds == nil {
				return list
			}
			out = append(out, t)
			updated = true
			continue
		}
		out = append(out, have)
	}
	if !updated {
		out = append(out, t)
	}
	return out
}

// DaemonPodTolerations (upstream AddOrUpdateDaemonPodTolerations) gives
// upstream's list on any template tolerations, those with the keys of the
// default ones included (with or without tolerationSeconds, operator and
// value), and leaves its input alone, sharing no tolerationSeconds with it.
func TestDaemonPodTolerationsMatchesUpstream(t *testing.T) {
	keys := []string{"dedicated", "gpu", model.TaintNodeNotReady, model.TaintNodeUnreachable, model.TaintNodeDiskPressure,
		model.TaintNodeMemoryPressure, model.TaintNodePIDPressure, model.TaintNodeUnschedulable, model.TaintNodeNetworkUnavailable}
	defaults := []model.Toleration{
		{Key: model.TaintNodeNotReady, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoExecute},
		{Key: model.TaintNodeUnreachable, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoExecute},
		{Key: model.TaintNodeDiskPressure, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule},
		{Key: model.TaintNodeMemoryPressure, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule},
		{Key: model.TaintNodePIDPressure, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule},
		{Key: model.TaintNodeUnschedulable, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule},
	}
	rapid.Check(t, func(t *rapid.T) {
		var ts []model.Toleration
		for i := range rapid.IntRange(0, 5).Draw(t, "n") {
			tol := model.Toleration{
				Key:      rapid.SampledFrom(keys).Draw(t, "key"),
				Operator: rapid.SampledFrom([]model.TolerationOperator{model.TolerationOpExists, model.TolerationOpEqual}).Draw(t, "op"),
				Value:    rapid.SampledFrom([]string{"", "x"}).Draw(t, "value"),
				Effect:   rapid.SampledFrom([]model.TaintEffect{"", model.TaintEffectNoSchedule, model.TaintEffectNoExecute}).Draw(t, "effect"),
			}
			if rapid.Bool().Draw(t, "seconds") {
				tol.TolerationSeconds = new(int64(i))
			}
			ts = append(ts, tol)
		}
		hostNetwork := rapid.Bool().Draw(t, "hostNetwork")
		want := slices.Clone(ts)
		add := defaults
		if hostNetwork {
			add = append(slices.Clone(defaults), model.Toleration{Key: model.TaintNodeNetworkUnavailable, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule})
		}
		for _, d := range add {
			want = upstreamAddOrUpdateToleration(want, d)
		}
		before := slices.Clone(ts)
		got := model.DaemonPodTolerations(ts, hostNetwork)
		require.Equal(t, want, got)
		require.Equal(t, before, ts, "the template's tolerations")
		for i := range got {
			for j := range ts {
				if got[i].TolerationSeconds != nil {
					require.NotSame(t, ts[j].TolerationSeconds, got[i].TolerationSeconds, "shared tolerationSeconds")
				}
			}
		}
	})
}
