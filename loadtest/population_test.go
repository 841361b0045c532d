package loadtest

import (
	"testing"
	"time"
)

// A toggled thing's next call follows what the server last said of it.
func TestPopulation_SettleFollowsTheAnswers(t *testing.T) {
	p := (&dataset{}).on()
	for _, step := range []struct {
		undo bool
		code string
		want bool
	}{
		{undo: false, code: "", want: true},           // created
		{undo: true, code: "", want: false},           // undone
		{undo: false, code: "CONFLICT", want: true},   // someone else had made it
		{undo: true, code: "NOT_FOUND", want: false},  // someone else had undone it
		{undo: false, code: "FORBIDDEN", want: false}, // says nothing of it
	} {
		p.settle("k", step.undo, step.code)
		if got := p.exists("k"); got != step.want {
			t.Fatalf("after undo=%v answered %q: exists %v, want %v", step.undo, step.code, got, step.want)
		}
	}
}

// An owner's uploads within one second get timestamps a second apart: the key holds seconds.
func TestPopulation_UploadsOfOneOwnerNeverShareASecond(t *testing.T) {
	p := (&dataset{}).on()
	now := time.Date(2026, 11, 23, 10, 0, 0, 500, time.UTC)
	got := []string{p.nextUpload("a", now), p.nextUpload("a", now), p.nextUpload("b", now), p.nextUpload("a", now.Add(5*time.Second))}
	want := []string{"2026-11-23T10:00:00", "2026-11-23T10:00:01", "2026-11-23T10:00:00", "2026-11-23T10:00:05"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("upload %d: %s, want %s", i, got[i], want[i])
		}
	}
}

// A photo that comes into a feed because its owner was followed after the upload is counted
// apart: its delay is the follow's, not the upload's.
func TestSubscribers_DoNotTimeWhatANewFollowBrings(t *testing.T) {
	pop := (&dataset{}).on()
	s := &subscribers{pop: pop, sentAt: map[photoRef]time.Time{}}
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	p := photoRef{"owner", "2026-11-23T12:00:00Z"}
	s.uploading(p, start)
	s.arrived("old", p, start.Add(100*time.Millisecond))
	pop.followed("new", "owner", start.Add(5*time.Second))
	s.arrived("new", p, start.Add(6*time.Second))
	s.arrived("old", photoRef{"owner", "2019-01-01T00:00:00Z"}, start)
	var l LiveReport
	s.report(&l)
	if l.Events != 3 || l.Timed != 1 || l.Backfilled != 1 || l.Lag[0] != 100*time.Millisecond {
		t.Errorf("events %d, timed %d, backfilled %d, lags %v", l.Events, l.Timed, l.Backfilled, l.Lag)
	}
}
