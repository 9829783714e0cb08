package plan

// newSyncer returns a syncer started for a sync of s, for tests that drive
// a sync's steps themselves (syncValid starts one on its stack).
func newSyncer(s State, cfg config) *syncer {
	sy := new(syncer)
	sy.start(s, cfg)
	return sy
}
