package model

import "strings"

// MaxNameLength is the longest object name the API server accepts (a DNS-1123
// subdomain).
const MaxNameLength = 253

// checkDNSSubdomain returns why name is not a DNS-1123 subdomain, or "":
// non-empty parts separated by single dots, each of a-z, 0-9 and '-',
// neither starting nor ending with '-'.
func checkDNSSubdomain(name string) string { return dnsSubdomainError(name, classLowerAlnum) }

// dnsSubdomainError is checkDNSSubdomain with the class of the letters and
// digits a part may hold besides '-': classLowerAlnum, or classAlnum to
// accept upper case letters as their lower case. It makes one pass over the
// bytes, remembering the previous one (a dot before the first); a letter or
// digit, by far the most common byte, costs one table look-up.
func dnsSubdomainError(name string, alnum byte) string {
	if name == "" {
		return "must not be empty"
	}
	if len(name) > MaxNameLength {
		return "must be no more than 253 characters"
	}
	prev := byte('.')
	for i := 0; i < len(name); i++ {
		c := name[i]
		if charClass[c]&alnum != 0 {
			prev = c
			continue
		}
		switch c {
		case '.':
			if prev == '.' || prev == '-' { // an empty part, or one ending with '-'
				return errDNSSubdomain
			}
		case '-':
			if prev == '.' { // a part starting with '-'
				return errDNSSubdomain
			}
		default:
			return errDNSSubdomain
		}
		prev = c
	}
	if prev == '-' || prev == '.' {
		return errDNSSubdomain
	}
	return ""
}

const errDNSSubdomain = "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"

// isDNSLabelPart reports whether s is one DNS-1123 label: a-z, 0-9 and '-',
// neither starting nor ending with '-'.
func isDNSLabelPart(s string) bool {
	return s != "" && s[0] != '-' && s[len(s)-1] != '-' && allIn(s, classDNS)
}

// checkLabelKey returns why key is not a valid label key (an optional DNS
// subdomain prefix and "/", then a name of at most 63 characters), or "".
func checkLabelKey(key string) string { return qualifiedNameError(key, classLowerAlnum) }

// annotationKeyValid reports whether checkLabelKey(strings.ToLower(key)) is
// "" (the API server's rule for annotation keys) without lowering an ASCII
// key, which would allocate when the key holds an upper case letter.
// Lowering ASCII maps A-Z to a-z and changes nothing else, and every rule of
// a label key that accepts a-z accepts A-Z in the same places once A-Z count
// as letters of the prefix (classAlnum instead of classLowerAlnum; the name
// part takes both cases already). A key with a non-ASCII byte is lowered as
// before: Unicode lowering can turn a non-ASCII letter into an ASCII one.
func annotationKeyValid(key string) bool {
	for i := 0; i < len(key); i++ {
		if key[i] >= 0x80 {
			return checkLabelKey(strings.ToLower(key)) == ""
		}
	}
	return qualifiedNameError(key, classAlnum) == ""
}

// qualifiedNameError is checkLabelKey with the class of the letters and
// digits of the prefix (see dnsSubdomainError).
func qualifiedNameError(key string, prefixAlnum byte) string {
	name := key
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		prefix := key[:i]
		name = key[i+1:]
		if msg := dnsSubdomainError(prefix, prefixAlnum); msg != "" {
			return "prefix " + msg
		}
	}
	if name == "" {
		return "name part must not be empty"
	}
	if msg := checkLabelValue(name); msg != "" {
		return "name part " + msg
	}
	return ""
}

// checkLabelValue returns why v is not a valid label value, or "".
func checkLabelValue(v string) string {
	if v == "" {
		return ""
	}
	if len(v) > 63 {
		return "must be no more than 63 characters"
	}
	if !isAlnum(v[0]) || !isAlnum(v[len(v)-1]) {
		return "must begin and end with an alphanumeric character"
	}
	if !allIn(v, classLabel) {
		return "must consist of alphanumeric characters, '-', '_' or '.'"
	}
	return ""
}

func isAlnum(c byte) bool { return charClass[c]&classAlnum != 0 }
