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
	// epilogue, when set, follows the flags in the usage message.
	epilogue string
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
		fmt.Fprint(stderr, f.epilogue)
	}
	return f
}

func envName(flagName string) string {
	return "QUICKPHOTOS_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// fromEnv is def, or the value of the flag's environment variable when it is set; a value
// parse refuses is noted for parse to report, as not being what.
func fromEnv[T any](f *flags, name string, def T, parse func(string) (T, error), what string) T {
	s, ok := os.LookupEnv(envName(name))
	if !ok {
		return def
	}
	v, err := parse(s)
	if err != nil {
		f.envErr = fmt.Errorf("%s: %q is not %s", envName(name), s, what)
		return def
	}
	return v
}

func (f *flags) String(p *string, name, def, usage string) {
	f.StringVar(p, name, fromEnv(f, name, def, func(s string) (string, error) { return s, nil }, ""), usage)
}

func (f *flags) Bool(p *bool, name string, def bool, usage string) {
	f.BoolVar(p, name, fromEnv(f, name, def, strconv.ParseBool, "a boolean"), usage)
}

func (f *flags) Int(p *int, name string, def int, usage string) {
	f.IntVar(p, name, fromEnv(f, name, def, strconv.Atoi, "a whole number"), usage)
}

func (f *flags) Float(p *float64, name string, def float64, usage string) {
	f.Float64Var(p, name, fromEnv(f, name, def, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }, "a number"), usage)
}

func (f *flags) Duration(p *time.Duration, name string, def time.Duration, usage string) {
	f.DurationVar(p, name, fromEnv(f, name, def, time.ParseDuration, "a duration like 30s"), usage)
}

// parse parses args, reporting a malformed environment variable first.
func (f *flags) parse(args []string) error {
	if f.envErr != nil {
		return f.envErr
	}
	return f.Parse(args)
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
