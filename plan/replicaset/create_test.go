package replicaset

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

func TestSlowStartBatches(t *testing.T) {
	tests := []struct {
		name, reason string
		n            int
		want         []int
	}{
		{"one", "worked example of manageReplicas' slow-start batches row 1", 1, []int{1}},
		{"seven", "worked example of manageReplicas' slow-start batches row 2: 1+2+4 = 7 exactly", 7, []int{1, 2, 4}},
		{"ten", "worked example of manageReplicas' slow-start batches row 3: the last batch is cut to what remains", 10, []int{1, 2, 4, 3}},
		{"burst", "worked example of manageReplicas' slow-start batches row 4: 800 capped at 500 gives 255 in full batches, then 245", 500, []int{1, 2, 4, 8, 16, 32, 64, 128, 245}},
		{"two", "upstream manageReplicas: doubling from 1", 2, []int{1, 1}},
		{"three", "upstream manageReplicas: 1, then min(2, 2)", 3, []int{1, 2}},
		{"zero", "nothing to create", 0, nil},
		{"negative", "nothing to create", -3, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			got := SlowStartBatches(tc.n)
			if !slices.Equal(got, tc.want) {
				t.Errorf("SlowStartBatches(%d) = %v, want %v", tc.n, got, tc.want)
			}
			sum := 0
			for _, b := range got {
				sum += b
			}
			if sum != max(tc.n, 0) {
				t.Errorf("batches sum to %d, want %d", sum, tc.n)
			}
		})
	}
}

// TestSlowStartSync runs the slow-start batches through Sync: the batches planned, the
// burst cap, and the failure path.
func TestSlowStartSync(t *testing.T) {
	failAttempt := func(k int) Option {
		return WithCreateFault(func(attempt int, pod *model.Pod) error {
			if attempt == k {
				return errors.New("admission webhook denied the request")
			}
			return nil
		})
	}
	tests := []struct {
		name, reason string
		desired      int32
		opts         []Option
		attempts     int
		created      int
		batches      int64
		err          string
	}{
		{"one", "worked example of manageReplicas' slow-start batches row 1: one pod, one batch", 1, nil, 1, 1, 1, ""},
		{"seven", "worked example of manageReplicas' slow-start batches row 2: batches 1, 2, 4", 7, nil, 7, 7, 3, ""},
		{"ten", "worked example of manageReplicas' slow-start batches row 3: batches 1, 2, 4, 3", 10, nil, 10, 10, 4, ""},
		{"burst", "worked example of manageReplicas' slow-start batches row 4: 800 missing, capped at 500 in 9 batches", 800, nil, 500, 500, 9, ""},
		{"fail-batch-2", "worked example of manageReplicas' slow-start batches row 5: the second create of batch 2 (attempt 2) fails: batch 2 completes, 2 created, 8 skipped", 10, []Option{failAttempt(2)}, 3, 2, 4, "admission webhook denied the request"},
		{"fail-first", "upstream manageReplicas: a failure in batch 1 stops everything after one attempt", 10, []Option{failAttempt(0)}, 1, 0, 4, "admission webhook denied the request"},
		{"quota", "upstream manageReplicas: a quota of 4 lets batches 1 and 2 through, then batch 3 (4 pods) has 1 success and 3 failures", 10, []Option{WithCreateQuota(4)}, 7, 4, 4, `exceeded quota`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			rs := mkRS("web", tc.desired)
			p, err := Sync(rs, nil, nil, t0, tc.opts...)
			serr := syncError(t, err)
			attempts := names(p, CreatePod)
			if len(attempts) != tc.attempts {
				t.Errorf("%d create attempts, want %d", len(attempts), tc.attempts)
			}
			if got := p.Count(CreatePod); got != tc.created {
				t.Errorf("%d pods created, want %d", got, tc.created)
			}
			scaleUp := p.Notes[0]
			if scaleUp.Code != NoteScaleUp {
				t.Fatalf("first note %s, want ScaleUp", scaleUp.Code)
			}
			if got, _ := scaleUp.Value("batches"); got != tc.batches {
				t.Errorf("batches = %d, want %d", got, tc.batches)
			}
			if tc.err == "" {
				if serr != nil {
					t.Errorf("unexpected error %v", serr)
				}
				return
			}
			if serr == nil || !strings.Contains(serr.Message, tc.err) || serr.Kind != ErrKindFailedCreate {
				t.Fatalf("err = %+v, want FailedCreate containing %q", serr, tc.err)
			}
			cond := p.Status.Conditions
			if len(cond) != 1 || cond[0].Reason != model.ReasonFailedCreate || cond[0].Message != serr.Message || !cond[0].LastTransitionTime.Equal(t0) {
				t.Errorf("conditions = %+v, want one FailedCreate with the error text at now", cond)
			}
			var stopped *Reason
			for i := range p.Notes {
				if p.Notes[i].Code == NoteCreateStopped {
					stopped = &p.Notes[i]
				}
			}
			if stopped == nil {
				t.Fatalf("no CreateStopped note in %+v", p.Notes)
			}
			if got, _ := stopped.Value("skipped"); got != int64(int(tc.desired)-tc.created) {
				t.Errorf("skipped = %d, want %d", got, int(tc.desired)-tc.created)
			}
			if p.RequeueAfter != 0 {
				t.Errorf("requeue %v after an error", p.RequeueAfter)
			}
		})
	}
}

