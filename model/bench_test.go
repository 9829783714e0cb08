package model_test

import (
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// benchSnapshot is one Deployment with 10 ReplicaSets and 100 Pods, all valid.
func benchSnapshot() (*model.Deployment, []*model.ReplicaSet, []*model.Pod) {
	d := validDeployment()
	rss := make([]*model.ReplicaSet, 10)
	for i := range rss {
		rss[i] = validReplicaSet(fmt.Sprintf("web-%d", i), fmt.Sprintf("rs-uid-%d", i), 10)
	}
	pods := make([]*model.Pod, 100)
	for i := range pods {
		p := validPod(fmt.Sprintf("web-%d-pod%d", i/10, i), fmt.Sprintf("pod-uid-%d", i))
		p.OwnerReferences = []model.OwnerReference{model.NewControllerRef("apps/v1", model.ReplicaSetKind, rss[i/10].Name, rss[i/10].UID)}
		p.Status.ContainerStatuses = []model.ContainerStatus{{Name: "web", RestartCount: int32(i % 3)}}
		pods[i] = p
	}
	return d, rss, pods
}

func BenchmarkValidate(b *testing.B) {
	d, rss, pods := benchSnapshot()
	if err := model.Validate(d, rss, pods); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := model.Validate(d, rss, pods); err != nil {
			b.Fatal(err)
		}
	}
}

var benchSelector = &model.LabelSelector{
	MatchLabels: map[string]string{"app": "web", model.PodTemplateHashLabel: "5d7b9c"},
	MatchExpressions: []model.LabelSelectorRequirement{
		{Key: "track", Operator: model.SelectorOpIn, Values: []string{"stable", "canary"}},
		{Key: "example.com/blocked", Operator: model.SelectorOpDoesNotExist},
	},
}

var benchLabels = map[string]string{
	"app": "web", model.PodTemplateHashLabel: "5d7b9c", "track": "stable",
	"tier": "frontend", "app.kubernetes.io/version": "1.25.3",
}

// BenchmarkLabelSelectorMatches checks and evaluates the selector each call.
func BenchmarkLabelSelectorMatches(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := benchSelector.Matches(benchLabels); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkMatcherMatches evaluates a selector checked once, per pod.
func BenchmarkMatcherMatches(b *testing.B) { benchMatcher(b, benchSelector, benchLabels) }

// benchMatcher times a Matcher of sel, checked once, matching labels.
func benchMatcher(b *testing.B, sel *model.LabelSelector, labels map[string]string) {
	m, err := model.NewMatcher(sel)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !m.Matches(labels) {
			b.Fatal("no match")
		}
	}
}

// BenchmarkCanonicalJSON re-encodes a pod spec of a typical size, with the
// check for repeated keys and invalid UTF-8.
func BenchmarkCanonicalJSON(b *testing.B) {
	doc := []byte(`{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80,"protocol":"TCP"}],` +
		`"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"resources":{"limits":{"cpu":"500m","memory":"128Mi"}}}],` +
		`"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := model.CanonicalJSON(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatcherMatchesLabelsOnly evaluates a selector of matchLabels
// alone, the usual Deployment selector, checked once, per object.
func BenchmarkMatcherMatchesLabelsOnly(b *testing.B) {
	benchMatcher(b, &model.LabelSelector{MatchLabels: map[string]string{"app": "web", "tier": "frontend"}}, benchLabels)
}

// BenchmarkMatcherMatchesManyLabels evaluates a selector of six
// matchLabels (more than a Matcher keeps without an allocation), checked
// once, per object.
func BenchmarkMatcherMatchesManyLabels(b *testing.B) {
	sel := &model.LabelSelector{MatchLabels: map[string]string{
		"app": "web", "tier": "frontend", "track": "stable", model.PodTemplateHashLabel: "5d7b9c",
		"app.kubernetes.io/version": "1.25.3", "zone": "a",
	}}
	labels := map[string]string{
		"app": "web", model.PodTemplateHashLabel: "5d7b9c", "track": "stable",
		"tier": "frontend", "app.kubernetes.io/version": "1.25.3", "zone": "a", "team": "x",
	}
	benchMatcher(b, sel, labels)
}

// BenchmarkNewSharedMatcher prepares the usual Deployment selector (two
// matchLabels), as a planner does once per sync.
func BenchmarkNewSharedMatcher(b *testing.B) {
	sel := &model.LabelSelector{MatchLabels: map[string]string{"app": "web", model.PodTemplateHashLabel: "5d7b9c"}}
	b.ReportAllocs()
	for b.Loop() {
		if m, err := model.NewSharedMatcher(sel); err != nil || !m.Matches(benchLabels) {
			b.Fatal(err)
		}
	}
}
