package revision

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

func TestRevision(t *testing.T) {
	cases := []struct {
		name, reason string
		annotations  map[string]string
		want         int64
		wantErr      bool
	}{
		{"absent", "upstream Revision/MaxRevision/LastRevision: a missing annotation is revision 0 without error", nil, 0, false},
		{"absent-other-keys", "upstream Revision/MaxRevision/LastRevision: only the revision key matters", map[string]string{"x": "y"}, 0, false},
		{"plain", "decimal int64", map[string]string{model.RevisionAnnotation: "5"}, 5, false},
		{"plus", "upstream Revision/MaxRevision/LastRevision: strconv.ParseInt accepts a leading +", map[string]string{model.RevisionAnnotation: "+5"}, 5, false},
		{"minus", "upstream Revision/MaxRevision/LastRevision: and a leading -", map[string]string{model.RevisionAnnotation: "-5"}, -5, false},
		{"leading-zeros", "ParseInt accepts leading zeros", map[string]string{model.RevisionAnnotation: "007"}, 7, false},
		{"max", "largest int64", map[string]string{model.RevisionAnnotation: "9223372036854775807"}, 9223372036854775807, false},
		{"empty", "upstream Revision/MaxRevision/LastRevision: present but empty is an error, unlike absent", map[string]string{model.RevisionAnnotation: ""}, 0, true},
		{"garbage", "not a number", map[string]string{model.RevisionAnnotation: "abc"}, 0, true},
		{"space", "no trimming", map[string]string{model.RevisionAnnotation: " 5"}, 0, true},
		{"float", "base 10 integers only", map[string]string{model.RevisionAnnotation: "5.0"}, 0, true},
		{"hex", "base 10 only, no 0x prefix", map[string]string{model.RevisionAnnotation: "0x10"}, 0, true},
		{"overflow", "one past int64 is a range error", map[string]string{model.RevisionAnnotation: "9223372036854775808"}, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			got, err := Revision(c.annotations)
			if got != c.want || (err != nil) != c.wantErr {
				t.Fatalf("Revision = (%d, %v), want (%d, error %v)", got, err, c.want, c.wantErr)
			}
			if err == nil {
				return
			}
			if !errors.Is(err, ErrInvalidRevision) || !errors.Is(err, model.ErrInvalid) {
				t.Fatalf("error %v does not match ErrInvalidRevision and model.ErrInvalid", err)
			}
			var re *RevisionError
			if !errors.As(err, &re) || re.Value != c.annotations[model.RevisionAnnotation] {
				t.Fatalf("error %v is not a *RevisionError with the value", err)
			}
			var ne *strconv.NumError
			if !errors.As(err, &ne) {
				t.Fatalf("error %v does not wrap the strconv error", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, model.RevisionAnnotation) || !strings.Contains(msg, strconv.Quote(re.Value)) {
				t.Fatalf("message %q must name the annotation and quote the value", msg)
			}
		})
	}
	_, err := Revision(map[string]string{model.RevisionAnnotation: "abc"})
	if want := `metadata.annotations[deployment.kubernetes.io/revision]: invalid value "abc": invalid syntax`; err.Error() != want {
		t.Fatalf("message %q, want %q", err, want)
	}
}

func TestMaxAndLastRevision(t *testing.T) {
	r := func(v string) *model.ReplicaSet { return newRS("rs-"+v, rev(v)) }
	absent := newRS("absent")
	cases := []struct {
		name, reason string
		rss          []*model.ReplicaSet
		max, last    int64
	}{
		{"none", "upstream Revision/MaxRevision/LastRevision: both start at 0", nil, 0, 0},
		{"single", "no second revision: LastRevision 0", []*model.ReplicaSet{r("4")}, 4, 0},
		{"duplicates", "upstream Revision/MaxRevision/LastRevision: [3,3] ⇒ LastRevision 3 (duplicates count twice)", []*model.ReplicaSet{r("3"), r("3")}, 3, 3},
		{"ascending", "1,2,3: previous is 2", []*model.ReplicaSet{r("1"), r("2"), r("3")}, 3, 2},
		{"descending", "order does not matter: 5,1", []*model.ReplicaSet{r("5"), r("1")}, 5, 1},
		{"mixed", "unparsable skipped, absent counts as 0: [3, x, 7, absent]", []*model.ReplicaSet{r("3"), r("x"), r("7"), absent}, 7, 3},
		{"negative", "negative revisions never beat the initial 0", []*model.ReplicaSet{r("-5")}, 0, 0},
		{"nil-entry", "nil entries are skipped", []*model.ReplicaSet{nil, r("2")}, 2, 0},
		{"plus-sign", "+8 parses as 8", []*model.ReplicaSet{r("+8"), r("2")}, 8, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			if got := MaxRevision(c.rss); got != c.max {
				t.Errorf("MaxRevision = %d, want %d", got, c.max)
			}
			if got := LastRevision(c.rss); got != c.last {
				t.Errorf("LastRevision = %d, want %d", got, c.last)
			}
		})
	}
}