func TestCreatedPodShape(t *testing.T) {
	rs := mkRS("web-5d7", 2)
	rs.Spec.Template.Labels["pod-template-hash"] = "5d7"
	rs.Spec.Selector.MatchLabels["pod-template-hash"] = "5d7"
	p, err := Sync(rs, nil, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range p.Actions {
		if a.Kind != CreatePod {
			continue
		}
		pod := a.Pod
		if a.GenerateName != "web-5d7-" || !strings.HasPrefix(pod.Name, "web-5d7-") || len(pod.Name) != len("web-5d7-")+5 {
			t.Errorf("name %q / generateName %q", pod.Name, a.GenerateName)
		}
		for _, c := range pod.Name[len("web-5d7-"):] {
			if !strings.ContainsRune(nameSuffixAlphabet, c) {
				t.Errorf("suffix of %q uses %q, outside the API server's alphabet", pod.Name, c)
			}
		}
		want := model.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-5d7", UID: "rs-web-5d7", Controller: true, BlockOwnerDeletion: true}
		if len(pod.OwnerReferences) != 1 || pod.OwnerReferences[0] != want {
			t.Errorf("owner references %+v", pod.OwnerReferences)
		}
		if pod.Namespace != "ns" || pod.Labels["pod-template-hash"] != "5d7" || pod.Labels["app"] != "web" || pod.Annotations["team"] != "a" || pod.Spec.Body != rs.Spec.Template.Spec {
			t.Errorf("pod %+v does not carry the template", pod)
		}
		// The created pod must not share maps with the template.
		pod.Labels["x"] = "y"
		if _, ok := rs.Spec.Template.Labels["x"]; ok {
			t.Fatal("created pod aliases the template labels")
		}
	}
	if a, b := p.Actions[0].Name, p.Actions[1].Name; a == b {
		t.Errorf("two pods named %q", a)
	}
}

func TestGenerateNamePrefix(t *testing.T) {
	long := strings.Repeat("a", model.MaxNameLength)
	tests := []struct{ name, reason, in, want string }{
		{"short", "upstream getPodsPrefix: <rs.name>-", "web", "web-"},
		{"252", "a 252-character name still takes the dash (253 masked)", long[:252], long[:252] + "-"},
		{"253", "upstream getPodsPrefix: the dash would exceed 253 characters, so the bare name", long, long},
	}
	for _, tc := range tests {
		needReason(t, tc.name, tc.reason)
		if got := GenerateName(tc.in); got != tc.want {
			t.Errorf("%s: GenerateName = %q", tc.name, got)
		}
	}
	// The API server keeps 58 characters of the prefix.
	if got := DefaultPodName(long+"-", "u", 0); len(got) != 63 || got[:58] != long[:58] {
		t.Errorf("DefaultPodName of a long prefix = %q (%d chars)", got, len(got))
	}
}

// TestNamesAvoidExistingPods: a name already in use in the namespace is
// skipped, so repeated syncs of a simulator never collide.
func TestNamesAvoidExistingPods(t *testing.T) {
	rs := mkRS("web", 3)
	first := DefaultPodName("web-", rs.UID, 0)
	second := DefaultPodName("web-", rs.UID, 1)
	squatter := mkPod(first, labels("other", "x"))
	p, err := Sync(rs, []*model.Pod{squatter}, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	got := names(p, CreatePod)
	if slices.Contains(got, first) || got[0] != second {
		t.Errorf("created %v; %q is taken, so the first should be %q", got, first, second)
	}
}

func TestPodNamer(t *testing.T) {
	rs := mkRS("web", 3)
	existing := mkPod("web-1", labels("other", "x"))
	namer := func(prefix string, n int) string { return fmt.Sprintf("%s%d", prefix, n) }
	p, err := Sync(rs, []*model.Pod{existing}, nil, t0, WithPodNamer(namer))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(p, CreatePod), []string{"web-0", "web-2", "web-3"}; !slices.Equal(got, want) {
		t.Errorf("names %v, want %v (web-1 is taken)", got, want)
	}
	constant := func(string, int) string { return "same" }
	if _, err := Sync(rs, nil, nil, t0, WithPodNamer(constant)); err == nil {
		t.Error("a namer that repeats itself must end in an error, not a loop")
	}
}

// TestNoLabelsTemplate: upstream refuses to create a pod without labels
// before calling the API (no event), which stops the slow start at once.
func TestNoLabelsTemplate(t *testing.T) {
	rs := mkRS("web", 3)
	// A selector the API server accepts that matches a template without
	// labels (an empty selector is refused).
	rs.Spec.Selector = &model.LabelSelector{MatchExpressions: []model.LabelSelectorRequirement{{Key: "app", Operator: model.SelectorOpDoesNotExist}}}
	rs.Spec.Template.Labels = nil
	p, err := Sync(rs, nil, nil, t0)
	if serr := syncError(t, err); serr == nil || serr.Message != "unable to create pods, no labels" || serr.Kind != ErrKindFailedCreate {
		t.Fatalf("err = %+v", serr)
	}
	if len(names(p, CreatePod)) != 1 || p.Count(CreatePod) != 0 || len(p.Events) != 0 {
		t.Errorf("want one rejected attempt and no events, got %+v", p.Actions)
	}
}

// TestNamespaceTerminating: creates rejected because the namespace is being
// deleted count as successes: no error, no event, all batches attempted.
func TestNamespaceTerminating(t *testing.T) {
	rs := mkRS("web", 4)
	fault := WithCreateFault(func(int, *model.Pod) error {
		return fmt.Errorf("unable to create new content in namespace ns because it is being terminated: %w", ErrNamespaceTerminating)
	})
	p, err := Sync(rs, nil, nil, t0, fault)
	if err != nil || len(names(p, CreatePod)) != 4 || p.Count(CreatePod) != 0 || len(p.Events) != 0 {
		t.Errorf("err %v, %d attempts, %d accepted, %d events; want nil, 4, 0, 0", err, len(names(p, CreatePod)), p.Count(CreatePod), len(p.Events))
	}
}

// TestEmptySelectorRefused: the API server refuses a ReplicaSet whose
// selector is empty; planning one would adopt every pod of the namespace.
func TestEmptySelectorRefused(t *testing.T) {
	rs := mkRS("web", 1)
	rs.Spec.Selector = &model.LabelSelector{}
	unrelated := mkPod("db-0", labels("app", "db"))
	_, err := Sync(rs, []*model.Pod{unrelated}, nil, t0)
	var fe *model.FieldError
	if !errors.As(err, &fe) || fe.Field != "replicaSet.spec.selector" {
		t.Fatalf("err = %v, want one naming replicaSet.spec.selector", err)
	}
}
