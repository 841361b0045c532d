package api_test

import (
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

// TestProfileText_ControlAndBidiCharactersAreRefused: NUL, BEL, other control characters and
// bidirectional controls never reach a profile, whether they come as variables (JSON escapes)
// or as escapes in the document's own string literals; nothing is written.
func TestProfileText_ControlAndBidiCharactersAreRefused(t *testing.T) {
	srv := apitest.NewServer(t)
	srv.MustCreateUser(t, "alice")
	const create = `mutation($in: CreateUserInput!) { createUser(input: $in) { username } }`
	const update = `mutation($in: UpdateUserInput!) { updateUser(username: "alice", input: $in) { name } }`
	// Each character goes into a value that is otherwise valid for the field, so that only the
	// character can be the reason for a refusal.
	chars := map[string]string{
		"NUL": "\x00", "BEL": "\a", "Newline": "\n", "RightToLeft": "\u202e", "Isolate": "\u2066",
		"RightLeftMark": "\u200f", "C1": "\u009b",
	}
	for name, c := range chars {
		for _, field := range []string{"name", "status", "address", "email", "interests"} {
			var value any = "Eve" + c + "gpj.exe"
			switch field {
			case "interests":
				value = []string{"cats", "Eve" + c}
			case "email":
				value = "eve" + c + "@example.com"
			}
			if field == "address" && name == "Newline" {
				continue // an address may have lines
			}
			if field == "email" && (name == "NUL" || name == "BEL" || name == "Newline") {
				continue // net/mail refuses these itself
			}
			t.Run(name+"/"+field, func(t *testing.T) {
				before := srv.ItemCount(t)
				for op, resp := range map[string]*apitest.Response{
					"createUser": srv.Query(t, create, map[string]any{"in": map[string]any{"username": "eve", field: value}}),
					"updateUser": srv.Query(t, update, map[string]any{"in": map[string]any{field: value}}),
				} {
					if resp.Code() != "BAD_USER_INPUT" || !strings.HasPrefix(resp.Errors[0].Message, field) {
						t.Errorf("%s: code %q %+v, want BAD_USER_INPUT naming %s", op, resp.Code(), resp.Errors, field)
					}
				}
				if srv.ItemCount(t) != before {
					t.Error("a refused profile was written")
				}
			})
		}
	}

	t.Run("InDocumentLiterals", func(t *testing.T) {
		for _, literal := range []string{`Eve\u0000`, `Eve\u0007`, `Eve\u202E`, `Eve\n`} {
			resp := srv.Query(t, `mutation { updateUser(username: "alice", input: {status: "`+literal+`"}) { status } }`, nil)
			if resp.Code() != "BAD_USER_INPUT" {
				t.Errorf("status %s: code %q %+v, want BAD_USER_INPUT", literal, resp.Code(), resp.Errors)
			}
		}
	})

	t.Run("OK_AddressLinesAndRightToLeftText", func(t *testing.T) {
		var got struct {
			UpdateUser struct{ Address, Name string }
		}
		srv.Query(t, `mutation($in: UpdateUserInput!) { updateUser(username: "alice", input: $in) { address name } }`,
			map[string]any{"in": map[string]any{"address": "1 Main St\nSpringfield", "name": "עליס"}}).Decode(t, &got)
		if got.UpdateUser.Address != "1 Main St\nSpringfield" || got.UpdateUser.Name != "עליס" {
			t.Fatalf("updated %+v", got.UpdateUser)
		}
	})
}
