package status

import (
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

const (
	// statefulSet is public state sts-s1-0166 as kubectl get
	// statefulset,controllerrevisions,pods,pvc -o yaml prints it;
	// daemonSet is ds-s1-0183 as kubectl get
	// daemonset,controllerrevisions,pods,nodes -o yaml prints it.
	statefulSet = clitest.Data + "web-statefulset.yaml"
	daemonSet   = clitest.Data + "cilium-daemonset.yaml"
	// onDelete is a StatefulSet as the cluster returns it, updated OnDelete.
	onDelete = `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db","namespace":"default","uid":"u1","generation":1},
"spec":{"selector":{"matchLabels":{"app":"db"}},"template":{"metadata":{"labels":{"app":"db"}}},"updateStrategy":{"type":"OnDelete"}}}`
	// manifest is a StatefulSet manifest, as kubectl apply sends it.
	manifest = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\nspec:\n  serviceName: db\n  replicas: 3\n" +
		"  selector:\n    matchLabels: {app: db}\n  template:\n    metadata:\n      labels: {app: db}\n    spec:\n      containers:\n      - {name: db, image: postgres:17}\n"
)

// kubectl's StatefulSet and DaemonSet status viewers, as kubectl v0.36.3
// prints them (plan/rollout is checked against its code): --revision is
// not read for those kinds; a strategy other than RollingUpdate is
// kubectl's error.
func TestStatusSets(t *testing.T) {
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "statefulset", Args: []string{"sts/web", "-f", statefulSet}, Stdout: "Waiting for 1 pods to be ready...\n"},
		{Name: "the snapshot's kind", Args: []string{"-f", statefulSet}, Stdout: "Waiting for 1 pods to be ready...\n"},
		{Name: "a name, the snapshot's kind", Args: []string{"web", "-f", statefulSet}, Stdout: "Waiting for 1 pods to be ready...\n"},
		{Name: "--revision is not read", Args: []string{"statefulsets.apps/web", "--revision=9", "-f", statefulSet}, Stdout: "Waiting for 1 pods to be ready...\n"},
		{Name: "daemonset", Args: []string{"ds/cilium", "-f", daemonSet},
			Stdout: "Waiting for daemon set \"cilium\" rollout to finish: 1 out of 8 new pods have been updated...\n"},
		{Name: "daemonset NAME", Args: []string{"daemonset", "cilium", "-f", daemonSet},
			Stdout: "Waiting for daemon set \"cilium\" rollout to finish: 1 out of 8 new pods have been updated...\n"},
		{Name: "OnDelete", Args: []string{"-f", "-"}, Stdin: onDelete, Code: 1,
			Stderr: "error: rollout status is only available for RollingUpdate strategy type\n"},
		{Name: "a manifest", Args: []string{"-f", "-"}, Stdin: manifest, Stdout: "Waiting for statefulset spec update to be observed...\n"},
		{Name: "the wrong kind", Args: []string{"deployment/web", "-f", statefulSet}, Code: 1,
			Stderr: "error: no such deployment: \"web\" (the input has none; it holds StatefulSet prod/web)\n"},
		{Name: "no such statefulset", Args: []string{"sts/db", "-f", statefulSet}, Code: 1,
			Stderr: "error: no such statefulset: \"db\" (the input has prod/web)\n"},
		// The readiness delay is the median of the 5 pods that became ready
		// (42s, 48s, 63s, 96s, 97s from creation to Ready: 1m3s); cilium-jlzn9,
		// not ready for 1m44s, is within the longest seen plus as much again.
		{Name: "predict a DaemonSet", Args: []string{"ds/cilium", "--predict", "-f", daemonSet},
			Stdout: "Waiting for daemon set \"cilium\" rollout to finish: 1 out of 8 new pods have been updated...\n" +
				"DaemonSet kube-system/cilium at 2025-10-02T17:51:33Z: 8 of 8 nodes should run a daemon pod, RollingUpdate maxUnavailable 33%; pods ready 1m3s after creation\n" +
				"assuming pods become ready 1m3s after creation, the median of 5 pods seen\n" +
				"prediction: the rollout completes in 2m45s (at 2025-10-02T17:54:18Z), after 22 syncs\n",
			Stderr: "Time: 2025-10-02T17:51:33Z (the latest timestamp in the snapshot; --now sets another)\n"},
		// 40 minutes on, cilium-jlzn9 (created 17:49:49) has not been ready
		// for 40m11s, past the longest seen (97s) plus as much again: its
		// revision is taken never to become ready, and the update stops at
		// maxUnavailable 3 of 8 (ceil(33% of 8)) nodes without an available pod.
		{Name: "predict a stalled DaemonSet", Args: []string{"ds/cilium", "--predict", "-f", daemonSet, "--now", "2025-10-02T18:30:00Z"},
			Stdout: "Waiting for daemon set \"cilium\" rollout to finish: 1 out of 8 new pods have been updated...\n" +
				"DaemonSet kube-system/cilium at 2025-10-02T18:30:00Z: 8 of 8 nodes should run a daemon pod, RollingUpdate maxUnavailable 33%; pods ready 1m3s after creation, those of revision hash 6987855859 never\n" +
				"assuming pods become ready 1m3s after creation, the median of 5 pods seen; the rollout is stalled: cilium-jlzn9 has not been ready for 40m11s, past the longest seen (1m37s) with a margin of 1m37s (and 2 more pods); a DaemonSet has no progress deadline: it waits until the pod changes\n" +
				"prediction: the rollout stalls after 1m4s: 5 nodes keep their available old pod this sync (ip-10-0-23-23.ec2.internal, ip-10-0-30-36.ec2.internal, ip-10-0-37-49.ec2.internal, ip-10-0-51-75.ec2.internal, ip-10-0-58-88.ec2.internal): 3 nodes lack an available pod, maxUnavailable is 3; pods not Ready: cilium-lvg9n (node ip-10-0-44-62.ec2.internal), cilium-jlzn9 (node ip-10-0-65-101.ec2.internal), cilium-gnbpn (node ip-10-0-72-114.ec2.internal)\n",
			Stderr: "Time: 2025-10-02T18:30:00Z (--now)\n"},
		{Name: "fidelity of a DaemonSet", Args: []string{"ds/cilium", "--predict", "--fidelity=counts", "-f", daemonSet}, Code: 2,
			StderrContains: "--fidelity applies to Deployments: a DaemonSet is simulated pod by pod"},
		// --max-work bounds a DaemonSet's prediction as a Deployment's
		// (issue 24: it was refused, and the simulation unbounded).
		{Name: "work bound of a DaemonSet", Args: []string{"ds/cilium", "--predict", "--max-work=10", "-f", daemonSet}, Code: 1,
			Stdout:         "Waiting for daemon set \"cilium\" rollout to finish: 1 out of 8 new pods have been updated...\n",
			StderrContains: "(--max-work 10: the rollout models too many pods over too many syncs: raise --max-work)"},
		{Name: "fidelity of a StatefulSet", Args: []string{"sts/web", "--predict", "--fidelity=counts", "-f", statefulSet}, Code: 2,
			StderrContains: "--fidelity applies to Deployments: a StatefulSet is simulated pod by pod"},
	})
}

