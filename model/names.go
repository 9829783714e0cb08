package model

import "strings"

// MaxNameLength is the longest object name the API server accepts (a DNS-1123
// subdomain).
const MaxNameLength = 253

// checkDNSSubdomain returns why name is not a DNS-1123 subdomain, or "":
// non-empty parts separated by single dots, each of a-z, 0-9 and '-',
// neither starting nor ending with '-'. It makes one pass over the bytes,
// remembering the previous one (a dot before the first).
func checkDNSSubdomain(name string) string {
	if name == "" {
		return "must not be empty"
	}
	if len(name) > MaxNameLength {
		return "must be no more than 253 characters"
	}
	prev := byte('.')
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '.':
			if prev == '.' || prev == '-' { // an empty part, or one ending with '-'
				return errDNSSubdomain
			}
		case charClass[c]&classDNS == 0, c == '-' && prev == '.': // a bad character, or a part starting with '-'
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
func checkLabelKey(key string) string {
	name := key
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		prefix := key[:i]
		name = key[i+1:]
		if msg := checkDNSSubdomain(prefix); msg != "" {
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
