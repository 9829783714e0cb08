package configrestarts

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	core "github.com/rolloutplan/rolloutplan/plan/restart"
)

// Live is what the restart planner would do now with the cluster as it is:
// the plan of a planner that starts now, lists every ConfigMap, Secret and
// workload, and lets its grace period pass. A planner that has run for a
// while has its own queue of changes; a fresh start sees only the
// difference between each workload's checksums annotation and its configs
// (restart rule 1), and records the checksums of configs a workload has no
// checksum for yet.
type Live struct {
	// Time is when the cluster was read and the plan made.
	Time time.Time `json:"time"`
	// Namespace is the namespace read; empty with -A (every namespace).
	Namespace  string `json:"namespace,omitempty"`
	Selector   string `json:"selector,omitempty"`
	ConfigMaps int    `json:"configMaps"`
	Secrets    int    `json:"secrets"`
	// Workloads are the workloads that opt in (the DaemonSets too, which
	// the planner does not handle), sorted by kind, namespace and name.
	Workloads []LiveWorkload `json:"workloads"`
	// NotOptedIn counts the workloads read that do not opt in.
	NotOptedIn int `json:"notOptedIn"`
	Restarts   int `json:"restarts"`
	Updates    int `json:"checksumUpdates"`
}

// The actions of a LiveWorkload.
const (
	ActionRestart     = "Restart"     // the checksums annotation and the pod template's restart annotation are written
	ActionUpdate      = "Update"      // the checksums annotation alone is written
	ActionNone        = "None"        // up to date
	ActionUnsupported = "Unsupported" // a DaemonSet: the planner restarts Deployments and StatefulSets only
	ActionError       = "Error"       // the planner refuses the workload's pod template
)

// LiveWorkload is one workload that opts in and what the planner does
// with it.
type LiveWorkload struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Action    string `json:"action"`
	// Configs are the configs the pod template references and those the
	// annotation holds a checksum for, with the planner's reason for each.
	Configs []LiveConfig `json:"configs,omitempty"`
	// Timestamp is the value a restart writes to the pod template's
	// restart annotation.
	Timestamp string `json:"timestamp,omitempty"`
	// Patch is the JSON merge patch the planner sends.
	Patch json.RawMessage `json:"patch,omitempty"`
	// Skipped are references the planner does not follow: "PATH: why".
	Skipped []string `json:"skipped,omitempty"`
	// Warning is set when the checksums annotation cannot be read (it then
	// counts as empty); Error when the pod template cannot be read.
	Warning string `json:"warning,omitempty"`
	Error   string `json:"error,omitempty"`
}

// The reasons a LiveConfig gives besides the planner's own
// (restart.Reason).
const (
	// ReasonNotFound: the workload references a config that does not
	// exist; the planner waits for it.
	ReasonNotFound = "NotFound"
	// ReasonUpToDate: the annotation holds the config's checksum.
	ReasonUpToDate = string(core.ReasonUpToDate)
)

// LiveConfig is one config of a workload: its full name
// (configmap/NAMESPACE/NAME), the checksum the workload's annotation holds
// for it and the config's checksum now, and the planner's reason.
type LiveConfig struct {
	Config  string `json:"config"`
	Reason  string `json:"reason"`
	Applied string `json:"applied,omitempty"`
	Current string `json:"current,omitempty"`
}

// liveOptions are the flags of the live mode.
type liveOptions struct {
	planner       core.Options
	allNamespaces bool
	selector      string
}

