package loadtest

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Report is what a run measured, per target.
type Report struct {
	Mix     string
	Clients int
	// Rate is the open loop's operations a second (Config.Rate), 0 for a closed loop.
	Rate float64
	// Procs is how many cores the load tool's own goroutines ran on (GOMAXPROCS).
	Procs   int
	Targets []*TargetReport
	// Alone are the runs of each operation of the mix alone (Config.Alone), in the mix's order.
	Alone []*Report
}

// TargetReport is what one target sustained over all its rounds.
type TargetReport struct {
	URL string
	// Ops are the operations of the mix, in its order.
	Ops []*OpReport
	// Rounds are the operations a second of each round, in order.
	Rounds []float64
	// Backlogs are, in an open loop (Config.Rate), the operations due but not yet sent at the
	// end of each round, in order.
	Backlogs []int
	// Elapsed is the measured time over all rounds.
	Elapsed time.Duration
	// ToolCPU is the CPU time the load tool itself used over those rounds, 0 where the system
	// does not say (or with a greedy caller): when the tool shares the targets' machine, it is
	// CPU they did not have, and near Procs cores it, not the target, sets the rate.
	ToolCPU time.Duration
	// Live is what the subscribers received; nil without subscription mode.
	Live *LiveReport
	// Greedy is how the mix fared beside a greedy caller; nil without one.
	Greedy *GreedyReport
}

// OpReport is one operation's outcomes and latencies.
type OpReport struct {
	Name string
	// OK operations succeeded; Rejected got CONFLICT or NOT_FOUND, the answers a concurrent
	// workload expects (a reaction someone else made a moment earlier); Failed got anything
	// else: transport errors, HTTP errors, other error codes.
	OK, Rejected, Failed int
	// Errors are up to five distinct failures, to say what went wrong.
	Errors  []string
	Latency latencies
}

// LiveReport is what the subscribers of a target received.
type LiveReport struct {
	Subscribers int
	// Events is how many feedPhotoAdded events arrived; Timed is how many of them were of
	// uploads the run made, whose lag is in Lag; Backfilled is how many were photos the run
	// uploaded that came into a feed because its owner was followed after (not timed).
	Events, Timed, Backfilled int
	// Ended counts subscriptions the server ended (an error, such as falling behind).
	Ended int
	Lag   latencies
}

func newTargetReport(url string, m Mix) *TargetReport {
	t := &TargetReport{URL: url}
	for _, op := range m.ops {
		t.Ops = append(t.Ops, &OpReport{Name: op.name})
	}
	return t
}

// Total is the number of operations answered (succeeded or rejected).
func (t *TargetReport) Total() int {
	n := 0
	for _, op := range t.Ops {
		n += op.OK + op.Rejected
	}
	return n
}

// Failed is the number of operations that failed.
func (t *TargetReport) Failed() int {
	n := 0
	for _, op := range t.Ops {
		n += op.Failed
	}
	return n
}

// PerSecond is the operations answered a second over all rounds.
func (t *TargetReport) PerSecond() float64 {
	if t.Elapsed <= 0 {
		return 0
	}
	return float64(t.Total()) / t.Elapsed.Seconds()
}

// KeptUp reports whether an open loop at rate operations a second ended every round on
// schedule, within scheduleSlack: if not, the target or the clients (Config.Clients bounds
// those in flight) fell behind, and operations waited for a free client.
func (t *TargetReport) KeptUp(rate float64) bool {
	for _, b := range t.Backlogs {
		if float64(b) > rate*scheduleSlack.Seconds() {
			return false
		}
	}
	return true
}

// Op returns the report of the named operation, nil when the mix has none.
func (t *TargetReport) Op(name string) *OpReport {
	for _, op := range t.Ops {
		if op.Name == name {
			return op
		}
	}
	return nil
}

// add folds one round's recorder into the report.
func (t *TargetReport) add(rec *recorder, elapsed time.Duration, subs *subscribers) {
	n := 0
	for i, got := range rec.ops {
		op := t.Ops[i]
		op.OK += got.OK
		op.Rejected += got.Rejected
		op.Failed += got.Failed
		op.Latency = append(op.Latency, got.Latency...)
		for _, e := range got.Errors {
			op.noteError(e)
		}
		n += got.OK + got.Rejected
	}
	t.Elapsed += elapsed
	t.Rounds = append(t.Rounds, float64(n)/elapsed.Seconds())
	if rec.backlog >= 0 {
		t.Backlogs = append(t.Backlogs, rec.backlog)
	}
	if subs != nil {
		if t.Live == nil {
			t.Live = &LiveReport{Subscribers: subs.n}
		}
		subs.report(t.Live)
	}
}

