package model

import "strings"

// MaxNameLength is the longest object name the API server accepts (a DNS-1123
// subdomain).
const MaxNameLength = 253

// checkDNSSubdomain returns why name is not a DNS-1123 subdomain, or "".
func checkDNSSubdomain(name string) string {
	if name == "" {
		return "must not be empty"
	}
	if len(name) > MaxNameLength {
		return "must be no more than 253 characters"
	}
	for part := range strings.SplitSeq(name, ".") {
		if !isDNSLabelPart(part) {
			return "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
		}
	}
	return ""
}

func isDNSLabelPart(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
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
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return "must consist of alphanumeric characters, '-', '_' or '.'"
		}
	}
	return ""
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
