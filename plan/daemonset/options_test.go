package daemonset_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

func TestOptions(t *testing.T) {
	ds := fluentd()
	state := func() daemonset.State {
		return daemonset.State{DaemonSet: ds, Nodes: threeNodes(), Pods: []*model.Pod{daemonPod("taken", "", "x", func(p *model.Pod) { p.Namespace = "elsewhere" })}, Now: t0}
	}

	// A hasher and a patcher name and record the revision.
	p, err := daemonset.Sync(state(),
		daemonset.WithHasher(func(model.PodTemplate, *int32) string { return "h1" }),
		daemonset.WithPatcher(func(model.PodTemplate) string { return "data-1" }))
	require.NoError(t, err)
	require.Equal(t, daemonset.CreateControllerRevision, p.Actions[0].Kind)
	assert.Equal(t, dsName+"-h1", p.Actions[0].Object.Name)
	assert.Equal(t, "data-1", p.Actions[0].Revision.Data)
	assert.Equal(t, "h1", p.Hash)
	assert.Equal(t, "h1", p.Actions[1].Pod.Labels[model.DaemonSetUniqueLabel])
	assert.Contains(t, noteCodes(p), string(daemonset.NoteOtherNamespace), "the pod of another namespace is noted")

	// A namer that keeps returning one name gets it once; the default
	// namer takes over.
	p, err = daemonset.Sync(state(), daemonset.WithPodNamer(func(prefix string, n int) string { return prefix + "same" }))
	require.NoError(t, err)
	names := map[string]bool{}
	for _, a := range p.Actions {
		if a.Kind == daemonset.CreatePod {
			assert.False(t, names[a.Object.Name], "name %s given twice", a.Object.Name)
			names[a.Object.Name] = true
		}
	}
	assert.Len(t, names, 3)
	assert.True(t, names[dsName+"-same"])
	assert.Equal(t, 3, p.Count(daemonset.CreatePod))

	// The one-line renderings.
	assert.True(t, strings.HasPrefix(p.String(), "Plan [CreateControllerRevision "), p.String())
	assert.Contains(t, p.Actions[1].String(), "CreatePod kube-system/"+dsName+"-same on n-1: NodeNeedsDaemonPod: ")
}
