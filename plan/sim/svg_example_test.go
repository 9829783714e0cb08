package sim_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// WriteSVG draws a trace as a standalone SVG chart; write it to a file and
// open it in a browser. Here a Deployment of 4 replicas rolls from web:1 to
// web:2, and the example prints the chart's first line, its title and its
// last line.
func ExampleTrace_WriteSVG() {
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid"},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(4),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "image: web:1"},
		},
	}
	tr, err := sim.Run(sim.Config{
		Deployment: d,
		Script: []sim.Event{{When: sim.WhenComplete, Action: sim.Action{
			Kind: sim.SetTemplateSpec, Spec: "image: web:2", Description: "set image web:2"}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var svg bytes.Buffer
	if err := tr.WriteSVG(&svg, "web: web:1 → web:2"); err != nil {
		fmt.Println(err)
		return
	}
	lines := strings.Split(strings.TrimSpace(svg.String()), "\n")
	fmt.Println(lines[0])
	for _, l := range lines {
		if strings.Contains(l, "web:1 → web:2") {
			fmt.Println(l)
		}
	}
	fmt.Println(lines[len(lines)-1])
	// Output:
	// <svg xmlns="http://www.w3.org/2000/svg" width="1000" height="460" viewBox="0 0 1000 460" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">
	// <text x="70" y="24" font-size="16" font-weight="bold">web: web:1 → web:2</text>
	// </svg>
}
