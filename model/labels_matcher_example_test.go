package model_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
)

// A Matcher requiring every label of a template, as the ReplicaSet
// controller counts its fully labeled pods: a pod must carry each label
// with its value; other labels do not matter.
func ExampleLabelsMatcher() {
	m := model.LabelsMatcher(map[string]string{"app": "web", "tier": "frontend"})
	fmt.Println(m.Matches(map[string]string{"app": "web", "tier": "frontend", "pod-template-hash": "5d7"}))
	fmt.Println(m.Matches(map[string]string{"app": "web"}))
	everything := model.LabelsMatcher(nil)
	fmt.Println(everything.Matches(nil))
	// Output:
	// true
	// false
	// true
}
