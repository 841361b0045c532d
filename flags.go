package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// flags is a FlagSet whose every flag also reads an environment variable: QUICKPHOTOS_ and the
// flag's name in upper case with '-' as '_' (--endpoint-url is QUICKPHOTOS_ENDPOINT_URL). A
// flag on the command line wins over the variable.
type flags struct {
	*flag.FlagSet
	envErr error
}

func newFlags(name string, stderr io.Writer) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &flags{FlagSet: fs}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: quickphotos %s [flags]\n\nflags (and their environment variables):\n", name)
		fs.VisitAll(func(fl *flag.Flag) {
			fmt.Fprintf(stderr, "  --%s (%s)\n    \t%s (default %q)\n", fl.Name, envName(fl.Name), fl.Usage, fl.DefValue)
		})
	}
	return f
}

func envName(flagName string) string {
	return "QUICKPHOTOS_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func (f *flags) envOr(name, def string) string {
	if v, ok := os.LookupEnv(envName(name)); ok {
		return v
	}
	return def
}

func (f *flags) String(p *string, name, def, usage string) {
	f.StringVar(p, name, f.envOr(name, def), usage)
}

func (f *flags) Bool(p *bool, name string, def bool, usage string) {
	v := def
	if s, ok := os.LookupEnv(envName(name)); ok {
		b, err := strconv.ParseBool(s)
		if err != nil {
			f.envErr = fmt.Errorf("%s: %q is not a boolean", envName(name), s)
		}
		v = b
	}
	f.BoolVar(p, name, v, usage)
}

func (f *flags) Int(p *int, name string, def int, usage string) {
	v := def
	if s, ok := os.LookupEnv(envName(name)); ok {
		n, err := strconv.Atoi(s)
		if err != nil {
			f.envErr = fmt.Errorf("%s: %q is not a whole number", envName(name), s)
		}
		v = n
	}
	f.IntVar(p, name, v, usage)
}

func (f *flags) Duration(p *time.Duration, name string, def time.Duration, usage string) {
	v := def
	if s, ok := os.LookupEnv(envName(name)); ok {
		d, err := time.ParseDuration(s)
		if err != nil {
			f.envErr = fmt.Errorf("%s: %q is not a duration like 30s", envName(name), s)
		}
		v = d
	}
	f.DurationVar(p, name, v, usage)
}

// parse parses args, reporting a malformed environment variable first.
func (f *flags) parse(args []string) error {
	if f.envErr != nil {
		return f.envErr
	}
	return f.Parse(args)
}
