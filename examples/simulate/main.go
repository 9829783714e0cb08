// Command simulate shows a Kubernetes rollout before it happens: it runs
// rolloutplan's Deployment and ReplicaSet planners against a modelled
// cluster, sync after sync, and prints a timeline of what the controller
// does and why, and a summary.
//
// With no arguments it simulates the nginx image update of the Kubernetes
// documentation: 3 replicas, maxSurge and maxUnavailable 25%, nginx:1.14.2
// to nginx:1.16.1, pods ready at once.
//
//	go run ./examples/simulate
//	go run ./examples/simulate -replicas 10 -max-surge 3 -max-unavailable 2 -never-ready
//	go run ./examples/simulate -replicas 1000 -ready-after 20s -fidelity pods -svg rollout.svg
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "simulate:", err)
		os.Exit(2)
	}
}

type options struct {
	replicas       int
	strategy       string
	maxSurge       string
	maxUnavailable string
	minReady       int
	fromImage      string
	toImage        string
	readyAfter     time.Duration
	grace          time.Duration
	neverReady     bool
	failureRate    float64
	seed           uint64
	fidelity       string
	scaleTo        int
	svg            string
}

func run(args []string, out io.Writer) error {
	var o options
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.IntVar(&o.replicas, "replicas", 3, "spec.replicas")
	fs.StringVar(&o.strategy, "strategy", "RollingUpdate", "RollingUpdate or Recreate")
	fs.StringVar(&o.maxSurge, "max-surge", "25%", "maxSurge: a number or a percentage")
	fs.StringVar(&o.maxUnavailable, "max-unavailable", "25%", "maxUnavailable: a number or a percentage")
	fs.IntVar(&o.minReady, "min-ready", 0, "minReadySeconds")
	fs.StringVar(&o.fromImage, "from", "nginx:1.14.2", "image before the update")
	fs.StringVar(&o.toImage, "to", "nginx:1.16.1", "image after the update")
	fs.DurationVar(&o.readyAfter, "ready-after", 0, "time a new pod takes to become ready")
	fs.DurationVar(&o.grace, "grace", 0, "time a deleted pod keeps terminating")
	fs.BoolVar(&o.neverReady, "never-ready", false, "pods of the new image never become ready")
	fs.Float64Var(&o.failureRate, "failure-rate", 0, "probability per sync that a ready pod fails")
	fs.Uint64Var(&o.seed, "seed", 1, "random seed")
	fs.StringVar(&o.fidelity, "fidelity", "pods", "pods (every pod, runs the ReplicaSet planner) or counts (fast)")
	fs.IntVar(&o.scaleTo, "scale-to", -1, "once the rollout settles, scale to this many replicas")
	fs.StringVar(&o.svg, "svg", "", "write a timeline chart to this SVG file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	cfg, err := o.config()
	if err != nil {
		return err
	}
	trace, err := sim.Run(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Deployment web: %d replicas, %s, image %s → %s, pods ready after %s (%s fidelity)\n\n",
		o.replicas, describeStrategy(cfg.Deployment), o.fromImage, o.toImage, o.readyAfter, cfg.Fidelity)
	if err := trace.WriteTimeline(out); err != nil {
		return err
	}
	if o.svg != "" {
		f, err := os.Create(o.svg)
		if err != nil {
			return err
		}
		title := fmt.Sprintf("web: %s → %s, %s", o.fromImage, o.toImage, describeStrategy(cfg.Deployment))
		if err := errors.Join(trace.WriteSVG(f, title), f.Close()); err != nil {
			return err
		}
		fmt.Fprintf(out, "\nchart written to %s\n", o.svg)
	}
	return nil
}

func describeStrategy(d *model.Deployment) string {
	s := d.Spec.Strategy
	if s.Type != model.RollingUpdateStrategy || s.RollingUpdate == nil {
		return string(s.Type)
	}
	return fmt.Sprintf("RollingUpdate maxSurge %s maxUnavailable %s", s.RollingUpdate.MaxSurge, s.RollingUpdate.MaxUnavailable)
}

func (o options) config() (sim.Config, error) {
	if o.replicas < 0 || o.replicas > 1<<30 {
		return sim.Config{}, fmt.Errorf("-replicas %d out of range", o.replicas)
	}
	image := func(name string) string { return `{"containers":[{"image":"` + name + `","name":"web"}]}` }
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid"},
		Spec: model.DeploymentSpec{
			Replicas:        model.Int32Ptr(int32(o.replicas)),
			Selector:        &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template:        model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: image(o.fromImage)},
			Strategy:        model.Strategy{Type: model.StrategyType(o.strategy)},
			MinReadySeconds: int32(o.minReady),
		},
	}
	if d.Spec.Strategy.Type == model.RollingUpdateStrategy {
		d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{
			MaxSurge:       model.IntOrStringPtr(model.ParseIntOrString(o.maxSurge)),
			MaxUnavailable: model.IntOrStringPtr(model.ParseIntOrString(o.maxUnavailable)),
		}
	}
	d = model.Default(d)
	if err := model.ValidateDeployment(d); err != nil {
		return sim.Config{}, err
	}
	cfg := sim.Config{
		Deployment: d,
		World:      sim.World{ReadyAfter: o.readyAfter, TerminationGrace: o.grace, FailureRate: o.failureRate, Seed: o.seed},
		Script: []sim.Event{{At: 3, Action: sim.Action{
			Kind: sim.SetTemplateSpec, Spec: image(o.toImage), Description: "kubectl set image deployment/web web=" + o.toImage,
		}}},
		Check: true,
	}
	if o.neverReady {
		cfg.World.NeverReady = sim.NeverReadyImage(`"` + o.toImage + `"`)
	}
	if o.scaleTo >= 0 {
		cfg.Script = append(cfg.Script, sim.Event{At: 1 << 30, Action: sim.Action{Kind: sim.ScaleTo, Replicas: int32(o.scaleTo)}})
	}
	switch o.fidelity {
	case "pods":
		cfg.Fidelity = sim.Pods
	case "counts":
		cfg.Fidelity = sim.Counts
	default:
		return sim.Config{}, fmt.Errorf("-fidelity %q: want pods or counts", o.fidelity)
	}
	return cfg, nil
}
