package daemonset

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// TestDaemonPodTolerationsMatchesModel: the sync's daemonPodTolerations
// gives model.DaemonPodTolerations's list (upstream
// AddOrUpdateDaemonPodTolerations) on any template tolerations, those
// with the keys of default tolerations included (with or without
// tolerationSeconds, operator and value), and leaves its input alone.
func TestDaemonPodTolerationsMatchesModel(t *testing.T) {
	keys := []string{"dedicated", "gpu", model.TaintNodeNotReady, model.TaintNodeUnreachable, model.TaintNodeDiskPressure,
		model.TaintNodeMemoryPressure, model.TaintNodePIDPressure, model.TaintNodeUnschedulable, model.TaintNodeNetworkUnavailable}
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
		before := cloneTolerations(ts)
		got := daemonPodTolerations(ts, hostNetwork)
		require.Equal(t, model.DaemonPodTolerations(ts, hostNetwork), got)
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
