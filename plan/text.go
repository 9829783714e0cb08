package plan

import (
	"strings"
	"unsafe"
)

// A plan's sentences (the messages of its reasons, events, conditions and
// error) are written to its text memory, not allocated one string each:
// a first chunk of bytes comes with the plan's memory (see newMemory), and
// when a sentence does not fit in what is left of the current chunk
// (textChunk), a new chunk is allocated. A chunk is append-only: its bytes
// are never written again once a string has been made over them, and no
// chunk is ever used by another sync (each sync has its own plan memory),
// so a plan's strings stay what they were for as long as the plan lives.
//
// Every sync writes some text: over the recorded conformance states, a
// quarter write at most 140 bytes, half at most 270, nine in ten at most
// 600, none more than 1100.
const (
	// plannerTextSize is the first chunk of a Planner's sync: what fills
	// its plan memory's size class, 1024 bytes (Go's allocator rounds an
	// object up to a size class, after a header of 8 bytes for one with
	// pointers of more than 512 bytes). The syncs that write nothing, the
	// steady state of a controller, write at most about 200 bytes.
	plannerTextSize = 1024 - mallocHeader - int(unsafe.Sizeof(planMemory{}))
	// syncTextSize is the first chunk of a sync of Sync: what fills its
	// memory's size class, 2688 bytes.
	syncTextSize = 2688 - mallocHeader - int(unsafe.Sizeof(planMemory{})+unsafe.Sizeof(writeMemory{})+unsafe.Sizeof(workArea{})+unsafe.Sizeof(specCopy{}))
	// mallocHeader is the allocator's header of an object with pointers
	// of more than 512 bytes.
	mallocHeader = 8
	// textChunkSize is the size of a further chunk (or of the sentence, when
	// longer).
	textChunkSize = 512
	// sentenceSize is the stack room a sentence is formatted in before it
	// is copied to the text memory: the longest of the planner's sentences
	// with a name of the longest kind (253 characters) fits (a longer
	// one moves to the heap while formatted).
	sentenceSize = 384
)

// text returns b as a string in m's text memory (a string of its own when
// m is nil).
func (m *planMemory) text(b []byte) string {
	if m == nil {
		return string(b)
	}
	if len(b) == 0 {
		return ""
	}
	if len(b) > cap(m.textChunk)-len(m.textChunk) {
		// The full chunk is left as it is: strings point into it.
		m.textChunk = make([]byte, 0, max(textChunkSize, len(b)))
	}
	start := len(m.textChunk)
	m.textChunk = append(m.textChunk, b...)
	return unsafe.String(&m.textChunk[start], len(b))
}

// sprintf is fmt.Sprintf for the planner's sentences (see appendf), with
// the result in m's text memory (a string of its own when m is nil).
func (m *planMemory) sprintf(format string, args ...any) string {
	var buf [sentenceSize]byte
	return m.text(appendf(buf[:0], format, args...))
}

// reason returns a reason whose message is format with args (see appendf),
// in m's text memory. A sentence without a verb or arguments is its format,
// not copied.
func (m *planMemory) reason(code ReasonCode, values []Value, format string, args ...any) Reason {
	msg := format
	if len(args) > 0 || strings.IndexByte(format, '%') >= 0 {
		msg = m.sprintf(format, args...)
	}
	return Reason{Code: code, Message: msg, Values: values}
}

// reasonAfter is reason with the message written after lead, text the
// caller formatted before it (in a sentence's room, see sentenceSize).
func (m *planMemory) reasonAfter(lead []byte, code ReasonCode, values []Value, format string, args ...any) Reason {
	return Reason{Code: code, Message: m.text(appendf(lead, format, args...)), Values: values}
}
