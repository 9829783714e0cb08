package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
)

// PodTemplate is a pod template. Labels and annotations are maps because the
// planners read and write them. Everything else a template carries (the pod
// spec, and any template metadata other than labels and annotations) is Spec:
// a JSON document, compared byte for byte and hashed as is, so an embedder's
// full PodSpec survives planning unchanged. Only validation reads into it
// ([ValidateTemplatePodSpec]), for the rules an API server applies to a
// workload's template.
//
// Spec must be canonical: equal templates must encode to equal strings. For
// JSON documents [CanonicalJSON] produces such an encoding. Being a string,
// Spec is immutable and cheap to copy.
type PodTemplate struct {
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Spec        string            `json:"spec,omitempty"`
}

// DeepCopy returns a copy sharing no maps with t.
func (t PodTemplate) DeepCopy() PodTemplate {
	return PodTemplate{Labels: maps.Clone(t.Labels), Annotations: maps.Clone(t.Annotations), Spec: t.Spec}
}

// EqualIgnoreHash reports whether two templates are equal when the
// pod-template-hash label is ignored on both sides, as upstream's
// EqualIgnoreHash: the value or presence of that label never matters, nil and
// empty maps are equal, and any other difference makes the templates unequal.
func EqualIgnoreHash(a, b PodTemplate) bool {
	return a.Spec == b.Spec &&
		equalStringMaps(a.Annotations, b.Annotations, "") &&
		equalStringMaps(a.Labels, b.Labels, PodTemplateHashLabel)
}

// equalStringMaps compares two maps as if key ignore (when non-empty) were
// absent from both, without copying either.
func equalStringMaps(a, b map[string]string, ignore string) bool {
	na, nb := len(a), len(b)
	if ignore != "" {
		if _, ok := a[ignore]; ok {
			na--
		}
		if _, ok := b[ignore]; ok {
			nb--
		}
	}
	if na != nb {
		return false
	}
	for k, va := range a {
		if ignore != "" && k == ignore {
			continue
		}
		if vb, ok := b[k]; !ok || va != vb {
			return false
		}
	}
	return true
}

// CanonicalJSON re-encodes a JSON document canonically: object keys sorted,
// insignificant white space removed, numbers kept exactly as written, and
// object members whose value is null or an empty array dropped, so that an
// omitted list and an empty one encode alike (upstream's semantic equality
// treats nil and empty slices as equal). Empty objects are kept: in apps/v1 an
// empty object is a set pointer, which semantic equality tells from nil.
// It is meant for [PodTemplate.Spec].
//
// A document that is not UTF-8, or that repeats a key within one object, is
// rejected with an error giving the byte offset ("invalid JSON: duplicate
// key \"a\" at offset 9"): decoding would fold such documents into others.
func CanonicalJSON(doc []byte) (string, error) {
	if err := checkJSONText(doc); err != nil {
		return "", err
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	// Only JSON white space may follow the document. (Decoder.More would
	// let a stray "]" or "}" through.)
	if off := dec.InputOffset(); len(bytes.Trim(doc[off:], " \t\r\n")) != 0 {
		return "", fmt.Errorf("invalid JSON: unexpected data after the document at offset %d", off)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(prune(v)); err != nil {
		return "", err
	}
	return string(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

func prune(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			e = prune(e)
			if isEmptyJSON(e) {
				delete(x, k)
				continue
			}
			x[k] = e
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = prune(e)
		}
		return x
	}
	return v
}

func isEmptyJSON(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case []any:
		return len(x) == 0
	}
	return false
}
