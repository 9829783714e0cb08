package model

// charClass holds, for every byte value, the character classes of the
// name, label and UID rules as bits, so that a check reads one table entry
// per byte instead of comparing ranges:
//
//   - classDNS: a DNS-1123 label character: a-z, 0-9 or '-';
//   - classLabel: a label value character: A-Z, a-z, 0-9, '-', '_' or '.';
//   - classAlnum: A-Z, a-z or 0-9;
//   - classUID: printable ASCII other than space (0x21 to 0x7E);
//   - classLowerAlnum: a-z or 0-9.
//
// Bytes from 0x80 up belong to no class. TestCharClass checks every entry
// against these definitions. It is a constant, so it cannot change.
const charClass = "" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x0b\x0a\x08\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x08\x08\x08\x08\x08\x08" +
	"\x08\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x0e\x08\x08\x08\x08\x0a" +
	"\x08\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x1f\x08\x08\x08\x08\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

// The bits of charClass.
const (
	classDNS        = 1 << iota // a-z, 0-9, '-'
	classLabel                  // A-Z, a-z, 0-9, '-', '_', '.'
	classAlnum                  // A-Z, a-z, 0-9
	classUID                    // 0x21 to 0x7E
	classLowerAlnum             // a-z, 0-9
)

// allIn reports whether every byte of s belongs to class.
func allIn(s string, class byte) bool {
	for i := 0; i < len(s); i++ {
		if charClass[s[i]]&class == 0 {
			return false
		}
	}
	return true
}

// allUIDChars is allIn(s, classUID), eight bytes at a time: a word holds a
// byte outside 0x21..0x7E exactly when, in some byte, subtracting 0x21
// borrows from a byte below 0x80 (the byte is below 0x21), adding 1 reaches
// 0x80 (the byte is 0x7F), or the top bit is already set (0x80 and up). A
// borrow or carry crosses into the next byte only out of a byte that is
// already outside the range, so the answer for the word is exact.
// TestAllUIDChars checks it against the table.
func allUIDChars(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := load64(s[i:])
		if ((w-0x21*ones)&^w|(w+ones)|w)&highs != 0 {
			return false
		}
	}
	return allIn(s[i:], classUID)
}

// load64 reads the first eight bytes of s, little-endian.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