// --explain says what the StatefulSet or DaemonSet controller does next
// and why; --predict how long a StatefulSet's rollout takes; -o prints the
// look as one document with the stored status.
func TestStatusSetsExplainPredict(t *testing.T) {
	const at = "2025-02-07T07:12:00Z"
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "explain", Args: []string{"sts/web", "--explain", "--now", at, "-f", statefulSet},
			Stdout: "Waiting for 1 pods to be ready...\n" +
				"Why: the StatefulSet controller's next sync (at 2025-02-07T07:12:00Z) writes:\n" +
				"  - DeletePod prod/web-5\n" +
				"    RollingUpdate: web-5 is at revision \"web-8948ffb8\", not web-5674ddc769: the rolling update replaces it (highest ordinal first, down to partition 0) [ordinal=5 partition=0]\n" +
				"  - UpdateStatefulSetStatus prod/web\n" +
				"    SyncStatus: the status changed (currentReplicas, readyReplicas, availableReplicas) [replicas=6 readyReplicas=6 availableReplicas=6 currentReplicas=4 updatedReplicas=0]\n",
			Stderr: "Time: 2025-02-07T07:12:00Z (--now)\n"},
		{Name: "predict", Args: []string{"sts/web", "--predict", "--ready-after=10s", "--now", at, "-f", statefulSet},
			Stdout: "Waiting for 1 pods to be ready...\n" +
				"StatefulSet prod/web at 2025-02-07T07:12:00Z: 6 replicas, OrderedReady, RollingUpdate partition 0; pods ready 10s after creation\n" +
				"prediction: the rollout completes in 1m6s (at 2025-02-07T07:13:06Z), after 24 syncs\n",
			Stderr: "Time: 2025-02-07T07:12:00Z (--now)\n"},
		{Name: "predict, never ready", Args: []string{"sts/web", "--predict", "--never-ready", "--ready-after=10s", "--now", at, "-f", statefulSet},
			StdoutContains: "prediction: the rollout stalls after ", Stderr: "Time: 2025-02-07T07:12:00Z (--now)\n"},
		{Name: "daemonset explain", Args: []string{"ds/cilium", "--explain", "-f", daemonSet},
			StdoutContains: "Why: the DaemonSet controller's next sync (at 2025-10-02T17:51:33Z) writes:\n" +
				"  - UpdateDaemonSetStatus kube-system/cilium\n" +
				"    SyncStatus: 8 nodes should run a daemon pod: 8 do, 3 updated, 5 available [desired=8 current=8 updated=3 available=5]\nand notes:\n  - UpdateBudgetSpent: ",
			Stderr: "Time: 2025-10-02T17:51:33Z (the latest timestamp in the snapshot; --now sets another)\n"},
		{Name: "yaml", Args: []string{"ds/cilium", "-o", "yaml", "-f", daemonSet},
			Stdout: "daemonSet: kube-system/cilium\ndone: false\nmessage: 'Waiting for daemon set \"cilium\" rollout to finish: 1 out of 8 new pods have\n  been updated...'\n" +
				"status:\n  currentNumberScheduled: 6\n  desiredNumberScheduled: 8\n  numberAvailable: 5\n  numberMisscheduled: 0\n  numberReady: 5\n  numberUnavailable: 3\n  observedGeneration: 3\n  updatedNumberScheduled: 1\n"},
	})
}