// runLive reads the cluster and plans.
func runLive(ctx context.Context, c kubernetes.Interface, ns string, now time.Time, o liveOptions) (Live, error) {
	if o.allNamespaces {
		ns = metav1.NamespaceAll
	}
	out := Live{Time: now.UTC(), Namespace: ns, Selector: o.selector, Workloads: []LiveWorkload{}}
	opts := o.planner
	// A fresh planner's changes are all due once its grace period has
	// passed; with none they are due now.
	opts.GracePeriod = 0
	tr, err := core.NewTracker(opts)
	if err != nil {
		return Live{}, err
	}

	cms, err := c.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return Live{}, err
	}
	secrets, err := c.CoreV1().Secrets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return Live{}, err
	}
	wopts := metav1.ListOptions{LabelSelector: o.selector}
	deps, err := c.AppsV1().Deployments(ns).List(ctx, wopts)
	if err != nil {
		return Live{}, err
	}
	sets, err := c.AppsV1().StatefulSets(ns).List(ctx, wopts)
	if err != nil {
		return Live{}, err
	}
	dss, err := c.AppsV1().DaemonSets(ns).List(ctx, wopts)
	if err != nil {
		return Live{}, err
	}
	out.ConfigMaps, out.Secrets = len(cms.Items), len(secrets.Items)

	// The configs first: a workload observed after them takes their
	// checksums as its baseline, as the planner's informers deliver them
	// on a start (the outcome does not depend on the order).
	for i := range cms.Items {
		cfg, err := appsv1.RestartConfigMap(&cms.Items[i], opts.IncludeBinaryData)
		if err == nil {
			_, err = tr.ObserveConfig(cfg, now)
		}
		if err != nil {
			return Live{}, err
		}
	}
	for i := range secrets.Items {
		cfg, err := appsv1.RestartSecret(&secrets.Items[i])
		if err == nil {
			_, err = tr.ObserveConfig(cfg, now)
		}
		if err != nil {
			return Live{}, err
		}
	}

	type seen struct {
		entry LiveWorkload
		obs   core.Observation
	}
	var workloads []seen
	observe := func(kind, namespace, name string, w core.Workload, convErr error) {
		e := LiveWorkload{Kind: kind, Namespace: namespace, Name: name}
		if convErr != nil {
			if !core.Enabled(w.Annotations) {
				out.NotOptedIn++
				return
			}
			e.Action, e.Error = ActionError, convErr.Error()
			workloads = append(workloads, seen{entry: e})
			return
		}
		obs, err := tr.ObserveWorkload(w, now)
		switch {
		case err != nil:
			e.Action, e.Error = ActionError, err.Error()
		case !obs.Enabled:
			out.NotOptedIn++
			return
		}
		workloads = append(workloads, seen{entry: e, obs: obs})
	}
	for i := range deps.Items {
		d := &deps.Items[i]
		w, err := appsv1.RestartDeployment(d)
		if err != nil {
			w.Annotations = d.Annotations
		}
		observe("Deployment", d.Namespace, d.Name, w, err)
	}
	for i := range sets.Items {
		s := &sets.Items[i]
		w, err := appsv1.RestartStatefulSet(s)
		if err != nil {
			w.Annotations = s.Annotations
		}
		observe("StatefulSet", s.Namespace, s.Name, w, err)
	}
	for i := range dss.Items {
		ds := &dss.Items[i]
		if !core.Enabled(ds.Annotations) {
			out.NotOptedIn++
			continue
		}
		workloads = append(workloads, seen{entry: LiveWorkload{Kind: "DaemonSet", Namespace: ds.Namespace, Name: ds.Name, Action: ActionUnsupported}})
	}

	res := tr.Plan(now, false)
	patches := map[string]core.Patch{}
	for _, p := range res.Patches {
		patches[p.Workload.String()] = p
	}
	catalog := tr.Catalog()
	for _, s := range workloads {
		e := s.entry
		if e.Action == "" {
			e = describe(e, s.obs, patches[workloadRef(e).String()], catalog)
		}
		switch e.Action {
		case ActionRestart:
			out.Restarts++
		case ActionUpdate:
			out.Updates++
		}
		out.Workloads = append(out.Workloads, e)
	}
	slices.SortFunc(out.Workloads, func(a, b LiveWorkload) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out, nil
}

func workloadRef(e LiveWorkload) core.Ref {
	return core.Ref{Kind: core.Kind(strings.ToLower(e.Kind)), Namespace: e.Namespace, Name: e.Name}
}

