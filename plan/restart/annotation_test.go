package restart

import (
	"errors"
	"maps"
	"strings"
	"testing"
)

func TestParseChecksums(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        map[string]string
		wantErr     string // substring of the error; "" for none
	}{
		{"seed example", `{"configmap/namespace-one/config-one":"189832cc316e7594","secret/namespace-one/secret-two":"6e79832c18c31594"}`,
			map[string]string{"configmap/namespace-one/config-one": "189832cc316e7594", "secret/namespace-one/secret-two": "6e79832c18c31594"}, ""},
		{"empty object", `{}`, map[string]string{}, ""},
		// The original kept a nil map here and panicked on its next update.
		{"null", `null`, map[string]string{}, ""},
		// Recorded warning text of restart-s1-0001.
		{"not JSON", `NOPE`, map[string]string{}, "invalid character 'N' looking for beginning of value"},
		{"empty string", ``, map[string]string{}, "unexpected end of JSON input"},
		{"number value", `{"configmap/a/b":1}`, map[string]string{}, "cannot unmarshal number"},
		{"array", `["a"]`, map[string]string{}, "cannot unmarshal array"},
		{"trailing data", `{} {}`, map[string]string{}, "invalid character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseChecksums(tc.value)
			if !maps.Equal(got, tc.want) || got == nil {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if tc.wantErr == "" {
				if err != nil {
					t.Errorf("error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, ErrMalformedChecksums) {
				t.Errorf("error %v, want one containing %q and matching ErrMalformedChecksums", err, tc.wantErr)
			}
		})
	}
}

func TestFormatChecksums(t *testing.T) {
	for _, tc := range []struct {
		in   map[string]string
		want string
	}{
		{nil, `{}`},
		{map[string]string{}, `{}`},
		// Keys sorted, as the original's json.Marshal of the map; the format
		// of the recorded patches (readme-rule2-restart).
		{map[string]string{"secret/ns/b": "2", "configmap/ns/a": "1"}, `{"configmap/ns/a":"1","secret/ns/b":"2"}`},
		{map[string]string{"configmap/default/settings": "1de9f2b6afb320ff"}, `{"configmap/default/settings":"1de9f2b6afb320ff"}`},
		{map[string]string{"<": ">"}, `{"\u003c":"\u003e"}`},
	} {
		got := FormatChecksums(tc.in)
		if got != tc.want {
			t.Errorf("%v: %s, want %s", tc.in, got, tc.want)
		}
		back, err := ParseChecksums(got)
		if err != nil || (len(tc.in) > 0 && !maps.Equal(back, tc.in)) {
			t.Errorf("%v: round trip %v, %v", tc.in, back, err)
		}
	}
}

func TestParseRef(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Ref
		wantErr error
	}{
		{"configmap/ns/a", Ref{KindConfigMap, "ns", "a"}, nil},
		{"secret//a", Ref{KindSecret, "", "a"}, nil},
		{"statefulset/ns/web", Ref{KindStatefulSet, "ns", "web"}, nil},
		{"pod/ns/a", Ref{}, ErrUnknownKind},
		{"configmap/ns", Ref{}, nil},
		{"configmap/ns/", Ref{}, nil},
		{"configmap/ns/a/b", Ref{}, nil},
	} {
		got, err := ParseRef(tc.in)
		if tc.want != (Ref{}) {
			if err != nil || got != tc.want || got.String() != tc.in {
				t.Errorf("%q: %v, %v", tc.in, got, err)
			}
			continue
		}
		if err == nil || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) {
			t.Errorf("%q: error %v, want %v", tc.in, err, tc.wantErr)
		}
	}
}

func TestEnabled(t *testing.T) {
	for _, tc := range []struct {
		ann  map[string]string
		want bool
	}{
		{map[string]string{AnnotationEnabled: "enabled"}, true},
		{map[string]string{AnnotationEnabled: "Enabled"}, false},
		{map[string]string{AnnotationEnabled: "true"}, false},
		{map[string]string{AnnotationEnabled: ""}, false},
		{nil, false},
	} {
		if got := Enabled(tc.ann); got != tc.want {
			t.Errorf("%v: %v", tc.ann, got)
		}
	}
}
