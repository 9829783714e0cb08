//go:build !unix

package model_test

import "time"

// processCPUTime is not available here: benchmarks report no CPU time.
func processCPUTime() time.Duration { return 0 }
