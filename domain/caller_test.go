package domain

import (
	"context"
	"testing"
)

func TestCallerMayActAs(t *testing.T) {
	tests := []struct {
		name   string
		caller Caller
		as     string
		want   Code
	}{
		{"a user as themselves", Authenticated("alice"), "alice", ""},
		{"a user as another user", Authenticated("alice"), "bob", Forbidden},
		{"a user as a username differing in case", Authenticated("alice"), "Alice", Forbidden},
		{"an anonymous caller", Anonymous(), "alice", Unauthenticated},
		{"an anonymous caller as the empty username", Anonymous(), "", Unauthenticated},
		{"a trusted caller as anyone", Trusted(), "bob", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ErrorCode(tt.caller.MayActAs(tt.as)); got != tt.want {
				t.Errorf("MayActAs(%q) code = %q, want %q", tt.as, got, tt.want)
			}
		})
	}
}

func TestCallerMaySeePrivate(t *testing.T) {
	tests := []struct {
		name   string
		caller Caller
		of     string
		want   bool
	}{
		{"the owner", Authenticated("alice"), "alice", true},
		{"another user", Authenticated("bob"), "alice", false},
		{"an anonymous caller", Anonymous(), "alice", false},
		{"an anonymous caller, empty username", Anonymous(), "", false},
		{"a trusted caller", Trusted(), "alice", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.caller.MaySeePrivate(tt.of); got != tt.want {
				t.Errorf("MaySeePrivate(%q) = %v, want %v", tt.of, got, tt.want)
			}
		})
	}
}

func TestCallerFromDefaultsToAnonymous(t *testing.T) {
	if c := CallerFrom(context.Background()); c != Anonymous() {
		t.Errorf("CallerFrom(empty context) = %+v, want Anonymous", c)
	}
	ctx := WithCaller(context.Background(), Authenticated("alice"))
	if c := CallerFrom(ctx); c.Username != "alice" {
		t.Errorf("CallerFrom = %+v, want alice", c)
	}
}
