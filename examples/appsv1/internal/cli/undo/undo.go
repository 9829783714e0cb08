// Package undo is `kubectl-rolloutplan undo`: what `kubectl rollout undo`
// prints for a Deployment in a given cluster state, and the patch it would
// send.
package undo

import (
	"fmt"
	"io"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// Run runs the subcommand: flags and arguments in args, the state on stdin
// (or -f), kubectl's output on stdout and stderr. With --show-patch the
// JSON patch kubectl would send follows on stdout. It returns 0, 1 for
// kubectl's errors and unreadable input, 2 for bad flags.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := rolloutio.NewCommand("undo", "[deployment/NAME] [--to-revision=N] [--dry-run=none|client|server] [flags]", `Prints what 'kubectl rollout undo' prints for the Deployment in a cluster
state ('kubectl get deployment,replicasets -o json' or -o yaml). Nothing is
sent anywhere.`,
		`Exit codes: 0 printed (rolled back or skipped); 1 kubectl's errors (paused, revision
not found, bad --dry-run value, as kubectl) or unreadable input; 2 bad flags or arguments.`, stderr)
	fs, t := c.FlagSet, &c.Target
	toRevision := fs.Int64("to-revision", 0, "the `revision` to roll back to (0: the previous one)")
	dryRun := fs.String("dry-run", "none", "`none`, client (print the template that would be restored) or server (as none, marked server dry run)")
	showPatch := fs.Bool("show-patch", false, "also print the JSON patch kubectl would send to the Deployment")
	if code, stop := c.Parse(args, stdout); stop {
		return code
	}
	switch *dryRun {
	case "none", "client", "server":
	default:
		// kubectl's text, capitalised as kubectl has it.
		fmt.Fprintf(stderr, "error: Invalid dry-run value (%s). Must be \"none\", \"server\", or \"client\".\n", *dryRun)
		return 1
	}
	s, err := t.Read(stdin, stderr, "undo", time.Time{})
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	d := s.Deployment
	if _, ok := d.Annotations[model.LastAppliedConfigAnnotation]; ok {
		fmt.Fprintf(stderr, "Warning: resource deployments/%[1]s was previously managed with '%[3]s apply'. "+
			"Rolling back will not update the %[2]s annotation, which may cause unexpected behavior on future '%[3]s apply' operations. "+
			"Consider using '%[3]s apply' with your previous configuration file instead.\n", d.Name, model.LastAppliedConfigAnnotation, "kubectl")
	}
	if *dryRun == "client" {
		out, err := rollout.UndoDryRun(d, s.ReplicaSets, *toRevision)
		if err != nil {
			return rolloutio.Fail(stderr, err)
		}
		fmt.Fprintf(stdout, "%s %s (dry run)\n", rolloutio.ObjectName(d), out)
		return 0
	}
	r, err := rollout.Undo(d, s.ReplicaSets, *toRevision, appsv1.TemplateJSON)
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	suffix := ""
	if *dryRun == "server" {
		suffix = " (server dry run)"
	}
	fmt.Fprintf(stdout, "%s %s%s\n", rolloutio.ObjectName(d), r.Output, suffix)
	if *showPatch && r.Patch != nil {
		fmt.Fprintf(stdout, "%s\n", r.Patch)
	}
	return 0
}
