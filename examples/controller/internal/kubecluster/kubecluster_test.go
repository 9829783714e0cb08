package kubecluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// kube-controller-manager's --controllers: every default controller but
// the swapped ones for rolloutplan's runs, all of them for the baseline,
// and with an explicit list only that list plus the swapped ones upstream.
func TestKubeControllers(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want []string
	}{
		{"rolloutplan", Options{Controllers: Rolloutplan},
			[]string{"*", "-deployment-controller", "-replicaset-controller"}},
		{"rolloutplan, all four kinds", Options{Controllers: Rolloutplan, StatefulSets: true, DaemonSets: true},
			[]string{"*", "-deployment-controller", "-replicaset-controller", "-statefulset-controller", "-daemonset-controller"}},
		{"upstream", Options{Controllers: Upstream}, []string{"*"}},
		{"upstream, only its own two", Options{Controllers: Upstream, KubeControllers: []string{"-*"}},
			[]string{"deployment-controller", "replicaset-controller"}},
		{"rolloutplan, none", Options{Controllers: Rolloutplan, KubeControllers: []string{"-*"}},
			[]string{"-deployment-controller", "-replicaset-controller"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := kubeControllers(tc.o)
			assert.Equal(t, tc.want, got)
			for _, name := range swapped(tc.o) {
				assert.Equal(t, tc.o.Controllers == Upstream, enabled(name, got), name)
			}
			assert.Equal(t, len(tc.o.KubeControllers) == 0, enabled("serviceaccount-controller", got))
		})
	}
}
