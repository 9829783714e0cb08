package model_test

import (
	"errors"
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
)

// Default fills in what the API server would; ValidateDeployment then names
// the offending field of anything the planners cannot work with.
func ExampleValidateDeployment() {
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "6f1c"},
		Spec: model.DeploymentSpec{
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}},
			Strategy: model.Strategy{RollingUpdate: &model.RollingUpdate{
				MaxSurge: model.IntOrStringPtr(model.ParseIntOrString("12x%")),
			}},
		},
	}
	def := model.Default(d)
	ru := def.Spec.Strategy.RollingUpdate
	fmt.Println("replicas:", *def.Spec.Replicas, "strategy:", def.Spec.Strategy.Type,
		"maxUnavailable:", ru.MaxUnavailable, "maxSurge:", ru.MaxSurge,
		"revisionHistoryLimit:", *def.Spec.RevisionHistoryLimit,
		"progressDeadlineSeconds:", *def.Spec.ProgressDeadlineSeconds)
	fmt.Println("input untouched:", d.Spec.Replicas == nil)

	err := model.ValidateDeployment(def)
	fmt.Println(err)
	var fe *model.FieldError
	if errors.As(err, &fe) {
		fmt.Println("field:", fe.Field)
	}
	fmt.Println("invalid input:", errors.Is(err, model.ErrInvalid))
	// Output:
	// replicas: 1 strategy: RollingUpdate maxUnavailable: 25% maxSurge: 12x% revisionHistoryLimit: 10 progressDeadlineSeconds: 600
	// input untouched: true
	// spec.strategy.rollingUpdate.maxSurge: invalid value "12x%": must be an integer or a percentage such as "25%"
	// field: spec.strategy.rollingUpdate.maxSurge
	// invalid input: true
}

func ExampleParseIntOrString() {
	for _, s := range []string{"3", "25%", "2147483648"} {
		v := model.ParseIntOrString(s)
		fmt.Printf("%q: int=%v value=%v zero=%v\n", s, v.Type == model.Int, v, v.IsZeroLiteral())
	}
	fmt.Println(model.ParseIntOrString("0%").IsZeroLiteral())
	// Output:
	// "3": int=true value=3 zero=false
	// "25%": int=false value=25% zero=false
	// "2147483648": int=false value=2147483648 zero=false
	// true
}

func ExampleLabelSelector_Matches() {
	sel := &model.LabelSelector{
		MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []model.LabelSelectorRequirement{
			{Key: "track", Operator: model.SelectorOpNotIn, Values: []string{"canary"}},
		},
	}
	fmt.Println(sel.Matches(map[string]string{"app": "web", "track": "stable"}))
	fmt.Println(sel.Matches(map[string]string{"app": "web", "track": "canary"}))
	fmt.Println(sel.Matches(map[string]string{"app": "web"}))

	var none *model.LabelSelector
	fmt.Println(none.Matches(map[string]string{"app": "web"}))
	fmt.Println((&model.LabelSelector{}).Matches(nil))

	bad := &model.LabelSelector{MatchExpressions: []model.LabelSelectorRequirement{{Key: "app", Operator: model.SelectorOpIn}}}
	fmt.Println(bad.Matches(map[string]string{"app": "web"}))
	// Output:
	// true <nil>
	// false <nil>
	// true <nil>
	// false <nil>
	// true <nil>
	// false matchExpressions[0]: operator In for key "app" needs at least one value
}

// A selector checked once and matched against many label sets; the
// Matcher reads the selector itself, which must not change meanwhile.
func ExampleNewSharedMatcher() {
	sel := &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	m, err := model.NewSharedMatcher(sel)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, labels := range []map[string]string{{"app": "web", "pod-template-hash": "5d7"}, {"app": "api"}, nil} {
		fmt.Println(m.Matches(labels))
	}
	_, err = model.NewSharedMatcher(&model.LabelSelector{MatchLabels: map[string]string{"app": "not valid"}})
	fmt.Println(err)
	// Output:
	// true
	// false
	// false
	// matchLabels: value "not valid" of key "app": must consist of alphanumeric characters, '-', '_' or '.'
}

func ExampleEqualIgnoreHash() {
	spec, _ := model.CanonicalJSON([]byte(`{"containers":[{"name":"web","image":"nginx:1.25"}]}`))
	deployment := model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: spec}
	replicaSet := model.PodTemplate{Labels: map[string]string{"app": "web", model.PodTemplateHashLabel: "5d7b9c"}, Spec: spec}
	fmt.Println(model.EqualIgnoreHash(deployment, replicaSet))

	replicaSet.Annotations = map[string]string{model.RestartedAtAnnotation: "2024-03-01T10:00:00Z"}
	fmt.Println(model.EqualIgnoreHash(deployment, replicaSet))
	// Output:
	// true
	// false
}

func ExampleCanonicalJSON() {
	s, err := model.CanonicalJSON([]byte(`{ "restartPolicy": "Always", "containers": [ {"name": "web", "env": [], "cpu": 1.0} ], "volumes": null }`))
	fmt.Println(s, err)
	// Output:
	// {"containers":[{"cpu":1.0,"name":"web"}],"restartPolicy":"Always"} <nil>
}
