package input

import (
	"errors"
	"reflect"
	"strings"
)

// The errors of encoding/json (and of sigs.k8s.io/json, its fork) name Go
// types: "json: cannot unmarshal array into Go value of type struct {
// APIVersion string …}". A reader of a manifest knows fields and kinds of
// value, so the readers restate them with inDocumentTerms.

// inDocumentTerms is err's message in the document's terms: for a value of
// the wrong kind, "spec.replicas: got a string, want an integer"; for a
// number JSON cannot carry (YAML's .inf), what to write instead. Other
// errors keep their message.
func inDocumentTerms(err error) string {
	if field, got, want, ok := typeMismatch(err); ok {
		msg := "got " + got + ", want " + valueKind(want)
		if field != "" {
			msg = field + ": " + msg
		}
		return msg
	}
	msg := err.Error()
	if _, value, ok := strings.Cut(msg, "json: unsupported value: "); ok {
		return value + " is not a number JSON can carry (YAML's .inf and .nan have no JSON form): write a finite number"
	}
	return msg
}

// typeMismatch finds in err's chain an UnmarshalTypeError of encoding/json
// or of its fork (which does not export its type: it is recognised by its
// fields Value, Type and Field) and returns the field's path, the kind of
// value found ("a list") and the Go type wanted.
func typeMismatch(err error) (field, got string, want reflect.Type, ok bool) {
	for ; err != nil; err = errors.Unwrap(err) {
		v := reflect.ValueOf(err)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			continue
		}
		s := v.Elem()
		value, typ, fld := s.FieldByName("Value"), s.FieldByName("Type"), s.FieldByName("Field")
		if !value.IsValid() || value.Kind() != reflect.String || !fld.IsValid() || fld.Kind() != reflect.String ||
			!typ.IsValid() || !typ.Type().Implements(reflect.TypeFor[reflect.Type]()) || typ.IsNil() {
			continue
		}
		return fld.String(), article(value.String()), typ.Interface().(reflect.Type), true
	}
	return "", "", nil, false
}

// article names a JSON value kind as encoding/json reports it ("array",
// "object", "string", "number", "bool").
func article(kind string) string {
	switch {
	case kind == "array":
		return "a list"
	case kind == "object":
		return "an object"
	case kind == "bool":
		return "true or false"
	case strings.HasPrefix(kind, "number"): // "number", or "number 1.5" for a fraction where an integer goes
		return strings.TrimSpace("a " + kind)
	}
	return "a " + kind
}

// valueKind names the JSON value a Go type decodes from.
func valueKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Name() {
	case "IntOrString":
		return "an integer or a string"
	case "Quantity":
		return "a quantity (a string such as \"100m\" or a number)"
	case "Time", "MicroTime":
		return "a time (a string such as \"2026-01-02T15:04:05Z\")"
	case "RawMessage":
		return "a value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a string (base64)"
		}
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	}
	return "a value"
}