// describe fills in what the planner does with an opted-in workload: its
// patch p (zero when none) and, for every config it references or holds a
// checksum for, the reason.
func describe(e LiveWorkload, obs core.Observation, p core.Patch, c core.Catalog) LiveWorkload {
	if obs.AnnotationError != nil {
		e.Warning = fmt.Sprintf("the %s annotation cannot be read, so it counts as empty: %v", core.AnnotationChecksums, obs.AnnotationError)
	}
	for _, s := range obs.Skips {
		e.Skipped = append(e.Skipped, skipString(s))
	}
	decided := map[string]core.Reason{}
	for _, d := range p.Decisions {
		decided[d.Config] = d.Reason
	}
	names := slices.Clone(obs.References)
	for name := range obs.Applied {
		names = append(names, name)
	}
	for name := range decided {
		if core.Kind(kindOf(name)).IsConfig() {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range slices.Compact(names) {
		lc := LiveConfig{Config: name, Applied: obs.Applied[name]}
		cfg, known := c.Configs[name]
		if known && !cfg.Dummy() {
			lc.Current = cfg.Checksum
		}
		switch r, ok := decided[name]; {
		case ok:
			lc.Reason = string(r)
		case !known || cfg.Dummy():
			lc.Reason = ReasonNotFound
		default:
			lc.Reason = ReasonUpToDate
		}
		e.Configs = append(e.Configs, lc)
	}
	switch {
	case p.Body == nil:
		e.Action = ActionNone
	case p.Restart:
		e.Action, e.Timestamp = ActionRestart, p.Timestamp
	default:
		e.Action = ActionUpdate
	}
	if p.Body != nil {
		e.Patch = json.RawMessage(p.Body)
	}
	return e
}

func kindOf(name string) string {
	k, _, _ := strings.Cut(name, "/")
	return k
}

func skipString(s core.Skip) string { return s.Path + ": " + s.Reason }

// writeLive prints the plan for people: each workload that opts in, what
// the planner does with it and why, and the totals.
func writeLive(w io.Writer, l Live) {
	where := "namespace " + l.Namespace
	if l.Namespace == "" {
		where = "every namespace"
	}
	if l.Selector != "" {
		where += ", workloads matching -l " + l.Selector
	}
	fmt.Fprintf(w, "Restart planner on %s: %s, %s; %s opting in (%s: enabled), %d not\n",
		where, plural(l.ConfigMaps, "ConfigMap"), plural(l.Secrets, "Secret"), plural(len(l.Workloads), "workload"), core.AnnotationEnabled, l.NotOptedIn)
	upToDate := 0
	for _, e := range l.Workloads {
		name := e.Kind + " " + e.Namespace + "/" + e.Name
		switch e.Action {
		case ActionRestart:
			fmt.Fprintf(w, "restart %s (%s = %q)\n", name, core.AnnotationTimestamp, e.Timestamp)
		case ActionUpdate:
			fmt.Fprintf(w, "record the config checksums of %s (no restart)\n", name)
		case ActionNone:
			upToDate++
			fmt.Fprintf(w, "up to date: %s\n", name)
		case ActionUnsupported:
			fmt.Fprintf(w, "not planned: %s opts in, but the restart planner restarts Deployments and StatefulSets only\n", name)
		case ActionError:
			fmt.Fprintf(w, "not planned: %s: %s\n", name, e.Error)
		}
		if e.Warning != "" {
			fmt.Fprintf(w, "    warning: %s\n", e.Warning)
		}
		for _, c := range e.Configs {
			fmt.Fprintf(w, "    %s\n", configLine(c))
		}
		for _, s := range e.Skipped {
			fmt.Fprintf(w, "    not followed: %s\n", s)
		}
	}
	fmt.Fprintf(w, "%s, %s without restart, %d up to date\n", plural(l.Restarts, "restart"), plural(l.Updates, "checksum update"), upToDate)
}

// configLine says why the planner does what it does for one config.
func configLine(c LiveConfig) string {
	switch core.Reason(c.Reason) {
	case core.ReasonChecksumChanged:
		return fmt.Sprintf("%s changed since the last restart (checksum %s → %s)", c.Config, c.Applied, c.Current)
	case core.ReasonRecordChecksum:
		return fmt.Sprintf("%s has no recorded checksum: %s recorded, no change seen since the workload referenced it", c.Config, c.Current)
	case core.ReasonChangedAgain, core.ReasonChangedSinceReferenced:
		return fmt.Sprintf("%s changed since the workload referenced it (checksum %s)", c.Config, c.Current)
	case core.ReasonPurgeChecksum:
		return fmt.Sprintf("%s is no longer referenced: its checksum %s is removed", c.Config, c.Applied)
	case core.ReasonUpToDate:
		return fmt.Sprintf("%s unchanged (checksum %s)", c.Config, c.Current)
	}
	if c.Reason == ReasonNotFound {
		if c.Applied != "" {
			return fmt.Sprintf("%s not found (recorded checksum %s kept until it exists)", c.Config, c.Applied)
		}
		return fmt.Sprintf("%s not found (the planner waits for it)", c.Config)
	}
	return c.Config + ": " + c.Reason
}

func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
