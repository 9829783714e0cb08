package plan

// smallMap maps the few keys one sync touches to counts: a linear search
// over an inline array (no allocation), and a map once more than
// smallMapInline keys are stored (cleanup can delete many ReplicaSets).
type smallMap[K comparable] struct {
	keys [smallMapInline]K
	vals [smallMapInline]int
	n    int
	more map[K]int
}

const smallMapInline = 8

// get returns the value stored for k and whether there is one.
func (m *smallMap[K]) get(k K) (int, bool) {
	for i := range m.n {
		if m.keys[i] == k {
			return m.vals[i], true
		}
	}
	v, ok := m.more[k]
	return v, ok
}

// set stores v for k.
func (m *smallMap[K]) set(k K, v int) {
	for i := range m.n {
		if m.keys[i] == k {
			m.vals[i] = v
			return
		}
	}
	if m.n < smallMapInline {
		m.keys[m.n], m.vals[m.n] = k, v
		m.n++
		return
	}
	if m.more == nil {
		m.more = map[K]int{}
	}
	m.more[k] = v
}
