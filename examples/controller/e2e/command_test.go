package e2e_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The command in shadow mode, against the real server through a kubeconfig:
// it prints the writes of the first sync of a new Deployment and sends
// none.
func TestCommandShadow(t *testing.T) {
	ctx, ns := setup(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "rolloutplan-controller")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/rolloutplan-controller").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := env.Kubeconfig(kubeconfig); err != nil {
		t.Fatal(err)
	}
	create(ctx, t, rolling(deployment(ns, "nginx", 3, "nginx:1.27"), intstr.FromString("25%"), intstr.FromString("25%")))
	cmd := exec.Command(bin, "--kubeconfig", kubeconfig, "--shadow", "--namespace", ns, "--run-for", "3s")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("shadow output:\n%s", out)
	for _, want := range []string{
		"deployment " + ns + "/nginx: create replicasets " + ns + "/nginx-",
		"update deployments/status " + ns + "/nginx (a real server answers 409)",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("shadow output lacks %q", want)
		}
	}
	if rss, err := client.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{}); err != nil || len(rss.Items) != 0 {
		t.Errorf("shadow mode created ReplicaSets: %v %v", rss, err)
	}
}