// A snapshot with workloads of several kinds needs the kind; one name in
// both is ambiguous.
func TestStatusKinds(t *testing.T) {
	both := `{"kind":"List","apiVersion":"v1","items":[
{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"web","namespace":"default","labels":{"app":"web"}},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}}}}},
{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}}}}}]}`
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "no name", Args: []string{"-f", "-"}, Stdin: both, Code: 2,
			Stderr: "error: the snapshot holds workloads of several kinds (deployment/web, statefulset/web): name one as KIND/NAME. See 'kubectl rolloutplan status --help'.\n"},
		{Name: "a name in both", Args: []string{"web", "-f", "-"}, Stdin: both, Code: 2,
			Stderr: "error: the snapshot holds deployment/web and statefulset/web: give the kind with the name. See 'kubectl rolloutplan status --help'.\n"},
		{Name: "the kind", Args: []string{"sts/web", "-f", "-"}, Stdin: both,
			Stdout: "Waiting for statefulset spec update to be observed...\n",
			Stderr: "status: ignored 1 input objects: 1 Deployment in namespace default (not read for a StatefulSet)\n"},
		{Name: "unknown kind", Args: []string{"job/web"}, Code: 2,
			Stderr: "error: argument \"job/web\": only deployments, statefulsets and daemonsets are supported (KIND/NAME). See 'kubectl rolloutplan status --help'.\n"},
		{Name: "a kind without a name", Args: []string{"sts"}, Code: 2,
			StderrContains: "argument \"sts\": give the StatefulSet's name (statefulset/NAME or statefulset NAME) or -l SELECTOR"},
	})
	// -l chooses among the workloads of the kind given.
	code, out, errOut := clitest.Exec(t, NewCommand, clitest.Options{}, both, "statefulset", "-l", "app=web", "-f", "-")
	if code != 0 || out != "Waiting for statefulset spec update to be observed...\n" || !strings.Contains(errOut, "(not read for a StatefulSet)") {
		t.Errorf("sts -l: exit %d, %q, %q", code, out, errOut)
	}
}
