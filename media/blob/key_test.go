package blob_test

import (
	"errors"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/media/blob"
)

func TestCheckKey(t *testing.T) {
	for _, tc := range []struct {
		key string
		ok  bool
	}{
		{"photos/ab12cd.jpg", true},
		{"staging/user-1/0196f1c2-7a1b-7c3d-8e9f-000000000001", true},
		{"a", true},
		{"a.b/c=d/e_f", true},
		{"", false},
		{"..", false},
		{"a/..", false},
		{"../a", false},
		{"a/../b", false},
		{"a/./b", false},
		{"/a", false},
		{"a/", false},
		{"a//b", false},
		{"a\\b", false},
		{"a b", false},
		{"a%2fb", false},
		{"a\x00b", false},
		{"é", false},
		{strings.Repeat("a", 256), false},
		{strings.Repeat("a/", 256) + "a", false},
	} {
		err := blob.CheckKey(tc.key)
		if tc.ok && err != nil {
			t.Errorf("CheckKey(%q) = %v, want nil", tc.key, err)
		}
		if !tc.ok && !errors.Is(err, blob.ErrInvalidKey) {
			t.Errorf("CheckKey(%q) = %v, want ErrInvalidKey", tc.key, err)
		}
	}
}

// TestCheckSegment is the check for the parts of a key a client supplies: one level only.
func TestCheckSegment(t *testing.T) {
	for _, tc := range []struct {
		seg string
		ok  bool
	}{
		{"0196f1c2-7a1b-7c3d-8e9f-000000000001", true},
		{"photo.jpg", true},
		{"a/b", false},
		{"..", false},
		{".", false},
		{"", false},
		{"a\\b", false},
		{"a b", false},
	} {
		err := blob.CheckSegment(tc.seg)
		if tc.ok && err != nil {
			t.Errorf("CheckSegment(%q) = %v, want nil", tc.seg, err)
		}
		if !tc.ok && !errors.Is(err, blob.ErrInvalidKey) {
			t.Errorf("CheckSegment(%q) = %v, want ErrInvalidKey", tc.seg, err)
		}
	}
}

// FuzzCheckKey: a key CheckKey accepts is already clean and stays below the directory it is
// joined to, so the embedded store's path for it is inside its objects directory.
func FuzzCheckKey(f *testing.F) {
	for _, k := range []string{"photos/a.jpg", "a/../b", "..", "a//b", "/a", "a/", "a\\b", "staging/u/..x"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if blob.CheckKey(key) != nil {
			return
		}
		if path.Clean(key) != key || strings.HasPrefix(key, "/") || strings.Contains(key, "\\") {
			t.Fatalf("accepted %q, which is not a clean relative path", key)
		}
		root := filepath.FromSlash("/srv/objects")
		if p := filepath.Join(root, filepath.FromSlash(key)); !strings.HasPrefix(p, root+string(filepath.Separator)) {
			t.Fatalf("accepted %q, which leaves the directory: %s", key, p)
		}
	})
}
