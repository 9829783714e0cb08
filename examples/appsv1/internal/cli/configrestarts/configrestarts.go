// Package configrestarts is `kubectl rolloutplan config-restarts`: on the
// live cluster it reads the ConfigMaps, Secrets and workloads of a
// namespace and says which workloads the config-change restart planner
// (plan/restart, the decisions of the kubernetes-deployment-restart-
// controller) would restart now, and why; with -f it replays a script of
// edits to ConfigMaps, Secrets and workloads (and the restart checks
// between them) through the planner and says which workloads restart, when
// and why. With -o json or -o yaml it prints the live plan, or the
// planner's whole trace of a script.
package configrestarts

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	core "github.com/rolloutplan/rolloutplan/plan/restart"
	"github.com/rolloutplan/rolloutplan/plan/restart/replay"
)

const long = `Says which workloads the config-change restart planner (the decisions of
the kubernetes-deployment-restart-controller v1.3.0) restarts, when and why.

A workload takes part when it has the annotation
com.xing.deployment-restart: enabled; the planner restarts it when a
ConfigMap or Secret it references changes, one grace period after the first
edit is seen, by setting its pod template annotation
com.xing.deployment-restart.timestamp. It records the checksums of the
configs it applied in the annotation
com.xing.deployment-restart.applied-config-checksums.

Without -f it reads the live cluster: the ConfigMaps, Secrets, Deployments,
StatefulSets and DaemonSets of the namespace (-n, or the context's; -A every
namespace; -l selects the workloads) and shows what a planner started now
does once its grace period has passed: which workloads it restarts (a
config whose checksum differs from the one the workload's annotation
records), whose checksums it only records, which are up to date, and why,
config by config. It sends nothing. DaemonSets that opt in are listed: the
planner does not restart them. -o json (or yaml) prints the same, with the
patch each workload would get.

With -f it replays a script of edits to ConfigMaps, Secrets, Deployments
and StatefulSets through the planner and says which workloads restart, when
and why; -o json (or yaml) prints the planner's whole trace, step by step.

The script (-f FILE, or -f - for standard input) is JSON or YAML:

  name: my-scenario                # optional
  comment: what it shows           # optional
  gracePeriodSeconds: 5            # the planner's grace period (default 5)
  echoDelaySeconds: 0.5            # optional: each patched workload comes
                                   # back as an update after this delay
  ignoredErrors: ["conflict"]      # optional: patch errors that are not fatal
  events:                          # in time order; at: seconds after
                                   # 2024-01-01T00:00:00Z
  - {at: 0, op: update, object: {kind: ConfigMap, ...}}   # created or edited
  - {at: 0, op: update, object: {kind: Deployment, ...}}  # a ConfigMap, Secret,
                                                          # Deployment or StatefulSet
  - {at: 1, op: tick}              # the restart check runs
  - {at: 8, op: delete, object: {...}, tombstone: true}   # tombstone: seen as
                                                          # a missed delete
  - {at: 9, op: failPatches, resource: deployment/default/web, error: "conflict"}
                                   # patches of it fail (error "": succeed again)
  - {at: 10, op: stop}             # the controller stops (kill: crashes;
  - {at: 11, op: start}            # start: starts again and lists everything)

An update of a workload keeps the two annotations the planner owns unless
replace: true. A line {"script": ..., "trace": ...} of a recorded .jsonl
works too.

The script is read strictly, as the other subcommands read snapshots: a
key given twice, a key spelled in another case ("Events"), a key the
script or its event does not have (or its op does not read), a null or
empty script, a null event or an empty events list are errors that name
the key's path, e.g. events[3].op (in YAML a repeated key is named with
its line).

--max-input caps the script (default 64 MiB): a larger one is refused
before it is decoded, having read at most the cap plus one byte, and the
refusal holds at most the cap in memory. A script within the cap takes
up to about 50 times its size in memory, as JSON or as YAML (a YAML
script's events are converted to JSON one at a time); the trace is
printed step by step, never held whole.`

