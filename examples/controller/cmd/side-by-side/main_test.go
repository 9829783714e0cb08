package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/controller/internal/kubecluster"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHelp(t *testing.T) {
	var out, errs bytes.Buffer
	code := run(t.Context(), []string{"-h"}, &out, &errs)
	assert.Equal(t, exitOK, code)
	assert.Empty(t, errs.String())
	for _, s := range scenarios {
		assert.Contains(t, out.String(), "  "+s.name+" ")
	}
	assert.Contains(t, out.String(), "-controller-binary")
	assert.Contains(t, out.String(), "Exit codes: 0")
}

func TestParseDefaults(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "rolloutplan-controller")
	require.NoError(t, os.WriteFile(bin, nil, 0o755))
	var out, errs bytes.Buffer
	c, code, ok := parse([]string{"--controller-binary", bin}, &out, &errs)
	require.True(t, ok, errs.String())
	assert.Equal(t, exitOK, code)
	var names []string
	for _, s := range c.scenarios {
		names = append(names, s.name)
	}
	assert.Equal(t, []string{"nginx", "rollout100", "many100"}, names)
	assert.Equal(t, []kubecluster.Controllers{kubecluster.Upstream, kubecluster.Rolloutplan}, c.controllers)
	assert.Equal(t, 3, c.runs)
	assert.Equal(t, 200*time.Millisecond, c.kubeletDelay)

	c, _, ok = parse([]string{"--controllers", "upstream", "--scenarios", "many100, nginx,many100", "--runs", "1"}, &out, &errs)
	require.True(t, ok, errs.String())
	assert.Equal(t, []kubecluster.Controllers{kubecluster.Upstream}, c.controllers, "upstream alone needs no rolloutplan-controller")
	require.Len(t, c.scenarios, 2)
	assert.Equal(t, "many100", c.scenarios[0].name)
	assert.Equal(t, 100, c.scenarios[0].deployments)
	assert.Equal(t, "nginx", c.scenarios[1].name)
}

func TestParseRefuses(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "rolloutplan-controller")
	require.NoError(t, os.WriteFile(bin, nil, 0o755))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--scenarios", "nginx,huge"}, `--scenarios: unknown scenario "huge" (want nginx, rollout100, many100)`},
		{[]string{"--scenarios", ""}, `--scenarios: unknown scenario ""`},
		{[]string{"--controllers", "kcm"}, `--controllers "kcm": want upstream, rolloutplan or both`},
		{[]string{"--runs", "0"}, "--runs 0: want 1 to 50"},
		{[]string{"--runs", "51"}, "--runs 51: want 1 to 50"},
		{[]string{"--controllers", "rolloutplan"}, "--controller-binary is required"},
		{[]string{"--controller-binary", filepath.Dir(bin)}, "not a file"},
		{[]string{"--controller-binary", bin + ".missing"}, "not a file"},
		{[]string{"--controller-binary", bin, "--kubelet-delay", "0s"}, "--kubelet-delay 0s: want more than 0, at most 1m"},
		{[]string{"--controller-binary", bin, "--kubelet-delay", "2m"}, "--kubelet-delay 2m0s"},
		{[]string{"--controller-binary", bin, "--timeout", "0s"}, "--timeout 0s: want more than 0"},
		{[]string{"--controller-binary", bin, "--start-timeout", "-1s"}, "--start-timeout -1s: want more than 0"},
		{[]string{"--controller-binary", bin, "extra"}, `unexpected argument "extra"`},
		{[]string{"--no-such-flag"}, "flag provided but not defined: -no-such-flag (see side-by-side -h)"},
	} {
		var out, errs bytes.Buffer
		code := run(t.Context(), c.args, &out, &errs)
		assert.Equal(t, exitUsage, code, "%v", c.args)
		assert.Contains(t, errs.String(), c.want, "%v", c.args)
		assert.True(t, strings.HasPrefix(errs.String(), "side-by-side: "), "%v: %s", c.args, errs.String())
		assert.Empty(t, out.String(), "%v", c.args)
	}
}

func TestScenarios(t *testing.T) {
	s, ok := scenarioNamed("rollout100")
	require.True(t, ok)
	d := s.deployment("rollout100")
	assert.Equal(t, int32(100), *d.Spec.Replicas)
	require.NotNil(t, d.Spec.Strategy.RollingUpdate)
	assert.Equal(t, "25%", d.Spec.Strategy.RollingUpdate.MaxSurge.String())
	assert.Equal(t, "25%", d.Spec.Strategy.RollingUpdate.MaxUnavailable.String())
	assert.Equal(t, fromImage, imageOf(&d.Spec.Template.Spec))
	assert.Equal(t, d.Spec.Selector.MatchLabels, d.Spec.Template.Labels)

	s, _ = scenarioNamed("many100")
	names := s.names()
	assert.Len(t, names, 100)
	assert.Equal(t, "many100-000", names[0])
	assert.Equal(t, "many100-099", names[99])
	assert.Equal(t, int32(3), *s.deployment(names[5]).Spec.Replicas)

	s, _ = scenarioNamed("nginx")
	assert.Equal(t, []string{"nginx"}, s.names())
	assert.Nil(t, s.deployment("nginx").Spec.Strategy.RollingUpdate, "the API server's defaults, 25 %/25 %")
	_, ok = scenarioNamed("nope")
	assert.False(t, ok)
}
