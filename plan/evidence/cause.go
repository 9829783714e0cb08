package evidence

import (
	"fmt"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
)

// CauseKind says what kind of thing keeps a pod from being ready.
type CauseKind string

// Cause kinds.
const (
	// Unschedulable: the pod's PodScheduled condition is False; the
	// scheduler's reason and message say why no node fits.
	Unschedulable CauseKind = "Unschedulable"
	// Waiting: a container (or an init container) is not running yet;
	// the kubelet's waiting reason and message say why.
	Waiting CauseKind = "Waiting"
	// NotReady: the pod runs but is not ready: a readiness probe fails (or
	// a readiness gate is not met); the Ready condition's reason and
	// message say which containers.
	NotReady CauseKind = "NotReady"
)

// Waiting reasons the kubelet retries without end: the pod will not
// become ready until the image, the configuration or the program changes
// ([Cause.Blocking]).
const (
	ReasonImagePullBackOff           = "ImagePullBackOff"
	ReasonErrImagePull               = "ErrImagePull"
	ReasonInvalidImageName           = "InvalidImageName"
	ReasonCrashLoopBackOff           = "CrashLoopBackOff"
	ReasonCreateContainerConfigError = "CreateContainerConfigError"
)

// Cause is one thing that keeps a pod from being ready.
type Cause struct {
	Kind CauseKind `json:"kind"`
	// Container names the container of a Waiting or NotReady cause; Init
	// is set for an init container.
	Container string `json:"container,omitempty"`
	Init      bool   `json:"init,omitempty"`
	// Reason and Message are the kubelet's waiting reason and message, or
	// the condition's.
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	// Restarts is the container's restart count; LastExit how it ended
	// last ("Error, exit code 1"), when the kubelet recorded it.
	Restarts int32  `json:"restarts,omitempty"`
	LastExit string `json:"lastExit,omitempty"`
}

// Blocking reports whether the cause is one the kubelet retries without
// end, so that the pod will not become ready until something changes: a
// container waiting with ImagePullBackOff, ErrImagePull, InvalidImageName,
// CrashLoopBackOff or CreateContainerConfigError.
func (c Cause) Blocking() bool {
	if c.Kind != Waiting {
		return false
	}
	switch c.Reason {
	case ReasonImagePullBackOff, ReasonErrImagePull, ReasonInvalidImageName, ReasonCrashLoopBackOff, ReasonCreateContainerConfigError:
		return true
	}
	return false
}

// String is the cause in one line:
//
//	container "app" is waiting: ImagePullBackOff: Back-off pulling image "nginx:1.99"
//	container "app" is waiting: CrashLoopBackOff: back-off 40s restarting failed container (restarted 3 times, last exit: Error, exit code 1)
//	PodScheduled=False (Unschedulable): 0/3 nodes are available: 3 Insufficient cpu.
//	running but not ready: container "app" is not ready (Ready=False, ContainersNotReady: containers with unready status: [app])
func (c Cause) String() string {
	var b strings.Builder
	switch c.Kind {
	case Unschedulable:
		fmt.Fprintf(&b, "%s=False", model.PodScheduled)
		if c.Reason != "" {
			fmt.Fprintf(&b, " (%s)", c.Reason)
		}
		if c.Message != "" {
			fmt.Fprintf(&b, ": %s", c.Message)
		}
		return b.String()
	case Waiting:
		fmt.Fprintf(&b, "%s is waiting: %s", c.container(), c.Reason)
		if c.Message != "" {
			fmt.Fprintf(&b, ": %s", c.Message)
		}
	case NotReady:
		b.WriteString("running but not ready: ")
		if c.Container != "" {
			fmt.Fprintf(&b, "%s is not ready", c.container())
		} else {
			b.WriteString("the pod is not ready")
		}
		if c.Reason != "" || c.Message != "" {
			fmt.Fprintf(&b, " (%s=False", model.PodReady)
			if c.Reason != "" {
				fmt.Fprintf(&b, ", %s", c.Reason)
			}
			if c.Message != "" {
				fmt.Fprintf(&b, ": %s", c.Message)
			}
			b.WriteString(")")
		}
	default:
		fmt.Fprintf(&b, "%s: %s %s", c.Kind, c.Reason, c.Message)
	}
	switch {
	case c.Restarts > 0 && c.LastExit != "":
		fmt.Fprintf(&b, " (restarted %s, last exit: %s)", times(c.Restarts), c.LastExit)
	case c.Restarts > 0:
		fmt.Fprintf(&b, " (restarted %s)", times(c.Restarts))
	case c.LastExit != "":
		fmt.Fprintf(&b, " (last exit: %s)", c.LastExit)
	}
	return b.String()
}

