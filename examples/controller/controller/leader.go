package controller

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	coordination "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// ErrLeaderLost is matched (errors.Is) by the error [RunAsLeader] returns
// when the Lease was lost (not renewed within the renew deadline, or taken
// by another holder) while the controllers ran.
var ErrLeaderLost = errors.New("lost the leader lease")

// LeaderElection configures [RunAsLeader]. The zero durations take
// kube-controller-manager's defaults (--leader-elect-lease-duration 15s,
// --leader-elect-renew-deadline 10s, --leader-elect-retry-period 2s).
type LeaderElection struct {
	// Namespace and Name name the Lease (coordination.k8s.io/v1).
	Namespace, Name string
	// Identity is this candidate's holder identity in the Lease; it must
	// differ between the replicas (kube-controller-manager uses the host
	// name and a random suffix).
	Identity string
	// LeaseDuration is how long a candidate that is not the leader waits,
	// from the last renewal it saw, before it takes the Lease.
	LeaseDuration time.Duration
	// RenewDeadline is how long the leader keeps trying to renew before it
	// gives the leadership up; less than LeaseDuration.
	RenewDeadline time.Duration
	// RetryPeriod is the wait between two tries to take or renew the
	// Lease; less than RenewDeadline.
	RetryPeriod time.Duration
	// OnNewLeader, when set, is called with the identity of every new
	// leader observed, this candidate's own included.
	OnNewLeader func(identity string)
}

// The defaults of kube-controller-manager's leader election flags.
const (
	DefaultLeaseDuration = 15 * time.Second
	DefaultRenewDeadline = 10 * time.Second
	DefaultRetryPeriod   = 2 * time.Second
)

// Validate checks the configuration as client-go's leader elector does,
// with durations in whole seconds or more for the lease (the Lease stores
// its duration in seconds).
func (le LeaderElection) Validate() error {
	le = le.withDefaults()
	switch {
	case le.Namespace == "" || le.Name == "":
		return fmt.Errorf("%w: the Lease needs a namespace and a name", ErrOptions)
	case le.Identity == "":
		return fmt.Errorf("%w: the leader election identity is empty", ErrOptions)
	case le.LeaseDuration < time.Second:
		return fmt.Errorf("%w: lease duration %s: want 1s or more", ErrOptions, le.LeaseDuration)
	case le.RenewDeadline <= 0 || le.RenewDeadline >= le.LeaseDuration:
		return fmt.Errorf("%w: renew deadline %s: want more than 0 and less than the lease duration %s", ErrOptions, le.RenewDeadline, le.LeaseDuration)
	case le.RetryPeriod <= 0 || float64(le.RenewDeadline) <= leaderelection.JitterFactor*float64(le.RetryPeriod):
		return fmt.Errorf("%w: retry period %s: want more than 0 and less than the renew deadline %s divided by %g", ErrOptions, le.RetryPeriod, le.RenewDeadline, leaderelection.JitterFactor)
	}
	return nil
}

func (le LeaderElection) withDefaults() LeaderElection {
	if le.LeaseDuration == 0 {
		le.LeaseDuration = DefaultLeaseDuration
	}
	if le.RenewDeadline == 0 {
		le.RenewDeadline = DefaultRenewDeadline
	}
	if le.RetryPeriod == 0 {
		le.RetryPeriod = DefaultRetryPeriod
	}
	return le
}

