package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/replicaset"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// Flag ranges.
const (
	maxDuration = 365 * 24 * time.Hour
	// defaultMaxWork keeps a run within about 4 GB (bytesPerUnit per unit,
	// which TestMemoryBoundedByMaxWork checks) on an ordinary machine.
	defaultMaxWork = 10_000_000
	// bytesPerUnit is the memory a unit of -max-work costs at most, as
	// sim.Config.MaxWork states it and TestMemoryBoundedByMaxWork checks.
	bytesPerUnit      = "400"
	maxInt32          = math.MaxInt32
	replicasRange     = "0 to 2147483647"
	durationRangeText = "0s to 8760h"
)

type options struct {
	replicas       int64
	strategy       string
	maxSurge       string
	maxUnavailable string
	minReady       int64
	fromImage      string
	toImage        string
	readyAfter     time.Duration
	grace          time.Duration
	neverReady     bool
	failureRate    float64
	seed           uint64
	fidelity       string
	scaleTo        int64
	svg            string
	maxWork        int64

	// surge and unavailable are maxSurge and maxUnavailable parsed, set
	// by check.
	surge, unavailable model.IntOrString
}

// parseFlags parses and range-checks every flag; -h returns flag.ErrHelp
// after printing the usage to stdout.
func parseFlags(args []string, stdout io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Int64Var(&o.replicas, "replicas", 3, "spec.replicas, "+replicasRange)
	fs.StringVar(&o.strategy, "strategy", "RollingUpdate", "RollingUpdate or Recreate")
	fs.StringVar(&o.maxSurge, "max-surge", "25%", "maxSurge: 0 to 2147483647 or a percentage 0% to 2147483647%")
	fs.StringVar(&o.maxUnavailable, "max-unavailable", "25%", "maxUnavailable: 0 to 2147483647 or a percentage 0% to 100%")
	fs.Int64Var(&o.minReady, "min-ready", 0, "minReadySeconds, 0 to 2147483647")
	fs.StringVar(&o.fromImage, "from", "nginx:1.14.2", "image of the first rollout")
	fs.StringVar(&o.toImage, "to", "nginx:1.16.1", "image set once the first rollout is complete")
	fs.DurationVar(&o.readyAfter, "ready-after", 0, "time a new pod takes to become ready, "+durationRangeText)
	fs.DurationVar(&o.grace, "grace", 0, "time a deleted pod keeps terminating, "+durationRangeText)
	fs.BoolVar(&o.neverReady, "never-ready", false, "pods of the -to image never become ready")
	fs.Float64Var(&o.failureRate, "failure-rate", 0, "probability per sync that a ready pod fails, 0 to 1")
	fs.Uint64Var(&o.seed, "seed", 1, "random seed, 0 to 18446744073709551615")
	fs.StringVar(&o.fidelity, "fidelity", "pods", "pods (every pod, runs the ReplicaSet planner) or counts (fast)")
	fs.Int64Var(&o.scaleTo, "scale-to", -1, "once the second rollout is complete or has stalled, scale to this many replicas, "+replicasRange+" (-1: do not)")
	fs.StringVar(&o.svg, "svg", "", "write a timeline chart to this SVG file")
	fs.Int64Var(&o.maxWork, "max-work", defaultMaxWork, "work bound: objects modelled and objects the trace keeps, summed over syncs, 1 to 9223372036854775807;\nmemory is bounded by -max-work: about "+bytesPerUnit+" bytes per unit at most, 4 GB at the default")
	usage := func() {
		fmt.Fprintf(stdout, "Usage: simulate [flags]\n\nSimulates a Deployment rollout sync by sync and prints its timeline.\n\nFlags:\n")
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		fmt.Fprintf(stdout, "\nExit codes: 0 completed, 1 stalled, 2 bad flags or failed simulation, 3 invariant violations.\n")
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			usage()
		}
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	err := o.check()
	return o, err
}

// check range-checks every value and parses the fenceposts.
func (o *options) check() error {
	if err := inRange("-replicas", o.replicas, 0, maxInt32); err != nil {
		return err
	}
	if o.strategy != string(model.RollingUpdateStrategy) && o.strategy != string(model.RecreateStrategy) {
		return fmt.Errorf("-strategy %q: want RollingUpdate or Recreate", o.strategy)
	}
	var err error
	if o.surge, err = fencepost("-max-surge", o.maxSurge, maxInt32); err != nil {
		return err
	}
	if o.unavailable, err = fencepost("-max-unavailable", o.maxUnavailable, 100); err != nil {
		return err
	}
	if o.strategy == string(model.RollingUpdateStrategy) {
		// Upstream adds maxSurge to replicas in int32 and wraps past
		// 2147483647; refuse such a Deployment rather than show the wrap.
		s := int64(o.surge.IntVal)
		if o.surge.Type == model.String {
			p, _ := model.ParsePercent(o.surge.StrVal) // fencepost wrote it: digits and "%"
			s = (o.replicas*p + 99) / 100
		}
		if o.replicas+s > maxInt32 {
			return fmt.Errorf("-replicas %d with -max-surge %s: replicas + maxSurge = %d is beyond 2147483647, where the controller's int32 arithmetic wraps", o.replicas, o.maxSurge, o.replicas+s)
		}
	}
	if err := inRange("-min-ready", o.minReady, 0, maxInt32); err != nil {
		return err
	}
	if o.fromImage == "" || o.toImage == "" {
		return fmt.Errorf("-from and -to: want non-empty image names")
	}
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"-ready-after", o.readyAfter}, {"-grace", o.grace}} {
		if f.d < 0 || f.d > maxDuration {
			return fmt.Errorf("%s %s: out of range %s", f.name, f.d, durationRangeText)
		}
	}
	if !(o.failureRate >= 0 && o.failureRate <= 1) { // also false for NaN
		return fmt.Errorf("-failure-rate %v: out of range 0 to 1", o.failureRate)
	}
	if o.fidelity != "pods" && o.fidelity != "counts" {
		return fmt.Errorf("-fidelity %q: want pods or counts", o.fidelity)
	}
	if o.scaleTo != -1 {
		if err := inRange("-scale-to", o.scaleTo, 0, maxInt32); err != nil {
			return fmt.Errorf("%w (or -1: do not scale)", err)
		}
	}
	return inRange("-max-work", o.maxWork, 1, math.MaxInt64)
}

