package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testdata/audit.jsonl holds lines of two kube-apiserver v1.36.3 audit
// logs this command wrote (the nginx scenario, one run with each set of
// controllers, cut down to 14 events in time order): a readiness probe,
// kube-controller-manager's shared informers' get, its deployment and
// replicaset controllers' writes (one update answered 409), this
// command's own update of the Deployment, and rolloutplan-controller's
// writes (one answered 409).
func readAudit(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/audit.jsonl")
	require.NoError(t, err)
	return string(b)
}

func at(t *testing.T, s string) time.Time {
	t.Helper()
	ts, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err)
	return ts
}

func TestCountWritesByProgram(t *testing.T) {
	log := readAudit(t)
	w, err := countWrites(strings.NewReader(log), "kube-controller-manager", time.Time{}, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, writes{Total: 8, Conflicts: 1, Reads: 1, By: map[string]int{
		"create replicasets":        1,
		"update deployments/status": 3,
		"create events":             1,
		"create pods":               2,
		"delete pods":               1,
	}}, w)

	w, err = countWrites(strings.NewReader(log), "rolloutplan-controller", time.Time{}, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, writes{Total: 3, Conflicts: 1, By: map[string]int{
		"create replicasets": 1, "create pods": 1, "update deployments/status": 1,
	}}, w)

	// Its own update is this command's, nobody else's; the API server's
	// readiness answer is a read.
	w, err = countWrites(strings.NewReader(log), "side-by-side", time.Time{}, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, 1, w.Total)
	w, err = countWrites(strings.NewReader(log), "kube-apiserver", time.Time{}, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, writes{Reads: 1, By: map[string]int{}}, w)

	// A prefix of the name is not the program.
	w, err = countWrites(strings.NewReader(log), "kube", time.Time{}, time.Time{})
	require.NoError(t, err)
	assert.Zero(t, w.Total)
}

func TestCountWritesWindow(t *testing.T) {
	log := readAudit(t)
	// From this command's update on (its requestReceivedTimestamp):
	// kube-controller-manager's one delete.
	w, err := countWrites(strings.NewReader(log), "kube-controller-manager", at(t, "2026-11-28T13:27:20.759787Z"), time.Time{})
	require.NoError(t, err)
	assert.Equal(t, writes{Total: 1, By: map[string]int{"delete pods": 1}}, w)

	// Until the conflict, excluded: the four writes before it.
	w, err = countWrites(strings.NewReader(log), "kube-controller-manager", time.Time{}, at(t, "2026-11-28T13:27:20.389483Z"))
	require.NoError(t, err)
	assert.Equal(t, 4, w.Total)
	assert.Zero(t, w.Conflicts)
}

func TestCountWritesStatuses(t *testing.T) {
	// A refusal other than a conflict is counted apart.
	log := strings.Replace(readAudit(t), `"code":201`, `"code":422`, 1)
	require.NotEqual(t, readAudit(t), log)
	w, err := countWrites(strings.NewReader(log), "kube-controller-manager", time.Time{}, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, 8, w.Total)
	assert.Equal(t, 1, w.Conflicts)
	assert.Equal(t, 1, w.Failed)

	// The RequestReceived stage of a request is not a second write.
	lines := strings.Split(strings.TrimSpace(readAudit(t)), "\n")
	received := strings.Replace(lines[2], `"stage":"ResponseComplete"`, `"stage":"RequestReceived"`, 1)
	require.NotEqual(t, lines[2], received)
	w, err = countWrites(strings.NewReader(strings.Join(append(lines, received), "\n")), "kube-controller-manager", time.Time{}, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, 8, w.Total)
}

func TestCountWritesRejectsOtherText(t *testing.T) {
	log := readAudit(t)
	_, err := countWrites(strings.NewReader(log+"{not json\n"), "kube-controller-manager", time.Time{}, time.Time{})
	assert.ErrorContains(t, err, "audit log line 15")
	_, err = countWrites(strings.NewReader(`{"kind":"Status"}`+"\n"), "kube-controller-manager", time.Time{}, time.Time{})
	assert.ErrorContains(t, err, "line 1: not an audit event")
}

func TestFromProgram(t *testing.T) {
	for _, c := range []struct {
		agent, program string
		want           bool
	}{
		{"kube-controller-manager/v0.0.0 (linux/amd64) kubernetes/$Format/deployment-controller", "kube-controller-manager", true},
		{"kube-controller-manager-v1.36.3/v0.0.0 (linux/amd64) kubernetes/$Format/replicaset-controller", "kube-controller-manager", true},
		{"kube-controller-manager-other/v0.0.0", "kube-controller-manager", false},
		{"rolloutplan-controller/v0.0.0 (linux/amd64) kubernetes/$Format", "rolloutplan-controller", true},
		{"rolloutplan-controller/v0.0.0 (linux/amd64) kubernetes/$Format", "kube-controller-manager", false},
		{"", "rolloutplan-controller", false},
	} {
		assert.Equal(t, c.want, fromProgram(c.agent, c.program), "%q from %q", c.agent, c.program)
	}
}

func TestAuditPolicyKeepsWritesAndReads(t *testing.T) {
	for _, v := range []string{"create", "update", "patch", "delete", "deletecollection", "get", "list"} {
		assert.Contains(t, auditPolicy, `"`+v+`"`)
	}
	assert.NotContains(t, auditPolicy, `"watch"`)
	flags := strings.Join(auditFlags("/p", "/l"), " ")
	assert.Contains(t, flags, "--audit-policy-file=/p")
	assert.Contains(t, flags, "--audit-log-path=/l")
	assert.Contains(t, flags, "--audit-log-mode=blocking")
}
