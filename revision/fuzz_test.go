package revision

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// FuzzRevision: parsing any annotation value never panics, agrees with
// strconv.ParseInt, and a bad value gives a well-formed error; the
// functions that read revisions stay consistent with it.
func FuzzRevision(f *testing.F) {
	// More seeds live in testdata/fuzz/FuzzRevision.
	f.Add("7", true)
	f.Fuzz(func(t *testing.T, v string, present bool) {
		var ann map[string]string
		if present {
			ann = map[string]string{model.RevisionAnnotation: v}
		}
		got, err := Revision(ann)
		if !present {
			if got != 0 || err != nil {
				t.Fatalf("absent: (%d, %v)", got, err)
			}
			return
		}
		want, werr := strconv.ParseInt(v, 10, 64)
		if (err != nil) != (werr != nil) || (err == nil && got != want) {
			t.Fatalf("Revision(%q) = (%d, %v), ParseInt = (%d, %v)", v, got, err, want, werr)
		}
		if err != nil {
			if got != 0 || !errors.Is(err, ErrInvalidRevision) || !errors.Is(err, model.ErrInvalid) {
				t.Fatalf("bad error for %q: (%d, %v)", v, got, err)
			}
			if msg := err.Error(); !strings.Contains(msg, model.RevisionAnnotation) || !strings.Contains(msg, strconv.Quote(v)) {
				t.Fatalf("message %q must name the annotation and quote %q", msg, v)
			}
		}

		fuzzed := newRS("fuzzed", rev(v), created(time.Second))
		rss := []*model.ReplicaSet{fuzzed, newRS("three", rev("3")), newRS("one", rev("1"), created(2*time.Second))}
		if MaxRevision(rss) < LastRevision(rss) {
			t.Fatal("MaxRevision < LastRevision")
		}
		for _, other := range rss[1:] {
			if sign(ByRevision(fuzzed, other)) != -sign(ByRevision(other, fuzzed)) {
				t.Fatal("ByRevision is not antisymmetric")
			}
		}
		for limit := int32(0); limit <= 3; limit++ {
			if got, want := names(ToDelete(rss, &limit)), names(upstreamCleanup(rss, &limit)); !slices.Equal(got, want) {
				t.Fatalf("limit %d: ToDelete %v, upstream model %v", limit, got, want)
			}
		}
	})
}

// FuzzSetNewReplicaSetAnnotations: any annotations, revisions and limit;
// never panics, and the history obeys upstream's length rule.
func FuzzSetNewReplicaSetAnnotations(f *testing.F) {
	// More seeds live in testdata/fuzz/FuzzSetNewReplicaSetAnnotations.
	f.Add("team", "shop", "3", true, "1,2", true, "4", 2000)
	f.Fuzz(func(t *testing.T, dKey, dVal, oldRev string, hasOld bool, history string, hasHistory bool, newRev string, limit int) {
		d := webDeployment("web:1")
		d.Annotations = map[string]string{dKey: dVal}
		rs := newRS("web-1")
		if hasOld || hasHistory {
			rs.Annotations = map[string]string{}
		}
		if hasOld {
			rs.Annotations[model.RevisionAnnotation] = oldRev
		}
		if hasHistory {
			rs.Annotations[model.RevisionHistoryAnnotation] = history
		} else {
			history = "" // what upstream reads for an absent annotation
		}
		before := rs.DeepCopy()
		dBefore := d.DeepCopy()

		changed := SetNewReplicaSetAnnotations(d, rs, newRev, limit)

		if d.Annotations[dKey] != dBefore.Annotations[dKey] || len(d.Annotations) != 1 {
			t.Fatal("the Deployment was modified")
		}
		// The rules of upstream SetNewReplicaSetAnnotations, restated: a missing or empty revision is 0, any
		// other unparsable one stops everything, and the revision is raised
		// only when the new one is higher.
		oldStr := ""
		if hasOld {
			oldStr = oldRev
		}
		oldVal, oldErr := strconv.ParseInt(oldStr, 10, 64)
		oldUsable := oldErr == nil || oldStr == ""
		newVal, newErr := strconv.ParseInt(newRev, 10, 64)
		bumped := oldUsable && newErr == nil && oldVal < newVal

		gotRev, hasRev := rs.Annotations[model.RevisionAnnotation]
		if bumped {
			if gotRev != newRev || !changed {
				t.Fatalf("revision %q (changed %v), want %q", gotRev, changed, newRev)
			}
		} else if hasRev != hasOld || gotRev != before.Annotations[model.RevisionAnnotation] {
			t.Fatalf("revision changed to %q without a bump", gotRev)
		}

		gotHistory, hasGotHistory := rs.Annotations[model.RevisionHistoryAnnotation]
		historyChanged := hasGotHistory != hasHistory || gotHistory != history
		if historyChanged {
			if !bumped || !hasOld {
				t.Fatalf("history changed to %q without a reused revision", gotHistory)
			}
			firstEmpty := strings.Split(history, ",")[0] == ""
			if len(gotHistory) > limit && (!firstEmpty || gotHistory != oldRev) {
				t.Fatalf("history %q (%d chars) exceeds limit %d", gotHistory, len(gotHistory), limit)
			}
			if !strings.HasSuffix(gotHistory, oldRev) {
				t.Fatalf("history %q does not end with the former revision %q", gotHistory, oldRev)
			}
		}
		// The copy never touches skip-list keys, and non-skip keys end up
		// equal to the Deployment's.
		if !model.IsSkippedAnnotation(dKey) && rs.Annotations[dKey] != dVal {
			t.Fatalf("annotation %q not copied", dKey)
		}
		if !changed && !bumped && !model.IsSkippedAnnotation(dKey) && oldUsable && newErr == nil {
			if v, ok := before.Annotations[dKey]; !ok || v != dVal {
				t.Fatal("a copy happened but was not reported")
			}
		}
	})
}
