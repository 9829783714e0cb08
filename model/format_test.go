package model

import (
	"strings"
	"testing"
)

// The String methods stay on one line and short whatever the input: nil
// objects, unset fields and 10 000-byte names.
func TestStringMethodsShortAndNilSafe(t *testing.T) {
	long := strings.Repeat("n", 10000)
	cases := []struct {
		name string
		got  string
		want string
	}{
		{"nil deployment", (*Deployment)(nil).String(), "<nil>"},
		{"nil replicaset", (*ReplicaSet)(nil).String(), "<nil>"},
		{"nil pod", (*Pod)(nil).String(), "<nil>"},
		{"empty deployment", (&Deployment{}).String(),
			"Deployment <no name>: replicas unset, no strategy; status observed 0, replicas 0, updated 0, ready 0, available 0"},
		{"empty pod", (&Pod{}).String(), "Pod <no name>: no phase, not ready"},
		{"unset surge", (&Deployment{Spec: DeploymentSpec{Strategy: Strategy{Type: RollingUpdateStrategy, RollingUpdate: &RollingUpdate{}}}}).String(),
			"Deployment <no name>: replicas unset, RollingUpdate (maxSurge unset, maxUnavailable unset); status observed 0, replicas 0, updated 0, ready 0, available 0"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got\n%q\nwant\n%q", c.name, c.got, c.want)
		}
	}
	for _, s := range []string{
		(&Deployment{ObjectMeta: ObjectMeta{Name: long}}).String(),
		(&ReplicaSet{ObjectMeta: ObjectMeta{Name: long, Namespace: long}}).String(),
		(&Pod{ObjectMeta: ObjectMeta{Name: long}}).String(),
	} {
		if len(s) > 512 || strings.Contains(s, "\n") {
			t.Errorf("String of a 10 000-byte name has %d bytes (want at most 512, one line)", len(s))
		}
	}
}
