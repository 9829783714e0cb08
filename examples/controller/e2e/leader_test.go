package e2e_test

import (
	"errors"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Two replicas of rolloutplan-controller with leader election, each behind
// its own proxy that counts its writes: while the first holds the Lease the
// second sends no write to a Deployment, ReplicaSet or Pod; when the first
// is SIGKILLed, the second takes the Lease within the lease duration of
// the first's last renewal and completes the rollout the first had left;
// stopped, it gives the Lease back.
func TestLeaderElection(t *testing.T) {
	ctx, ns := setup(t)
	bin := buildCommand(t, t.TempDir())
	pa, pb := newProxy(t), newProxy(t)
	args := append([]string{"--namespace", ns, "--kubelet-delay", "300ms"}, leaseArgs(ns)...)
	a := startChild(t, "replica A", bin, append([]string{"--kubeconfig", kubeconfigVia(t, pa)}, args...)...)
	idA := a.identity(t)
	waitFor(ctx, t, "replica A to take the Lease", 30*time.Second, func() (bool, error) {
		h, _, err := leaseHolder(ctx, ns)
		return err == nil && h == idA, nil
	})
	b := startChild(t, "replica B", bin, append([]string{"--kubeconfig", kubeconfigVia(t, pb)}, args...)...)
	idB := b.identity(t)
	waitFor(ctx, t, "replica B to see A lead", 30*time.Second, func() (bool, error) {
		return strings.Contains(b.output.String(), "held by "+idA), nil
	})

	o := observe(t, ns, "web", boundsCheck(6, 2, 1))
	create(ctx, t, rolling(deployment(ns, "web", 6, "nginx:1"), intstr.FromInt32(2), intstr.FromInt32(1)))
	waitComplete(ctx, t, ns, "web")
	update(ctx, t, ns, "web", setImage("nginx:2"))
	waitComplete(ctx, t, ns, "web")
	aWrites := len(pa.requests(workloadWrite))
	require.Positive(t, aWrites, "the leader wrote nothing")
	require.Empty(t, pb.requests(workloadWrite), "the replica without the Lease wrote")

	// Kill the leader in the middle of the next rollout.
	update(ctx, t, ns, "web", setImage("nginx:3"))
	waitFor(ctx, t, "the third rollout to start", 30*time.Second, func() (bool, error) {
		n, _ := newAndOld(ctx, t, ns, "nginx:3")
		return n >= 1, nil
	})
	require.NoError(t, a.cmd.Process.Kill())
	killed := time.Now()
	<-a.done
	holder, lastRenewA, err := leaseHolder(ctx, ns)
	require.NoError(t, err)
	require.Equal(t, idA, holder)
	var takenAt time.Time
	waitFor(ctx, t, "replica B to take the Lease", 3*testLeaseDuration, func() (bool, error) {
		l, err := client.CoordinationV1().Leases(ns).Get(ctx, "rolloutplan-controller", metav1.GetOptions{})
		if err != nil || l.Spec.HolderIdentity == nil || *l.Spec.HolderIdentity != idB {
			return false, nil
		}
		takenAt = l.Spec.AcquireTime.Time
		return true, nil
	})
	takeover := takenAt.Sub(lastRenewA)
	t.Logf("takeover: B acquired the Lease %s after A's last renewal (%s after the SIGKILL); lease duration %s, retry period 500ms",
		takeover.Round(10*time.Millisecond), time.Since(killed).Round(10*time.Millisecond), testLeaseDuration)
	// B takes the Lease once it has not seen it renewed for the lease
	// duration, at its next try (retry period with jitter 1.2) after that.
	assert.LessOrEqual(t, takeover, testLeaseDuration+1200*time.Millisecond+500*time.Millisecond, "takeover later than the lease duration and a retry")
	assert.GreaterOrEqual(t, takeover, testLeaseDuration-500*time.Millisecond, "B took a Lease that had not expired")
	bBefore := len(pb.requests(func(r request) bool { return workloadWrite(r) && r.at.Before(killed) }))
	require.Zero(t, bBefore, "replica B wrote before the takeover")

	d := waitComplete(ctx, t, ns, "web")
	assert.Equal(t, "3", d.Annotations[revisionAnnotation])
	assert.Len(t, replicaSets(ctx, t, ns), 3, "one ReplicaSet per revision")
	assert.Positive(t, len(pb.requests(workloadWrite)), "replica B wrote nothing after the takeover")
	t.Logf("writes to Deployments, ReplicaSets and Pods: replica A %d (leader until killed), replica B %d (all after the takeover)",
		len(pa.requests(workloadWrite)), len(pb.requests(workloadWrite)))

	// A stopped leader exits 0 and gives the Lease back.
	out, err := b.stop(t)
	require.NoError(t, err, out)
	h, _, err := leaseHolder(ctx, ns)
	require.NoError(t, err)
	assert.Empty(t, h, "the stopped leader kept the Lease")
	o.verify(t)
}

// A leader that cannot renew its Lease (its proxy answers every Lease
// update 500) stops within the renew deadline with exit 1 and one line on
// standard error, as kube-controller-manager stops, and sends no write
// after that; a shadow replica never takes the Lease.
func TestLeaderLosesLease(t *testing.T) {
	ctx, ns := setup(t)
	bin := buildCommand(t, t.TempDir())
	p := newProxy(t)
	a := startChild(t, "leader", bin, append([]string{"--kubeconfig", kubeconfigVia(t, p), "--namespace", ns, "--kubelet-delay", "300ms"}, leaseArgs(ns)...)...)
	idA := a.identity(t)
	shadow := startChild(t, "shadow", bin, append([]string{"--kubeconfig", kubeconfigVia(t, p), "--namespace", ns, "--shadow"}, leaseArgs(ns)...)...)
	create(ctx, t, deployment(ns, "web", 2, "nginx:1"))
	waitComplete(ctx, t, ns, "web")
	require.NotContains(t, shadow.output.String(), "waiting for the Lease", "--shadow campaigned for the Lease")
	h, _, err := leaseHolder(ctx, ns)
	require.NoError(t, err)
	require.Equal(t, idA, h)

	p.set(func(_ int, r *http.Request) fault {
		if strings.Contains(r.URL.Path, "/leases/") && r.Method == http.MethodPut {
			return serverError
		}
		return pass
	}, nil)
	refused := time.Now()
	select {
	case <-a.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the leader did not stop when it could not renew its Lease")
	}
	exited := time.Now()
	took := exited.Sub(refused)
	var exit *exec.ExitError
	require.True(t, errors.As(a.err, &exit), "exit: %v", a.err)
	assert.Equal(t, 1, exit.ExitCode())
	lines := strings.Split(strings.TrimSuffix(a.output.String(), "\n"), "\n")
	last := lines[len(lines)-1]
	assert.Contains(t, last, "rolloutplan-controller: lost the leader lease "+ns+"/rolloutplan-controller: not renewed within 3s")
	t.Logf("stopped %s after the Lease updates were refused: %s", took.Round(10*time.Millisecond), last)
	// The renew deadline (3s) after the last renewal, which came at most a
	// retry period (500ms) before the refusals began.
	assert.Less(t, took, 3*time.Second+2*time.Second)
	update(ctx, t, ns, "web", setImage("nginx:2"))
	time.Sleep(2 * time.Second)
	assert.Empty(t, p.requests(func(r request) bool { return workloadWrite(r) && r.at.After(exited) }), "writes after the leader stopped")

	out, err := shadow.stop(t)
	require.NoError(t, err, out)
	assert.Contains(t, out, "update deployments/status "+ns+"/web", "the shadow printed the writes of the update")
}
