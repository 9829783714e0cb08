package testenv

// Options configure [StartWith].
type Options struct {
	// APIServerFlags are extra kube-apiserver flags, given after the fixed
	// ones (for a flag given twice the API server keeps the last value),
	// each time the API server starts: e.g. an audit policy and log.
	APIServerFlags []string
}

// Pid is the process's id, for reading what the kernel reports about it
// while it runs (its CPU time so far, in /proc/<pid>/stat).
func (p *Process) Pid() int { return p.p.cmd.Process.Pid }
