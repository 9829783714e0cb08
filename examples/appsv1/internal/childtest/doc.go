// Package childtest runs the test binary again as a child process to
// measure the peak memory of one piece of work alone (see RunChild, Linux
// only: it reads the child's rusage). A test package using it calls Launch
// first in its TestMain: the launcher RunChild starts stops there.
package childtest
