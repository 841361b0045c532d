package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress draws a one-line counter on a terminal, at most ten times a second; elsewhere
// (a pipe, a log file) it stays silent.
type progress struct {
	w     io.Writer
	tty   bool
	last  time.Time
	start time.Time
	drawn bool
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, start: time.Now()}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progress) update(written int) {
	if !p.tty || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	rate := float64(written) / time.Since(p.start).Seconds()
	fmt.Fprintf(p.w, "\r%s %d items written (%.0f/s)", spinner[written/25%len(spinner)], written, rate)
	p.drawn = true
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func (p *progress) done() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