func (c Cause) container() string {
	if c.Init {
		return fmt.Sprintf("init container %q", c.Container)
	}
	return fmt.Sprintf("container %q", c.Container)
}

func times(n int32) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// Diagnose names what keeps p from being ready, in the order the pod
// meets them: PodScheduled=False (the scheduler found no node), then
// each init container and each container that waits with a reason, then,
// when nothing waits, each running container that is not ready (failing
// readiness), or the Ready condition itself when every container is ready
// (a readiness gate). A waiting init container reported as
// PodInitializing, the kubelet's word for an init container that has not
// started yet, is left out when another init container is what it waits
// for. A ready pod, or one that reports nothing, has no cause.
func Diagnose(p *model.Pod) []Cause {
	if p == nil || model.IsPodReady(p) {
		return nil
	}
	var out []Cause
	for _, c := range p.Status.Conditions {
		if c.Type == model.PodScheduled && c.Status == model.ConditionFalse {
			out = append(out, Cause{Kind: Unschedulable, Reason: c.Reason, Message: c.Message})
			break
		}
	}
	waiting := 0
	var initCauses []Cause
	for _, s := range p.Status.InitContainerStatuses {
		if w := s.State.Waiting; w.Reason != "" {
			initCauses = append(initCauses, waitingCause(s, true))
		}
	}
	if len(initCauses) > 1 {
		// Init containers run one after another: the later ones wait with
		// PodInitializing for the first.
		initCauses = dropReason(initCauses, "PodInitializing")
	}
	out = append(out, initCauses...)
	waiting += len(initCauses)
	for _, s := range p.Status.ContainerStatuses {
		if w := s.State.Waiting; w.Reason != "" {
			out = append(out, waitingCause(s, false))
			waiting++
		}
	}
	if waiting > 0 || p.Status.Phase != model.PodRunning {
		return out
	}
	ready := p.ReadyCondition()
	var reason, message string
	if ready != nil {
		reason, message = ready.Reason, ready.Message
	}
	found := false
	for _, s := range p.Status.ContainerStatuses {
		if !s.Ready && s.State.Terminated == (model.ContainerStateTerminated{}) {
			out = append(out, Cause{Kind: NotReady, Container: s.Name, Reason: reason, Message: message, Restarts: s.RestartCount})
			found = true
		}
	}
	if !found {
		out = append(out, Cause{Kind: NotReady, Reason: reason, Message: message})
	}
	return out
}

func waitingCause(s model.ContainerStatus, init bool) Cause {
	c := Cause{Kind: Waiting, Container: s.Name, Init: init, Reason: s.State.Waiting.Reason, Message: s.State.Waiting.Message, Restarts: s.RestartCount}
	if t := s.LastTerminationState.Terminated; t != (model.ContainerStateTerminated{}) {
		c.LastExit = exit(t)
	}
	return c
}

// exit is "Error, exit code 1", "OOMKilled, exit code 137: message".
func exit(t model.ContainerStateTerminated) string {
	var parts []string
	if t.Reason != "" {
		parts = append(parts, t.Reason)
	}
	parts = append(parts, fmt.Sprintf("exit code %d", t.ExitCode))
	s := strings.Join(parts, ", ")
	if t.Message != "" {
		s += ": " + t.Message
	}
	return s
}

func dropReason(cs []Cause, reason string) []Cause {
	out := cs[:0:0]
	for _, c := range cs {
		if c.Reason != reason {
			out = append(out, c)
		}
	}
	return out
}
