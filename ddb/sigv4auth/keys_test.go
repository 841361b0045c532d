package sigv4auth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseKeys(t *testing.T) {
	const secret = "0123456789abcdef0123"
	for _, tc := range []struct {
		name, text string
		want       []Key
		err        string
	}{
		{"OK", "# keys\nAKID1 " + secret + "\n\n  AKID2\t" + secret + "x read-only\n",
			[]Key{{"AKID1", secret, false}, {"AKID2", secret + "x", true}}, ""},
		{"ErrOneField", "AKID1\n", nil, "keys:1: want ACCESS_KEY_ID SECRET [read-only], got 1 fields"},
		{"ErrFourFields", "AKID1 " + secret + " read-only extra\n", nil, "got 4 fields"},
		{"ErrUnknownFlag", "AKID1 " + secret + " readonly\n", nil, `keys:1: the third field may only be "read-only"`},
		{"ErrShortSecret", "# c\nAKID1 short\n", nil, "keys:2: the secret of access key AKID1 is 5 characters long: want at least 16"},
		{"ErrSlashInID", "AK/ID " + secret + "\n", nil, "keys:1: access key ID \"AK/ID\" holds '/'"},
		{"ErrDuplicate", "AKID1 " + secret + "\nAKID1 " + secret + "x\n", nil, "access key AKID1 is given twice"},
		{"ErrEmpty", "# nothing\n", nil, "keys: no access keys"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keys, err := ParseKeys(strings.NewReader(tc.text), "keys")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one containing %q", err, tc.err)
				}
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("the error shows a secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(keys.byID) != len(tc.want) {
				t.Fatalf("%d keys, want %d", len(keys.byID), len(tc.want))
			}
			for _, want := range tc.want {
				if got, _ := keys.lookup(want.ID); got != want {
					t.Errorf("key %s = %+v, want %+v", want.ID, got, want)
				}
			}
			if got := keys.String(); got != "2 access keys (1 read-only)" || strings.Contains(got, secret) {
				t.Errorf("String() = %q", got)
			}
		})
	}
}

// TestLoadKeys: a keys file others may read, or others than its owner may write, is refused.
func TestLoadKeys(t *testing.T) {
	for _, tc := range []struct {
		mode os.FileMode
		err  string
	}{
		{0o600, ""},
		{0o640, ""},
		{0o400, ""},
		{0o644, "chmod 600"},
		{0o660, "chmod 600"},
		{0o602, "chmod 600"},
	} {
		path := filepath.Join(t.TempDir(), "keys")
		if err := os.WriteFile(path, []byte("AKID1 0123456789abcdef\n"), tc.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, tc.mode); err != nil { // past the umask
			t.Fatal(err)
		}
		_, err := LoadKeys(path)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("mode %04o: err = %v, want %q", tc.mode, err, tc.err)
		}
	}
}
