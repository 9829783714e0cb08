package configrestarts

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/plan/restart/replay"
)

// FuzzParseScript: any input gives a script or an error, never a panic; a
// script accepted has at least one event and passes replay's own checks;
// printed as JSON and read again it is the same script; and a script the
// strict decoder accepts and replay.ParseScript (the lax decoder it
// replaces here: encoding/json, keys matched in any case, the last of
// repeated keys kept) reads too is the same script for both, so strictness
// only refuses, never reads otherwise. Seeds: the recorded scripts
// (testdata/scripts), the refused inputs of TestStrictScript and the
// checked-in corpus (testdata/fuzz/FuzzParseScript: issue 24's inputs).
func FuzzParseScript(f *testing.F) {
	files, err := filepath.Glob("testdata/scripts/*.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, tc := range strictCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s, err := parse(in)
		if err != nil {
			return
		}
		if len(s.Events) == 0 {
			t.Fatalf("accepted a script without events: %q", in)
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted a script replay refuses: %v", err)
		}
		printed, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		again, err := parse(printed)
		if err != nil {
			t.Fatalf("the printed script %s is refused: %v", printed, err)
		}
		if reprinted, _ := json.Marshal(again); !bytes.Equal(reprinted, printed) {
			t.Fatalf("printed and read again: %s, want %s", reprinted, printed)
		}
		if lax, err := replay.ParseScript(bytes.TrimSpace(in)); err == nil {
			if d := cmp.Diff(lax, s); d != "" {
				t.Fatalf("the strict and the lax decoders read %q differently (-lax +strict):\n%s", in, d)
			}
		}
	})
}
