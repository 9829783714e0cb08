package kubectl

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	apps "k8s.io/api/apps/v1"
)

// recordedViews is one line of testdata/kubectl-views-public.jsonl: what the
// real k8s.io/kubectl v0.36.3 helpers returned on the public conformance
// case with the same id.
type recordedViews struct {
	ID    string `json:"id"`
	Views struct {
		Status []struct {
			Revision int64  `json:"revision"`
			Message  string `json:"message"`
			Done     bool   `json:"done"`
			Error    string `json:"error"`
		} `json:"status"`
		History []struct {
			Query    string   `json:"query"`
			Revision int64    `json:"revision"`
			Output   string   `json:"output"`
			Error    string   `json:"error"`
			Warnings []string `json:"warnings"`
		} `json:"history"`
		Undo []struct {
			ToRevision int64  `json:"toRevision"`
			Query      string `json:"query"`
			DryRun     string `json:"dryRun"`
			Output     string `json:"output"`
			Error      string `json:"error"`
			Actions    []struct {
				Verb      string `json:"verb"`
				PatchType string `json:"patchType"`
				Patch     string `json:"patch"`
			} `json:"actions"`
		} `json:"undo"`
		Restart patchView `json:"restart"`
		Pause   patchView `json:"pause"`
		Resume  patchView `json:"resume"`
	} `json:"views"`
}

type patchView struct {
	Now   time.Time `json:"now"`
	Patch string    `json:"patch"`
	Error string    `json:"error"`
}

// publicCase is one line of testdata/public-seed1.jsonl.
type publicCase struct {
	Case appsv1.Case `json:"case"`
	Meta struct {
		ID string `json:"id"`
	} `json:"meta"`
}

// modelState is a case converted to the model, as the rollout functions
// take it.
type modelState struct {
	d   *model.Deployment
	rss []*model.ReplicaSet
	now time.Time
}

func toModel(t testing.TB, c appsv1.Case) modelState {
	t.Helper()
	s, err := convert(c.Deployment, c.ReplicaSets)
	if err != nil {
		t.Fatal(err)
	}
	s.now = c.Now
	return s
}

// convert converts a Deployment and its ReplicaSets to the model.
func convert(d *apps.Deployment, rss []*apps.ReplicaSet) (modelState, error) {
	md, err := appsv1.DeploymentToModel(d)
	if err != nil {
		return modelState{}, err
	}
	s := modelState{d: md}
	for _, rs := range rss {
		m, err := appsv1.ReplicaSetToModel(rs)
		if err != nil {
			return modelState{}, err
		}
		s.rss = append(s.rss, m)
	}
	return s, nil
}

func readJSONL[T any](t testing.TB, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

type modelDeployment = model.Deployment
