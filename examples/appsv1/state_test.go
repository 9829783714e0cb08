package appsv1

import "testing"

func TestUnmarshalStrictRejectsTrailingData(t *testing.T) {
	for _, in := range []string{`{"a":1} ]]}`, `{"a":1}}`, `{"a":1} {"b":2}`, `[1]]`} {
		var v any
		if err := unmarshalStrict([]byte(in), &v); err == nil {
			t.Errorf("UnmarshalStrict(%q) accepted trailing data", in)
		}
	}
	var v any
	if err := unmarshalStrict([]byte(" {\"a\":1} \n\t"), &v); err != nil {
		t.Errorf("white space after the document: %v", err)
	}
}
