package restart

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

var t0 = time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC)

func at(sec float64) time.Time { return t0.Add(time.Duration(sec * float64(time.Second))) }

// harness drives a Tracker as the original's agent is driven: observations,
// deletions and restart-check passes whose patches all succeed unless told.
type harness struct {
	t  *testing.T
	tr *Tracker
}

func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	tr, err := NewTracker(opts)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t, tr}
}

func mustRef(s string) Ref {
	r, err := ParseRef(s)
	if err != nil {
		panic(err)
	}
	return r
}

func (h *harness) config(name, version, checksum string, sec float64) Observation {
	h.t.Helper()
	obs, err := h.tr.ObserveConfig(Config{Ref: mustRef(name), Version: version, Checksum: checksum}, at(sec))
	if err != nil {
		h.t.Fatal(err)
	}
	return obs
}

// podSpec references each config through envFrom.
func podSpec(refs ...string) string {
	var env []string
	for _, r := range refs {
		ref := mustRef(r)
		key := "configMapRef"
		if ref.Kind == KindSecret {
			key = "secretRef"
		}
		env = append(env, fmt.Sprintf(`{%q:{"name":%q}}`, key, ref.Name))
	}
	return `{"containers":[{"envFrom":[` + strings.Join(env, ",") + `],"image":"app:1","name":"main"}]}`
}

// workload builds an enabled workload; applied nil means no checksums
// annotation.
func workload(name, version string, applied map[string]string, refs ...string) Workload {
	ann := map[string]string{AnnotationEnabled: EnabledValue}
	if applied != nil {
		ann[AnnotationChecksums] = FormatChecksums(applied)
	}
	return Workload{Ref: mustRef(name), Version: version, Annotations: ann, Template: model.PodTemplate{Spec: podSpec(refs...)}}
}

func (h *harness) workload(w Workload, sec float64) Observation {
	h.t.Helper()
	obs, err := h.tr.ObserveWorkload(w, at(sec))
	if err != nil {
		h.t.Fatal(err)
	}
	return obs
}

// pass plans at sec and applies the result with all patches succeeding.
func (h *harness) pass(sec float64) Result {
	h.t.Helper()
	res := h.tr.Plan(at(sec), false)
	h.tr.Apply(res, nil)
	return res
}

// run ticks every half second from, to (inclusive) and returns every patch.
func (h *harness) run(from, to float64) []Patch {
	var out []Patch
	for s := from; s <= to+1e-9; s += 0.5 {
		out = append(out, h.pass(s).Patches...)
	}
	return out
}

func restarts(ps []Patch) int {
	n := 0
	for _, p := range ps {
		if p.Restart {
			n++
		}
	}
	return n
}

const (
	cfgA = "configmap/test/test"
	cfgB = "secret/test/test"
	dep  = "deployment/test/test-deployment"
	sts  = "statefulset/test/test-statefulset"
)
