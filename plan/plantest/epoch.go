package plantest

import "time"

// Epoch returns the clock the generators of package gen build around:
// 2026-01-01T00:00:00Z.
func Epoch() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