// RunAsLeader waits until this candidate holds the Lease, then calls run
// with a context that ends when ctx ends or when the Lease is lost. It
// returns:
//
//   - run's error, or nil, when ctx ended (before or after the Lease was
//     taken) or run returned on its own; the Lease is then given back, once
//     run has returned, so that another replica takes over at once instead
//     of after the lease duration;
//   - an error matching [ErrLeaderLost] when the Lease was lost while run
//     ran; run has returned by then, and the Lease is not touched (another
//     replica may hold it). A process should then stop, as
//     kube-controller-manager does, rather than try to lead again with
//     informer caches and queues from its previous term.
//
// Giving the Lease back only after run returned is why the leader elector
// runs without client-go's ReleaseOnCancel, which releases while run may
// still be sending writes.
func RunAsLeader(ctx context.Context, client kubernetes.Interface, le LeaderElection, run func(context.Context) error) error {
	if err := le.Validate(); err != nil {
		return err
	}
	le = le.withDefaults()
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: le.Namespace, Name: le.Name},
		Client:     client.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: le.Identity},
	}
	// The elector runs on its own context so that a stop (ctx ending)
	// while leading lets run finish before the elector stops renewing.
	ectx, stopElector := context.WithCancel(context.WithoutCancel(ctx))
	defer stopElector()
	var (
		mu      sync.Mutex
		started bool
		lost    bool // the elector's context ended while run ran
		runErr  error
		ran     = make(chan struct{})
	)
	// Stopped before the Lease was taken: end the campaign.
	stopCampaign := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !started {
			stopElector()
		}
	})
	defer stopCampaign()
	elector, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:          lock,
		Name:          le.Name,
		LeaseDuration: le.LeaseDuration,
		RenewDeadline: le.RenewDeadline,
		RetryPeriod:   le.RetryPeriod,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(lctx context.Context) {
				defer close(ran)
				mu.Lock()
				if ctx.Err() != nil {
					mu.Unlock()
					stopElector()
					return
				}
				started = true
				mu.Unlock()
				rctx, cancel := context.WithCancel(lctx)
				defer cancel()
				stop := context.AfterFunc(ctx, cancel)
				defer stop()
				err := run(rctx)
				mu.Lock()
				runErr = err
				lost = lctx.Err() != nil && ctx.Err() == nil
				mu.Unlock()
				stopElector()
			},
			OnStoppedLeading: func() {},
			OnNewLeader:      le.OnNewLeader,
		},
	})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrOptions, err)
	}
	elector.Run(ectx)
	mu.Lock()
	wasStarted := started
	mu.Unlock()
	if !wasStarted {
		return nil
	}
	// The elector returned: either run returned (and stopped it), or the
	// renewal failed, which ends run's context; wait for run either way.
	<-ran
	mu.Lock()
	err, wasLost := runErr, lost
	mu.Unlock()
	if wasLost {
		msg := fmt.Sprintf("not renewed within %s", le.RenewDeadline)
		if h := elector.GetLeader(); h != "" && h != le.Identity {
			msg += fmt.Sprintf(", now held by %q", h)
		}
		return fmt.Errorf("%w %s/%s: %s", ErrLeaderLost, le.Namespace, le.Name, msg)
	}
	release(client, le)
	return err
}

// release gives the Lease back when this candidate still holds it: no
// holder and a one-second duration, as client-go's release writes, so that
// the next candidate takes it at its next try. The update carries the
// Lease's resourceVersion: if another holder took it meanwhile, the server
// refuses it and nothing is lost.
func release(client kubernetes.Interface, le LeaderElection) {
	ctx, cancel := context.WithTimeout(context.Background(), le.RenewDeadline)
	defer cancel()
	leases := client.CoordinationV1().Leases(le.Namespace)
	l, err := leases.Get(ctx, le.Name, metav1.GetOptions{})
	if err != nil || l.Spec.HolderIdentity == nil || *l.Spec.HolderIdentity != le.Identity {
		return
	}
	now := metav1.NewMicroTime(time.Now())
	l.Spec = coordination.LeaseSpec{
		LeaseDurationSeconds: new(int32(1)),
		LeaseTransitions:     l.Spec.LeaseTransitions,
		AcquireTime:          &now,
		RenewTime:            &now,
	}
	// A failed release only delays the next leader by the lease duration.
	_, _ = leases.Update(ctx, l, metav1.UpdateOptions{})
}
