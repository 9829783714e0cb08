package testenv

import (
	"errors"
	"fmt"
	"syscall"
	"time"
)

// Process is a child process whose output goes to a log file: the other
// components of a cluster (kube-controller-manager, kube-scheduler, a
// controller under test).
type Process struct {
	p    *proc
	name string
}

// StartProcess starts bin with args, its standard output and error
// appended to logPath.
func StartProcess(logPath, bin string, args ...string) (*Process, error) {
	p, err := start(logPath, bin, args...)
	if err != nil {
		return nil, err
	}
	return &Process{p: p, name: bin}, nil
}

// Done is closed when the process has exited.
func (p *Process) Done() <-chan struct{} { return p.p.done }

// Kill kills the process (SIGKILL) and waits for it.
func (p *Process) Kill() { p.p.kill() }

// Stop asks the process to stop (SIGTERM) and waits at most grace for it,
// then kills it. It returns an error when the process had to be killed or
// exited with a status other than 0 (or the SIGTERM's).
func (p *Process) Stop(grace time.Duration) error {
	select {
	case <-p.p.done:
	default:
		_ = p.p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.p.done:
		case <-time.After(grace):
			p.p.kill()
			return fmt.Errorf("%s: did not stop within %s of SIGTERM", p.name, grace)
		}
	}
	p.p.log.Close()
	st := p.p.cmd.ProcessState
	if st == nil {
		return errors.New(p.name + ": no exit status")
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGTERM {
		return nil
	}
	if !st.Success() {
		return fmt.Errorf("%s: %s", p.name, st)
	}
	return nil
}

// CPU is the user and system CPU time the process used; valid once it has
// exited (see [Process.Done]).
func (p *Process) CPU() time.Duration {
	st := p.p.cmd.ProcessState
	if st == nil {
		return 0
	}
	return st.UserTime() + st.SystemTime()
}
