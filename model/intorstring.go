package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// IntOrStringType says which field of an [IntOrString] holds the value.
type IntOrStringType int

// The two kinds of IntOrString.
const (
	Int    IntOrStringType = iota // IntVal holds the value
	String                        // StrVal holds the value, e.g. "25%"
)

// IntOrString is an absolute number or a string such as "25%", as in
// maxSurge and maxUnavailable. The zero value is the integer 0.
//
// It marshals to JSON as a bare number or a string, like apps/v1.
type IntOrString struct {
	Type   IntOrStringType
	IntVal int32
	StrVal string
}

// FromInt returns the integer value i.
func FromInt(i int32) IntOrString { return IntOrString{Type: Int, IntVal: i} }

// FromString returns the string value s, usually a percentage such as "25%".
func FromString(s string) IntOrString { return IntOrString{Type: String, StrVal: s} }

// IntOrStringPtr returns a pointer to a copy of v, for spec fields.
func IntOrStringPtr(v IntOrString) *IntOrString { return &v }

// ParseIntOrString reads text the way kubectl and intstr.Parse do: a decimal
// number that fits int32 becomes an integer, anything else a string value. It
// never fails; whether the string is a valid percentage is decided when it is
// resolved or validated. ParseIntOrString("3") is FromInt(3),
// ParseIntOrString("25%") is FromString("25%").
func ParseIntOrString(s string) IntOrString {
	if i, err := strconv.ParseInt(s, 10, 32); err == nil {
		return FromInt(int32(i))
	}
	return FromString(s)
}

// String returns the value as it would be written in a manifest: "3" or "25%".
func (v IntOrString) String() string {
	if v.Type == String {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// IsZeroLiteral reports whether the value is literally zero: the integer 0 or
// a percentage whose number is 0 ("0%", also "00%", as apps/v1 reads it).
// Validation forbids maxSurge and maxUnavailable from both being literally
// zero; values that merely round to zero are allowed.
func (v IntOrString) IsZeroLiteral() bool {
	if v.Type == String {
		n, err := ParsePercent(v.StrVal)
		return err == nil && n == 0
	}
	return v.IntVal == 0
}

// MarshalJSON writes a number for integers and a JSON string otherwise.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.Type == String {
		return json.Marshal(v.StrVal)
	}
	return json.Marshal(v.IntVal)
}

// UnmarshalJSON accepts a JSON string or an integer that fits int32. Like
// encoding/json's own types it treats null as "no value" and leaves v as is.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = FromString(s)
		return nil
	}
	i, err := strconv.ParseInt(string(b), 10, 32)
	if err != nil {
		return fmt.Errorf("IntOrString: %s is neither a string nor an int32", b)
	}
	*v = FromInt(int32(i))
	return nil
}
