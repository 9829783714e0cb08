package simulate

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// printResult writes what Output.Print writes, byte for byte, in JSON and
// in YAML, for the traces of the three simulators: with names long enough
// that the YAML encoder folds the lines that hold them (it folds at a
// column, so each step is converted where it stands), <, > and & in
// strings, an empty trace and one of the summary only.
func TestPrintResultIsPrint(t *testing.T) {
	long := "a-deployment-with-a-name-long-enough-to-fold-yaml-lines-at-column-80"[:63]
	spec := func(image string) string {
		return `{"containers":[{"image":"` + image + `","name":"web"}]}`
	}
	tmpl := model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: spec("registry.example.com/<team>&co/web:1")}
	sel := &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	update := []sim.Event{{When: sim.WhenComplete, Action: sim.Action{Kind: sim.SetTemplateSpec, Spec: spec("registry.example.com/<team>&co/web:2"),
		Description: "kubectl set image deployment/" + long + " web=registry.example.com/<team>&co/web:2 with a description long enough to be folded"}}}
	var traces []any
	for _, f := range []sim.Fidelity{sim.Counts, sim.Pods} {
		for _, rec := range []sim.Record{sim.RecordSteps, sim.RecordSummary} {
			tr, err := sim.Run(sim.Config{Deployment: &model.Deployment{ObjectMeta: model.ObjectMeta{Name: long, Namespace: "default", UID: "web-uid"},
				Spec: model.DeploymentSpec{Replicas: model.Int32Ptr(5), Selector: sel, Template: tmpl}},
				Script: update, Fidelity: f, Record: rec, Check: true, World: sim.World{ReadyAfter: 3 * time.Second}})
			require.NoError(t, err)
			traces = append(traces, tr)
		}
	}
	sts, err := sim.RunStatefulSet(sim.StatefulSetConfig{StatefulSet: &model.StatefulSet{ObjectMeta: model.ObjectMeta{Name: long[:39], Namespace: "default", UID: "sts-uid"},
		Spec: model.StatefulSetSpec{Replicas: model.Int32Ptr(3), Selector: sel, Template: tmpl, ServiceName: "web"}}, Script: update, Check: true})
	require.NoError(t, err)
	var nodes []*model.Node
	for i := range 4 {
		nodes = append(nodes, &model.Node{ObjectMeta: model.ObjectMeta{Name: fmt.Sprintf("node-%d-%s", i, long[:39])}})
	}
	nodes[3].Spec.Taints = []model.Taint{{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule}}
	ds, err := sim.RunDaemonSet(sim.DaemonSetConfig{DaemonSet: &model.DaemonSet{ObjectMeta: model.ObjectMeta{Name: long[:39], Namespace: "default", UID: "ds-uid"},
		Spec: model.DaemonSetSpec{Selector: sel, Template: tmpl}}, Nodes: nodes, Script: update, Check: true})
	require.NoError(t, err)
	traces = append(traces, sts, ds, &sim.Trace{})

	for i, tr := range traces {
		res := Result{Deployment: "default/" + long, Time: time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC),
			Prediction: predict.Summary{Assumptions: "pods <ready> & " + strings.Repeat("long ", 30)}, Trace: tr}
		for _, format := range []string{"json", "yaml"} {
			var want, got bytes.Buffer
			require.NoError(t, (&rolloutio.Output{Format: format}).Print(&want, res))
			require.NoError(t, printResult(&got, &rolloutio.Output{Format: format}, res))
			require.Equal(t, want.String(), got.String(), "trace %d, %s", i, format)
		}
	}
}
