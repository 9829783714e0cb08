package model

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// MaxUIDLength is the longest UID validation accepts. API servers assign
// 36-character UUIDs; the limit leaves room for other generators while
// refusing what is clearly not a UID.
const MaxUIDLength = 128

// MaxNamespaceLength is the longest namespace name (a DNS-1123 label).
const MaxNamespaceLength = 63

// checkDNSLabel returns why s is not a DNS-1123 label (a namespace name), or
// "".
func checkDNSLabel(s string) string {
	if s == "" {
		return "must not be empty"
	}
	if len(s) > MaxNamespaceLength {
		return "must be no more than " + strconv.Itoa(MaxNamespaceLength) + " characters"
	}
	if !isDNSLabelPart(s) {
		return "must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	}
	return ""
}

// checkUID returns why a non-empty uid is not acceptable, or "".
func checkUID(uid string) string {
	if len(uid) > MaxUIDLength {
		return "must be no more than " + strconv.Itoa(MaxUIDLength) + " characters"
	}
	if !allUIDChars(uid) {
		return "must consist of printable ASCII characters other than space"
	}
	return ""
}

// validateNamespace checks a namespace: required for the Deployment (every
// object it plans lives in it), a DNS-1123 label whenever it is set.
func validateNamespace(errs *fieldErrs, at prefix, ns string, required bool) {
	if ns == "" && !required {
		return
	}
	if msg := checkDNSLabel(ns); msg != "" {
		errs.add(at.field("metadata.namespace"), ns, "%s", msg)
	}
}

// validateUID checks the syntax and length of a set UID.
func validateUID(errs *fieldErrs, at prefix, uid string) {
	if uid == "" {
		return
	}
	if msg := checkUID(uid); msg != "" {
		errs.add(at.field("metadata.uid"), uid, "%s", msg)
	}
}

// validateTemplateAnnotations checks the template's annotation keys the way
// the API server does: each, lower-cased, a qualified name (an optional DNS
// subdomain prefix and "/", then a name of at most 63 characters).
func validateTemplateAnnotations(errs *fieldErrs, at prefix, path string, annotations map[string]string) {
	ok := true
	for k := range annotations {
		if !annotationKeyValid(k) {
			ok = false
			break
		}
	}
	if ok {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(annotations)) {
		if msg := checkLabelKey(strings.ToLower(k)); msg != "" {
			errs.add(at.field(path+".metadata.annotations"), k, "%s", msg)
		}
	}
}