// noteError keeps msg among the failures the report names: the first five distinct ones.
func (op *OpReport) noteError(msg string) {
	if len(op.Errors) < 5 && !slices.Contains(op.Errors, msg) {
		op.Errors = append(op.Errors, msg)
	}
}

// recorder collects one round's outcomes, for every client at once.
type recorder struct {
	mu  sync.Mutex
	idx map[*operation]int
	ops []*OpReport
	// backlog is an open loop's operations due and not yet sent at the round's end; -1 in a
	// closed loop.
	backlog int
}

func newRecorder(m Mix) *recorder {
	r := &recorder{idx: map[*operation]int{}, backlog: -1}
	for i, op := range m.ops {
		r.idx[op] = i
		r.ops = append(r.ops, &OpReport{Name: op.name})
	}
	return r
}

// answered records an answer; a nil recorder records nothing (warm-up).
func (r *recorder) answered(op *operation, code string, took time.Duration) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	got := r.ops[r.idx[op]]
	switch code {
	case "":
		got.OK++
	case "CONFLICT", "NOT_FOUND":
		got.Rejected++
	default:
		got.Failed++
		got.noteError(code)
		return
	}
	got.Latency = append(got.Latency, took)
}

// behind records an open loop's backlog at the round's end; a nil recorder records nothing.
func (r *recorder) behind(backlog int) {
	if r != nil {
		r.backlog = backlog
	}
}

// failed records an operation that got no GraphQL answer.
func (r *recorder) failed(op *operation, err error) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	got := r.ops[r.idx[op]]
	got.Failed++
	got.noteError(err.Error())
}

// Write prints the report as a table per target, then the targets' ratios to the first.
func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "mix %s, %d clients", r.Mix, r.Clients)
	if r.Rate > 0 {
		fmt.Fprintf(w, ", open loop at %g operations/s (latency from each one's due time)", r.Rate)
	}
	fmt.Fprintln(w)
	for _, t := range r.Targets {
		rounds := make([]string, len(t.Rounds))
		for i, x := range t.Rounds {
			rounds[i] = fmt.Sprintf("%.0f", x)
		}
		fmt.Fprintf(w, "\n%s: %d operations in %s, %.0f ops/s (rounds: %s), %d failed\n",
			t.URL, t.Total(), t.Elapsed.Round(time.Millisecond), t.PerSecond(), strings.Join(rounds, ", "), t.Failed())
		fmt.Fprintf(w, "  %-10s %8s %9s %9s %9s %9s %9s %9s %7s\n", "operation", "answered", "ops/s", "p50", "p90", "p99", "max", "rejected", "failed")
		for _, op := range t.Ops {
			fmt.Fprintf(w, "  %-10s %8d %9.1f %9s %9s %9s %9s %9d %7d\n", op.Name, op.OK+op.Rejected,
				float64(op.OK+op.Rejected)/t.Elapsed.Seconds(), ms(op.Latency.Percentile(50)), ms(op.Latency.Percentile(90)),
				ms(op.Latency.Percentile(99)), ms(op.Latency.Max()), op.Rejected, op.Failed)
			for _, e := range op.Errors {
				fmt.Fprintf(w, "    failure: %s\n", e)
			}
		}
		if r.Rate > 0 && !t.KeptUp(r.Rate) {
			backlogs := make([]string, len(t.Backlogs))
			for i, b := range t.Backlogs {
				backlogs[i] = strconv.Itoa(b)
			}
			fmt.Fprintf(w, "  behind the rate: operations due and not yet sent at the end of each round: %s; the latencies include the queue that grew\n",
				strings.Join(backlogs, ", "))
		}
		if busy, ok := t.toolBusy(); ok {
			fmt.Fprintf(w, "  load tool: %.2f of its %d cores busy, %.0fµs of CPU per operation\n",
				busy, r.Procs, float64(t.ToolCPU.Microseconds())/float64(max(t.Total()+t.Failed(), 1)))
			if r.nearLimit(busy) {
				fmt.Fprintf(w, "  the load tool was near its limit: this rate may be the tool's, not the target's (--procs)\n")
			}
		}
		if g := t.Greedy; g != nil {
			alone, beside := g.Alone.Percentile(99), g.Beside.Percentile(99)
			fmt.Fprintf(w, "  beside a greedy caller (%d clients): the mix's reads p50 %s → %s, p99 %s → %s (%+.1f%%); %.0f → %.0f reads/s; the greedy caller: %d served, %d refused, %d failed\n",
				g.Clients, ms(g.Alone.Percentile(50)), ms(g.Beside.Percentile(50)), ms(alone), ms(beside),
				100*(float64(beside)/float64(alone)-1), float64(len(g.Alone))/g.AloneTime.Seconds(), float64(len(g.Beside))/g.BesideTime.Seconds(),
				g.Served, g.Refused, g.Failed)
		}
		if l := t.Live; l != nil {
			fmt.Fprintf(w, "  subscription mode: %d subscribers received %d events (%.0f events/s); upload→subscriber lag over %d events (%d more came with new follows) p50 %s p99 %s max %s; %d subscriptions ended by the server\n",
				l.Subscribers, l.Events, float64(l.Events)/t.Elapsed.Seconds(), l.Timed, l.Backfilled,
				ms(l.Lag.Percentile(50)), ms(l.Lag.Percentile(99)), ms(l.Lag.Max()), l.Ended)
		}
	}
	if len(r.Targets) > 1 {
		base := r.Targets[0]
		fmt.Fprintf(w, "\nops/s relative to %s:\n", base.URL)
		for _, t := range r.Targets[1:] {
			fmt.Fprintf(w, "  %s: %.2f×\n", t.URL, t.PerSecond()/base.PerSecond())
		}
	}
	if len(r.Alone) > 0 {
		r.writeAlone(w)
	}
}

