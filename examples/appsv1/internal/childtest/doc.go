// Package childtest runs the test binary again as a child process to
// measure the peak memory of one piece of work alone (see RunChild, Linux
// only: it reads the child's rusage).
package childtest
