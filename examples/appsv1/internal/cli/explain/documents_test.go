package explain

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// A manifest file as kubectl users keep one: a Service and a Deployment in
// one YAML stream. explain reviews the Deployment and reports the Service;
// with two Deployments it needs the name.
func TestExplainManifestStream(t *testing.T) {
	const (
		service = "apiVersion: v1\nkind: Service\nmetadata: {name: one, namespace: shop}\nspec: {ports: [{port: 80}]}\n"
		one     = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: one\n  namespace: shop\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: one}\n  template:\n    metadata:\n      labels: {app: one}\n    spec:\n      containers: [{name: one, image: \"one:1\"}]\n"
		two     = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: two\n  namespace: shop\nspec:\n  replicas: 4\n  selector:\n    matchLabels: {app: two}\n  template:\n    metadata:\n      labels: {app: two}\n    spec:\n      containers: [{name: two, image: \"two:1\"}]\n"
	)
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "service and deployment", Args: []string{"-f", "-"}, Stdin: service + "---\n" + one,
			StdoutContains: "deployment.apps/one: RollingUpdate, 1 replicas\n",
			Stderr:         "explain: ignored 1 input objects: 1 Service (v1) (not a kind rolloutplan reads)\n"},
		{Name: "two deployments", Args: []string{"-f", "-"}, Stdin: service + "---\n" + one + "---\n" + two, Code: 1,
			Stderr: "error: 2 Deployments match (shop/one, shop/two): name one, with -n NAMESPACE when the name is in several\n"},
		{Name: "two deployments, one named", Args: []string{"deployment/two", "-f", "-"}, Stdin: service + "---\n" + one + "---\n" + two,
			StdoutContains: "deployment.apps/two: RollingUpdate, 4 replicas\n",
			StderrContains: "1 Deployment in namespace shop (another Deployment)"},
	})
}