func inRange(name string, v, lo, hi int64) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s %d: out of range %d to %d", name, v, lo, hi)
	}
	return nil
}

// fencepost parses maxSurge or maxUnavailable: an integer 0 to 2147483647
// or a percentage 0% to maxPercent%.
func fencepost(name, s string, maxPercent int64) (model.IntOrString, error) {
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil || v < 0 || v > maxPercent {
			return model.IntOrString{}, fmt.Errorf("%s %q: want an integer 0 to 2147483647 or a percentage 0%% to %d%%", name, s, maxPercent)
		}
		return model.FromString(strconv.FormatInt(v, 10) + "%"), nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v > maxInt32 {
		return model.IntOrString{}, fmt.Errorf("%s %q: want an integer 0 to 2147483647 or a percentage 0%% to %d%%", name, s, maxPercent)
	}
	return model.FromInt(int32(v)), nil
}

// templateSpec is the pod spec of one image, as canonical JSON.
func templateSpec(image string) string {
	b, _ := json.Marshal(map[string]any{"containers": []map[string]string{{"image": image, "name": "web"}}})
	return string(b)
}

func (o options) describeStrategy() string {
	if o.strategy != string(model.RollingUpdateStrategy) {
		return o.strategy
	}
	return fmt.Sprintf("RollingUpdate maxSurge %s maxUnavailable %s", o.maxSurge, o.maxUnavailable)
}

func (o options) title() string {
	return fmt.Sprintf("web: %s → %s, %s", o.fromImage, o.toImage, o.describeStrategy())
}

// config builds the simulation from checked options: the Deployment is created with -from, the
// image changes to -to once that rollout is complete, and -scale-to applies
// once the second rollout is complete or has stalled.
func (o options) config() (sim.Config, error) {
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid"},
		Spec: model.DeploymentSpec{
			Replicas:        model.Int32Ptr(int32(o.replicas)),
			Selector:        &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template:        model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: templateSpec(o.fromImage)},
			Strategy:        model.Strategy{Type: model.StrategyType(o.strategy)},
			MinReadySeconds: int32(o.minReady),
		},
	}
	if d.Spec.Strategy.Type == model.RollingUpdateStrategy {
		surge, unavailable := o.surge, o.unavailable
		d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{MaxSurge: &surge, MaxUnavailable: &unavailable}
	}
	d = model.Default(d)
	if err := model.ValidateDeployment(d); err != nil {
		return sim.Config{}, fmt.Errorf("the flags make an invalid Deployment: %w", err)
	}
	cfg := sim.Config{
		Deployment: d,
		World:      sim.World{ReadyAfter: o.readyAfter, TerminationGrace: o.grace, FailureRate: o.failureRate, Seed: o.seed},
		Script: []sim.Event{{When: sim.WhenComplete, Action: sim.Action{
			Kind: sim.SetTemplateSpec, Spec: templateSpec(o.toImage), Description: "kubectl set image deployment/web web=" + o.toImage,
		}}},
		Check:   true,
		MaxWork: o.maxWork,
	}
	if o.neverReady {
		toSpec := templateSpec(o.toImage)
		cfg.World.NeverReady = func(t model.PodTemplate) bool { return t.Spec == toSpec }
	}
	if o.scaleTo >= 0 {
		cfg.Script = append(cfg.Script, sim.Event{When: sim.WhenSettled, Action: sim.Action{Kind: sim.ScaleTo, Replicas: int32(o.scaleTo)}})
	}
	if o.fidelity == "pods" {
		cfg.Fidelity = sim.Pods
		// Estimate the work before starting: two rollouts of about
		// replicas/burst syncs each, every one modelling up to
		// replicas + surge pods.
		syncs := 2 * (o.replicas/replicaset.BurstReplicas + 4)
		if est := float64(syncs) * float64(o.replicas+1); est > float64(o.maxWork) {
			return sim.Config{}, fmt.Errorf("-replicas %d at -fidelity pods needs about %.3g object-syncs of work, more than -max-work %d: use -fidelity counts or raise -max-work",
				o.replicas, est, o.maxWork)
		}
	}
	return cfg, nil
}
