//go:build unix

package model_test

import (
	"syscall"
	"time"
)

// processCPUTime is the CPU time (user and system) the test process has
// used so far, or 0 when it cannot be read.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
