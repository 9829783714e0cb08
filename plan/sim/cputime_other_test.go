//go:build !unix

package sim

import "time"

// cpuTime is unavailable here: CPU-time metrics read 0.
func cpuTime() time.Duration { return 0 }
