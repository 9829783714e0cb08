package controller_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

func election(id string) controller.LeaderElection {
	return controller.LeaderElection{Namespace: "kube-system", Name: "rolloutplan-controller", Identity: id,
		LeaseDuration: 2 * time.Second, RenewDeadline: time.Second, RetryPeriod: 100 * time.Millisecond}
}

// The checks client-go's leader elector makes, and a Lease named.
func TestLeaderElectionValidate(t *testing.T) {
	require.NoError(t, election("a").Validate())
	require.NoError(t, controller.LeaderElection{Namespace: "ns", Name: "n", Identity: "a"}.Validate(), "the defaults are valid")
	for _, tc := range []struct {
		name string
		edit func(*controller.LeaderElection)
		want string
	}{
		{"no namespace", func(l *controller.LeaderElection) { l.Namespace = "" }, "the Lease needs a namespace and a name"},
		{"no identity", func(l *controller.LeaderElection) { l.Identity = "" }, "identity is empty"},
		{"short lease", func(l *controller.LeaderElection) { l.LeaseDuration = 500 * time.Millisecond }, "lease duration 500ms: want 1s or more"},
		{"renew not below lease", func(l *controller.LeaderElection) { l.RenewDeadline = 2 * time.Second }, "renew deadline 2s: want more than 0 and less than the lease duration 2s"},
		{"retry too long", func(l *controller.LeaderElection) { l.RetryPeriod = 900 * time.Millisecond }, "retry period 900ms"},
	} {
		l := election("a")
		tc.edit(&l)
		err := l.Validate()
		require.ErrorIs(t, err, controller.ErrOptions, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
	}
}

// Two candidates on one Lease: the first runs, the second waits; the
// first, stopped, gives the Lease back once its run returned, and the
// second takes it at its next try, well within the lease duration (4 s
// here: without the release it would wait about that long).
func TestRunAsLeaderHandsOver(t *testing.T) {
	client := fake.NewClientset()
	long := func(id string) controller.LeaderElection {
		l := election(id)
		l.LeaseDuration, l.RenewDeadline = 4*time.Second, 3*time.Second
		return l
	}
	var running atomic.Int32
	var both atomic.Bool
	run := func(ctx context.Context) error {
		if running.Add(1) > 1 {
			both.Store(true)
		}
		<-ctx.Done()
		// Still working after the stop: the Lease must stay held until
		// run returns.
		time.Sleep(300 * time.Millisecond)
		running.Add(-1)
		return nil
	}
	ctxA, stopA := context.WithCancel(context.Background())
	doneA := make(chan error, 1)
	go func() { doneA <- controller.RunAsLeader(ctxA, client, long("a"), run) }()
	require.Eventually(t, func() bool { return running.Load() == 1 }, 5*time.Second, 10*time.Millisecond)

	ctxB, stopB := context.WithCancel(context.Background())
	defer stopB()
	ledB := make(chan time.Time, 1)
	doneB := make(chan error, 1)
	go func() {
		doneB <- controller.RunAsLeader(ctxB, client, long("b"), func(ctx context.Context) error {
			ledB <- time.Now()
			return run(ctx)
		})
	}()
	time.Sleep(500 * time.Millisecond)
	assert.Equal(t, int32(1), running.Load(), "b ran while a held the Lease")

	stopped := time.Now()
	stopA()
	require.NoError(t, <-doneA)
	var took time.Duration
	select {
	case at := <-ledB:
		took = at.Sub(stopped)
	case <-time.After(10 * time.Second):
		t.Fatal("b never took the Lease")
	}
	t.Logf("b took the Lease %s after a was stopped", took)
	assert.GreaterOrEqual(t, took, 300*time.Millisecond, "the Lease was given back before a's run returned")
	assert.Less(t, took, 2*time.Second, "b waited for the Lease to expire: a did not give it back")
	assert.False(t, both.Load(), "a and b ran at once")
	stopB()
	require.NoError(t, <-doneB)
}

// A leader whose Lease updates fail loses it within the renew deadline:
// its run's context ends and RunAsLeader returns ErrLeaderLost.
func TestRunAsLeaderLost(t *testing.T) {
	client := fake.NewClientset()
	var refuse atomic.Bool
	client.PrependReactor("update", "leases", func(k8stesting.Action) (bool, runtime.Object, error) {
		if refuse.Load() {
			return true, nil, errors.New("refused by the test")
		}
		return false, nil, nil
	})
	led := make(chan struct{})
	ran := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- controller.RunAsLeader(context.Background(), client, election("a"), func(ctx context.Context) error {
			close(led)
			<-ctx.Done()
			close(ran)
			return nil
		})
	}()
	<-led
	refuse.Store(true)
	start := time.Now()
	select {
	case err := <-done:
		require.ErrorIs(t, err, controller.ErrLeaderLost)
		assert.Contains(t, err.Error(), "lost the leader lease kube-system/rolloutplan-controller: not renewed within 1s")
	case <-time.After(10 * time.Second):
		t.Fatal("RunAsLeader did not return after the renewals failed")
	}
	select {
	case <-ran:
	default:
		t.Fatal("RunAsLeader returned before run")
	}
	took := time.Since(start)
	assert.Less(t, took, 3*time.Second, "lost later than the renew deadline and a retry")
	l, err := client.CoordinationV1().Leases("kube-system").Get(context.Background(), "rolloutplan-controller", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "a", *l.Spec.HolderIdentity, "a lost Lease is not written (another holder may have it)")
}

// Stopped before it takes the Lease (held by another), RunAsLeader returns
// nil without running.
func TestRunAsLeaderStoppedWaiting(t *testing.T) {
	client := fake.NewClientset()
	ctxA, stopA := context.WithCancel(context.Background())
	defer stopA()
	led := make(chan struct{})
	go func() {
		_ = controller.RunAsLeader(ctxA, client, election("a"), func(ctx context.Context) error {
			close(led)
			<-ctx.Done()
			return nil
		})
	}()
	<-led
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	err := controller.RunAsLeader(ctx, client, election("b"), func(context.Context) error {
		t.Error("b ran while a held the Lease")
		return nil
	})
	require.NoError(t, err)
}
