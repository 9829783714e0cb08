package model_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
)

// A caller that sees each object version once (an apps/v1 adapter's
// conversion cache) checks its template there, and validates the snapshot
// at every sync without reading the template again.
func ExamplePodSpecsValidated() {
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "shop", UID: "uid-web"},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(2),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{
				Labels: map[string]string{"app": "web"},
				Spec:   `{"metadata":{},"spec":{"containers":[{"image":"nginx:1.27","name":"web"}],"restartPolicy":"Never"}}`,
			},
		},
	}
	d = model.Default(d)
	// Once per version of the Deployment:
	specErr := model.ValidateTemplatePodSpec(d.Spec.Template.Spec)
	fmt.Println(specErr)
	// At every sync, with the pod spec rules left out only when they passed:
	var opts []model.ValidateOption
	if specErr == nil {
		opts = append(opts, model.PodSpecsValidated)
	}
	fmt.Println(model.Validate(d, nil, nil, opts...))
	// Output:
	// spec.restartPolicy: invalid value "Never": supported values: "Always"
	// deployment.spec.template.spec.restartPolicy: invalid value "Never": supported values: "Always"
}
