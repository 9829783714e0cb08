package model

import (
	"strings"
	"testing"
)

// TestCharClass checks every entry of the charClass table against the
// definitions of its classes, written out as ranges.
func TestCharClass(t *testing.T) {
	for c := 0; c < 256; c++ {
		lower := c >= 'a' && c <= 'z'
		upper := c >= 'A' && c <= 'Z'
		digit := c >= '0' && c <= '9'
		for _, k := range []struct {
			name  string
			class byte
			want  bool
		}{
			{"DNS", classDNS, lower || digit || c == '-'},
			{"label", classLabel, lower || upper || digit || c == '-' || c == '_' || c == '.'},
			{"alnum", classAlnum, lower || upper || digit},
			{"UID", classUID, c >= 0x21 && c <= 0x7e},
			{"lower alnum", classLowerAlnum, lower || digit},
		} {
			if got := charClass[c]&k.class != 0; got != k.want {
				t.Errorf("byte %#02x in class %s: %v, want %v", c, k.name, got, k.want)
			}
		}
	}
	if len(charClass) != 256 {
		t.Fatalf("charClass has %d entries, want 256", len(charClass))
	}
}

// splitDNSSubdomainOK is the DNS-1123 subdomain rule as written: non-empty
// dot-separated parts, each of a-z, 0-9 and '-' and neither starting nor
// ending with '-'. (Length is checked separately.)
func splitDNSSubdomainOK(name string) bool {
	for _, part := range strings.Split(name, ".") {
		if part == "" || part[0] == '-' || part[len(part)-1] == '-' || strings.Trim(part, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	return true
}

// TestDNSSubdomainMatchesSplit checks the one-pass subdomain check against
// the split rule on every string of up to four characters over an alphabet
// of the characters that matter ('a', '0', '-', '.', 'A', '_', 0x80).
func TestDNSSubdomainMatchesSplit(t *testing.T) {
	alphabet := []string{"a", "0", "-", ".", "A", "_", "\x80"}
	var walk func(s string, depth int)
	n := 0
	walk = func(s string, depth int) {
		if s != "" {
			n++
			if got, want := checkDNSSubdomain(s) == "", splitDNSSubdomainOK(s); got != want {
				t.Errorf("checkDNSSubdomain(%q) valid = %v, split rule says %v", s, got, want)
			}
		}
		if depth == 0 {
			return
		}
		for _, c := range alphabet {
			walk(s+c, depth-1)
		}
	}
	walk("", 4)
	if n < 2000 {
		t.Fatalf("checked only %d strings", n)
	}
}

// FuzzDNSSubdomain compares the one-pass subdomain check with the split rule.
func FuzzDNSSubdomain(f *testing.F) {
	for _, s := range []string{"a", "a.b", "a..b", ".a", "a.", "-a", "a-", "a-.b", "a.-b", "web-1.prod", "A", "a_b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" || len(s) > MaxNameLength {
			return
		}
		if got, want := checkDNSSubdomain(s) == "", splitDNSSubdomainOK(s); got != want {
			t.Fatalf("checkDNSSubdomain(%q) valid = %v, split rule says %v", s, got, want)
		}
	})
}

// TestAnnotationKeyValidMatchesLowering checks annotationKeyValid against
// the rule it stands for, checkLabelKey of the lower-cased key, on every
// key of up to four characters over an alphabet of the characters that
// matter, upper case, the Kelvin sign (which lowers to an ASCII 'k') and
// other non-ASCII included, and on keys at the length limits.
func TestAnnotationKeyValidMatchesLowering(t *testing.T) {
	alphabet := []string{"a", "B", "0", "-", ".", "/", "_", "\u212a", "\u00c9"}
	check := func(k string) {
		if got, want := annotationKeyValid(k), checkLabelKey(strings.ToLower(k)) == ""; got != want {
			t.Errorf("annotationKeyValid(%q) = %v, checkLabelKey of the lowered key says %v", k, got, want)
		}
	}
	var walk func(s string, depth int)
	walk = func(s string, depth int) {
		check(s)
		if depth == 0 {
			return
		}
		for _, c := range alphabet {
			walk(s+c, depth-1)
		}
	}
	walk("", 4)
	for _, k := range []string{
		strings.Repeat("A", 63), strings.Repeat("A", 64), strings.Repeat("P", 253) + "/x", strings.Repeat("P", 254) + "/x",
		"Example.COM/Name", "-Example.com/x", "EXAMPLE.com-/x", "kubectl.kubernetes.io/restartedAt", "\u212aubernetes.io/x",
	} {
		check(k)
	}
}

// FuzzAnnotationKeyValid compares annotationKeyValid with checkLabelKey of
// the lower-cased key.
func FuzzAnnotationKeyValid(f *testing.F) {
	for _, s := range []string{"a", "A/b", "Example.com/X", "kubectl.kubernetes.io/restartedAt", "\u212a", "a-/b", "-A/b", "a..b/c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, k string) {
		if got, want := annotationKeyValid(k), checkLabelKey(strings.ToLower(k)) == ""; got != want {
			t.Fatalf("annotationKeyValid(%q) = %v, checkLabelKey of the lowered key says %v", k, got, want)
		}
	})
}

// TestAllUIDChars checks the word-at-a-time UID character check against the
// table: every byte value at every position of strings of 1 to 17 bytes
// whose other bytes are valid, and strings with two bad bytes (where a
// borrow or carry could cross bytes).
func TestAllUIDChars(t *testing.T) {
	for n := 1; n <= 17; n++ {
		for pos := range n {
			for c := range 256 {
				b := []byte(strings.Repeat("a~!", 6)[:n])
				b[pos] = byte(c)
				if got, want := allUIDChars(string(b)), allIn(string(b), classUID); got != want {
					t.Fatalf("allUIDChars(%q) = %v, table says %v", b, got, want)
				}
				for _, d := range []byte{0x00, 0x20, 0x21, 0x7e, 0x7f, 0x80, 0xff} {
					b2 := append([]byte(nil), b...)
					b2[(pos+1)%n] = d
					if got, want := allUIDChars(string(b2)), allIn(string(b2), classUID); got != want {
						t.Fatalf("allUIDChars(%q) = %v, table says %v", b2, got, want)
					}
				}
			}
		}
	}
}

// FuzzAllUIDChars compares the word-at-a-time UID character check with the
// table.
func FuzzAllUIDChars(f *testing.F) {
	for _, s := range []string{"2926f4de-efdc-560d-a02b-c2f4aa1d780f", "uid with space", "\x7f\x80\xff\x00 !~", "abcdefgh\x20"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := allUIDChars(s), allIn(s, classUID); got != want {
			t.Fatalf("allUIDChars(%q) = %v, table says %v", s, got, want)
		}
	})
}