const example = `  # Which workloads of namespace shop the planner would restart now, and why
  kubectl rolloutplan config-restarts -n shop

  # The same in every namespace, with each workload's patch, as YAML
  kubectl rolloutplan config-restarts -A -o yaml

  # Which workloads restart in a scripted scenario, and why
  kubectl rolloutplan config-restarts -f scenario.yaml

  # The whole trace, as the original controller's recorded behaviour is written
  kubectl rolloutplan config-restarts -f scenario.json -o json --compat all`

// NewCommand returns the config-restarts subcommand.
func NewCommand(env *rolloutio.Env) *cobra.Command {
	var (
		files    []string
		out      rolloutio.Output
		original bool
		binary   bool
		layout   string
		compat   string
		indent   bool
		all      bool
		selector string
		maxInput int64
	)
	cmd := &cobra.Command{
		Use:     "config-restarts [-f SCRIPT] [flags]",
		Short:   "Which workloads the ConfigMap and Secret restart planner restarts, when and why (live, or a scripted scenario)",
		Long:    long,
		Example: example,
		Args:    rolloutio.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := out.Validate(); err != nil {
				return err
			}
			if len(files) > 1 {
				return rolloutio.Usagef("-f given %d times: give one script", len(files))
			}
			if maxInput < 1 || maxInput > math.MaxInt64-1 {
				return rolloutio.Usagef("--max-input %d: out of range 1 to 9223372036854775806", maxInput)
			}
			if len(files) == 0 && cmd.Flags().Changed("max-input") {
				return rolloutio.Usagef("--max-input applies to -f only")
			}
			if len(files) == 1 {
				if files[0] == "" {
					return rolloutio.Usagef("-f: empty file name (- reads standard input)")
				}
				for _, name := range []string{"all-namespaces", "selector"} {
					if cmd.Flags().Changed(name) {
						return rolloutio.Usagef("--%s applies to the live cluster, not to a script (-f)", name)
					}
				}
			}
			rolloutio.Warn(env, cmd, "indent", "-o json is indented")
			if indent && out.Format != "json" {
				return rolloutio.Usagef("--indent applies to -o json")
			}
			opts := core.Options{OriginalReferences: original, IncludeBinaryData: binary}
			switch layout {
			case "stamp":
			case "rfc3339":
				opts.TimestampLayout = time.RFC3339
			default:
				return rolloutio.Usagef("--timestamp %q: want stamp or rfc3339", layout)
			}
			c, err := parseCompat(compat)
			if err != nil {
				return rolloutio.Usagef("--compat: %v", err)
			}
			opts.Compat = c
			if len(files) == 0 {
				return live(env, cmd, &out, liveOptions{planner: opts, allNamespaces: all, selector: selector})
			}
			in, err := readScript(env.In, files[0], maxInput)
			if err != nil {
				return err
			}
			s, err := parse(in)
			if err != nil {
				return err
			}
			in = nil // the script holds what it needs of the input
			return replayScript(env.Out, &out, s, replay.Options{Planner: opts})
		},
	}
	fs := cmd.Flags()
	fs.StringArrayVarP(&files, "filename", "f", nil, "The script to replay (- for standard input); without it, the live cluster is read")
	// The same flag, default and bounds as the subcommands that read
	// snapshots (rolloutio.Target).
	fs.Int64Var(&maxInput, "max-input", input.DefaultMaxBytes, "With -f, the most bytes read from one file, 1 to 9223372036854775806; reading takes at most about 10 times the file's size in memory plus a few MB, JSON or YAML, whatever its shape (a file whose objects would take more is refused: many tiny objects, empty containers), 50 times for a restart script")
	fs.BoolVarP(&all, "all-namespaces", "A", false, "Read every namespace of the live cluster")
	fs.StringVarP(&selector, "selector", "l", "", "Label selector of the live cluster's workloads (e.g. -l app=web); every ConfigMap and Secret is read")
	out.AddFlag(fs)
	fs.Lookup("output").Usage = "Output format: json or yaml, the live plan with each workload's patch, or a script's whole trace (default: text)"
	fs.BoolVar(&original, "original-references", false, "Track only the original controller's references (containers' envFrom and ConfigMap volumes)")
	fs.BoolVar(&binary, "include-binary-data", false, "Let ConfigMap checksums cover binaryData (the original ignores it)")
	fs.StringVar(&layout, "timestamp", "stamp", "Restart annotation format: stamp (time.Stamp, as the original) or rfc3339")
	fs.StringVar(&compat, "compat", "", "Comma-separated shortfalls of the original to reproduce: recreated-config-unlinked, miss-single-update, no-retry, same-second-timestamp, or all")
	fs.BoolVar(&indent, "indent", false, "Indent the JSON output")
	rolloutio.Deprecate(cmd, "indent")
	rolloutio.CompleteOutput(cmd)
	_ = cmd.RegisterFlagCompletionFunc("timestamp", cobra.FixedCompletions([]cobra.Completion{"stamp", "rfc3339"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// live plans on the live cluster and prints the plan.
func live(env *rolloutio.Env, cmd *cobra.Command, out *rolloutio.Output, o liveOptions) error {
	c, err := env.Client()
	if err != nil {
		return err
	}
	ns, _, err := env.Namespace()
	if err != nil {
		return err
	}
	now := env.Now()
	ctx := env.Context
	if ctx == nil {
		ctx = cmd.Context()
	}
	l, err := runLive(ctx, c, ns, now, o)
	if err != nil {
		return err
	}
	rolloutio.Time{At: now, Why: rolloutio.TimeLive}.Print(env.ErrOut)
	if out.Structured() {
		return out.Print(env.Out, l)
	}
	writeLive(env.Out, l)
	return nil
}

// summary prints what a trace does for people, step by step: each restart
// and checksum update with its reason, the failures, and a total (end).
type summary struct {
	w       io.Writer
	edits   map[string]edit              // config → its last edit
	applied map[string]map[string]string // workload → config → checksum applied
	// restarts, updates and failures count the patches; workloads are
	// those restarted.
	restarts, updates, failures int
	workloads                   map[string]bool
}

type edit struct {
	at       float64
	checksum string
}

// newSummary prints the script's line and returns the summary of its
// trace.
func newSummary(w io.Writer, s replay.Script) *summary {
	if s.Name != "" {
		fmt.Fprintf(w, "Script %s: %d events over %s\n", s.Name, len(s.Events), seconds(lastAt(s)))
	} else {
		fmt.Fprintf(w, "Script: %d events over %s\n", len(s.Events), seconds(lastAt(s)))
	}
	return &summary{w: w, edits: map[string]edit{}, applied: map[string]map[string]string{}, workloads: map[string]bool{}}
}

// step prints what one step of the trace does.
func (m *summary) step(st replay.Step) {
	w := m.w
	kind, _, _ := strings.Cut(st.Resource, "/")
	switch {
	case st.Op == "update" && (kind == "configmap" || kind == "secret") && st.Checksum != "":
		m.edits[st.Resource] = edit{st.At, st.Checksum}
	case st.Op == "update" && st.AppliedChecksums != nil:
		m.applied[st.Resource] = maps.Clone(*st.AppliedChecksums)
	}
	for _, p := range st.Patches {
		name := strings.ToLower(p.Kind) + "/" + p.Namespace + "/" + p.Name
		when := fmt.Sprintf("%s (%s)", seconds(st.At), replay.Epoch().Add(time.Duration(st.At*float64(time.Second))).Format(time.RFC3339))
		newSums := patchedChecksums(p.Body)
		if p.Error != "" {
			m.failures++
			fmt.Fprintf(w, "%s: the patch of %s %s/%s failed: %s\n", when, p.Kind, p.Namespace, p.Name, p.Error)
			continue
		}
		var why []string
		for _, cfg := range slices.Sorted(maps.Keys(newSums)) {
			old, had := m.applied[name][cfg]
			if had && old == newSums[cfg] {
				continue
			}
			e := m.edits[cfg]
			switch {
			case !had:
				why = append(why, fmt.Sprintf("%s checksum %s recorded", cfg, newSums[cfg]))
			case e.checksum == newSums[cfg]:
				why = append(why, fmt.Sprintf("%s changed at %s (checksum %s → %s)", cfg, seconds(e.at), old, newSums[cfg]))
			default:
				why = append(why, fmt.Sprintf("%s changed (checksum %s → %s)", cfg, old, newSums[cfg]))
			}
		}
		for _, cfg := range slices.Sorted(maps.Keys(m.applied[name])) {
			if _, ok := newSums[cfg]; !ok && newSums != nil {
				why = append(why, cfg+" no longer referenced")
			}
		}
		if p.Restart {
			m.restarts++
			m.workloads[name] = true
			fmt.Fprintf(w, "%s: restart %s %s/%s", when, p.Kind, p.Namespace, p.Name)
			if ts := restartedAt(p.Body); ts != "" {
				fmt.Fprintf(w, " (%s = %q)", core.AnnotationTimestamp, ts)
			}
			fmt.Fprintln(w)
		} else {
			m.updates++
			fmt.Fprintf(w, "%s: record the config checksums of %s %s/%s (no restart)\n", when, p.Kind, p.Namespace, p.Name)
		}
		for _, r := range why {
			fmt.Fprintf(w, "    %s\n", r)
		}
		if newSums != nil {
			m.applied[name] = newSums
		}
	}
	if st.Fatal != "" {
		fmt.Fprintf(w, "%s: the controller stops on an error: %s\n", seconds(st.At), st.Fatal)
	}
	for _, warn := range st.Warnings {
		fmt.Fprintf(w, "%s: warning: %s\n", seconds(st.At), strings.TrimPrefix(warn, "W "))
	}
}

// end prints the totals.
func (m *summary) end() {
	fmt.Fprintf(m.w, "%d restarts of %d workloads, %d checksum updates without restart, %d failed patches\n", m.restarts, len(m.workloads), m.updates, m.failures)
}

// patchedChecksums reads the applied-checksums annotation a patch sets
// (nil when it sets none).
func patchedChecksums(body json.RawMessage) map[string]string {
	var p struct {
		Metadata struct {
			Annotations map[string]*string `json:"annotations"`
		} `json:"metadata"`
	}
	if json.Unmarshal(body, &p) != nil {
		return nil
	}
	v := p.Metadata.Annotations[core.AnnotationChecksums]
	if v == nil {
		return nil
	}
	m, err := core.ParseChecksums(*v)
	if err != nil {
		return nil
	}
	if m == nil {
		m = map[string]string{}
	}
	return m
}

// restartedAt reads the restart annotation a patch sets on the pod
// template.
func restartedAt(body json.RawMessage) string {
	var p struct {
		Spec struct {
			Template struct {
				Metadata struct {
					Annotations map[string]string `json:"annotations"`
				} `json:"metadata"`
			} `json:"template"`
		} `json:"spec"`
	}
	if json.Unmarshal(body, &p) != nil {
		return ""
	}
	return p.Spec.Template.Metadata.Annotations[core.AnnotationTimestamp]
}

func lastAt(s replay.Script) float64 {
	if len(s.Events) == 0 {
		return 0
	}
	return s.Events[len(s.Events)-1].At
}

// seconds is "+13s", "+1.5s".
func seconds(at float64) string {
	return "+" + (time.Duration(at * float64(time.Second))).String()
}

func parseCompat(v string) (core.Compat, error) {
	var c core.Compat
	if v == "" {
		return c, nil
	}
	for _, name := range strings.Split(v, ",") {
		switch strings.TrimSpace(name) {
		case "recreated-config-unlinked":
			c.RecreatedConfigUnlinked = true
		case "miss-single-update":
			c.MissSingleUpdate = true
		case "no-retry":
			c.NoRetry = true
		case "same-second-timestamp":
			c.SameSecondTimestamp = true
		case "all":
			c = core.Compat{RecreatedConfigUnlinked: true, MissSingleUpdate: true, NoRetry: true, SameSecondTimestamp: true}
		default:
			return c, fmt.Errorf("unknown shortfall %q (want recreated-config-unlinked, miss-single-update, no-retry, same-second-timestamp or all)", name)
		}
	}
	return c, nil
}