// writeAlone prints the runs of each operation alone: a row each, and for each target its ops/s,
// its ratio to the first target's (after the first) and its p99; any failures below.
func (r *Report) writeAlone(w io.Writer) {
	fmt.Fprintf(w, "\neach operation alone (×: ops/s relative to [1]):\n")
	for i, t := range r.Targets {
		fmt.Fprintf(w, "  [%d] %s\n", i+1, t.URL)
	}
	fmt.Fprintf(w, "  %-10s", "operation")
	for i := range r.Targets {
		if i > 0 {
			fmt.Fprintf(w, " %7s", "×")
		}
		fmt.Fprintf(w, " %11s %9s", fmt.Sprintf("[%d] ops/s", i+1), "p99")
	}
	fmt.Fprintln(w)
	var failures, limited []string
	for _, a := range r.Alone {
		base := a.Targets[0]
		fmt.Fprintf(w, "  %-10s", base.Ops[0].Name)
		for i, t := range a.Targets {
			op := t.Ops[0]
			if i > 0 {
				fmt.Fprintf(w, " %6.2f×", t.PerSecond()/base.PerSecond())
			}
			fmt.Fprintf(w, " %11.0f %9s", t.PerSecond(), ms(op.Latency.Percentile(99)))
			if op.Failed > 0 {
				failures = append(failures, fmt.Sprintf("%s on [%d]: %d failed: %s", op.Name, i+1, op.Failed, strings.Join(op.Errors, "; ")))
			}
			if busy, ok := t.toolBusy(); ok && a.nearLimit(busy) {
				limited = append(limited, fmt.Sprintf("%s on [%d] (%.2f of its %d cores)", op.Name, i+1, busy, a.Procs))
			}
		}
		fmt.Fprintln(w)
	}
	for _, f := range failures {
		fmt.Fprintf(w, "  failure: %s\n", f)
	}
	if len(limited) > 0 {
		fmt.Fprintf(w, "  the load tool was near its limit, so these rates may be the tool's, not the target's (--procs): %s\n", strings.Join(limited, ", "))
	}
}

// toolBusy is how many cores the load tool kept busy, on average, over t's rounds; false when
// its CPU is not known.
func (t *TargetReport) toolBusy() (float64, bool) {
	if t.ToolCPU <= 0 || t.Elapsed <= 0 {
		return 0, false
	}
	return t.ToolCPU.Seconds() / t.Elapsed.Seconds(), true
}

// nearLimit says whether the load tool, busy on that many cores, was close enough to its own
// to have set the rate itself.
func (r *Report) nearLimit(busy float64) bool { return busy > 0.9*float64(r.Procs) }

// ms spells a duration in milliseconds with two decimals.
func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond)) }
