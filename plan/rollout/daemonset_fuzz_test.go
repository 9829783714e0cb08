package rollout

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
)

// FuzzDaemonSetRevisionTemplate feeds DaemonSetRevisionTemplate arbitrary
// revision data: it must not panic, must be deterministic, must refuse data
// that is not JSON with kubectl's "invalid JSON document", must fail only
// with a *RevisionDataError or ErrUnsupported, and must return a canonical
// template document; DaemonSetHistoryRevision must report exactly the
// *RevisionDataError cases as kubectl's "unable to parse history NAME".
func FuzzDaemonSetRevisionTemplate(f *testing.F) {
	f.Add(agentData("agent:v1"))
	f.Add(`{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"a":"b"},"annotations":{"c":"d"},"name":"x"},"spec":{"containers":[{"name":"a","image":"a:1"}]}}}}`)
	f.Add(`{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"a":1}}}}}`)
	f.Add(`{"spec":{"template":{"$patch":"delete"}}}`)
	f.Add(`{"spec":{"template":null}}`)
	f.Add(`{"spec":{"template":{"metadata":{}}}}`)
	f.Add(`{"spec":{"$setElementOrder/x":[]}}`)
	f.Add(`{"spec":null}`)
	f.Add(`null`)
	f.Add(`[]`)
	f.Add(`{`)
	f.Add(``)
	f.Fuzz(func(t *testing.T, data string) {
		ds := agent()
		r := agentRevision("agent-r", 1, data)
		r.Template = model.PodTemplate{Labels: map[string]string{"app": "agent"}, Spec: agentSpec("agent:v0")}
		got, err := DaemonSetRevisionTemplate(ds, r)
		again, err2 := DaemonSetRevisionTemplate(ds, r)
		if !cmp.Equal(got, again) || errText(err) != errText(err2) {
			t.Fatalf("not deterministic: %+v %v / %+v %v", got, err, again, err2)
		}
		if data != "" && !json.Valid([]byte(data)) && !errors.Is(err, ErrInvalidJSONDoc) {
			t.Fatalf("invalid JSON %q: %v", data, err)
		}
		_, isDataErr := errors.AsType[*RevisionDataError](err)
		switch {
		case err == nil:
			if got.Spec != "" {
				if c, cerr := model.CanonicalJSON([]byte(got.Spec)); cerr != nil || c != got.Spec {
					t.Fatalf("template document not canonical: %q (%v)", got.Spec, cerr)
				}
			}
		case isDataErr:
			if !cmp.Equal(got, model.PodTemplate{}) {
				t.Fatalf("template with an error: %+v", got)
			}
		case !errors.Is(err, ErrUnsupported):
			t.Fatalf("unexpected error %T: %v", err, err)
		}
		out, herr := DaemonSetHistoryRevision(ds, []*model.ControllerRevision{r}, 1)
		if parse := herr != nil && herr.Error() == "unable to parse history agent-r"; parse != isDataErr {
			t.Fatalf("history = %q, %v; template error %v", out, herr, err)
		}
		if herr == nil && !strings.HasPrefix(out, "Pod Template:\n") {
			t.Fatalf("history = %q", out)
		}
	})
}
