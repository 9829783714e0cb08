// Package cputime reads the CPU time the process has used, for benchmarks
// that report a cpu-ns/op metric: on a machine shared with other work, CPU
// time measures a benchmark's cost more steadily than the wall clock, as it
// leaves out the time spent waiting for a core.
//
// Start with [Process]: read it before and after the measured loop and
// divide the difference by b.N.
package cputime
