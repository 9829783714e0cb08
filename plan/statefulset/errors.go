package statefulset

import "strings"

// failure is an error of one write, or upstream's aggregate of several: a
// leaf has a kind and a message, an aggregate has children. Upstream's
// aggregate message (utilerrors) is the message of its only member, or the
// distinct leaf messages of all members, nested aggregates flattened, in
// brackets.
type failure struct {
	kind     ErrorKind
	msg      string
	children []*failure
}

func leaf(kind ErrorKind, msg string) *failure { return &failure{kind: kind, msg: msg} }

// aggregate is upstream's NewAggregate: nil members dropped, nil when none
// is left.
func aggregate(fs ...*failure) *failure {
	var kept []*failure
	for _, f := range fs {
		if f != nil {
			kept = append(kept, f)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return &failure{children: kept}
}

// members is upstream's Errors() of an aggregate; a leaf is its own only
// member.
func (f *failure) members() []*failure {
	if f.children != nil {
		return f.children
	}
	return []*failure{f}
}

// message renders f as upstream's Error() does.
func (f *failure) message() string {
	if f.children == nil {
		return f.msg
	}
	if len(f.children) == 1 {
		return f.children[0].message()
	}
	var seen []string
	f.visit(func(l *failure) {
		for _, s := range seen {
			if s == l.msg {
				return
			}
		}
		seen = append(seen, l.msg)
	})
	if len(seen) == 1 {
		return seen[0]
	}
	return "[" + strings.Join(seen, ", ") + "]"
}

// visit calls fn on every leaf, depth first.
func (f *failure) visit(fn func(*failure)) {
	if f.children == nil {
		fn(f)
		return
	}
	for _, c := range f.children {
		c.visit(fn)
	}
}

// firstKind is the kind of the first leaf.
func (f *failure) firstKind() ErrorKind {
	var k ErrorKind
	done := false
	f.visit(func(l *failure) {
		if !done {
			k, done = l.kind, true
		}
	})
	return k
}

// syncError converts f to the *SyncError the sync ends with.
func (f *failure) syncError() *SyncError {
	return &SyncError{Kind: f.firstKind(), Message: f.message()}
}
