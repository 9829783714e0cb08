package rolloutio

import (
	"flag"
	"fmt"
	"io"
)

// Command is the command line of one kubectl-view subcommand: a flag set
// holding the Target's flags (add the subcommand's own to FlagSet before
// Parse), and the usage text printed around the flag defaults.
type Command struct {
	FlagSet *flag.FlagSet
	Target  Target
}

// NewCommand returns the command line of subcommand name. Its usage reads
//
//	Usage: kubectl-rolloutplan NAME SYNOPSIS
//
//	ABOUT
//
//	Flags:
//	  (the flag defaults)
//
//	EXITS
//
// Flag errors go to stderr.
func NewCommand(name, synopsis, about, exits string, stderr io.Writer) *Command {
	c := &Command{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError)}
	fs := c.FlagSet
	fs.SetOutput(stderr)
	c.Target.AddFlags(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: kubectl-rolloutplan %s %s\n\n%s\n\nFlags:\n", name, synopsis, about)
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), "\n%s\n", exits)
	}
	return c
}

// Parse parses args ([ParseFlags]), takes the Deployment from the
// positional arguments ([Target.ParseArgs]) and validates the Target. It
// returns the exit status to end with and whether to end: 0 after -h, 2
// after a bad flag or argument (reported with the usage on stderr).
func (c *Command) Parse(args []string, stdout io.Writer) (status int, stop bool) {
	pos, code, stop := ParseFlags(c.FlagSet, args, stdout)
	if stop {
		return code, true
	}
	if err := c.Target.ParseArgs(pos); err != nil {
		return BadFlag(c.FlagSet, err), true
	}
	if err := c.Target.Validate(); err != nil {
		return BadFlag(c.FlagSet, err), true
	}
	return 0, false
}
