package sigv4auth

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Key is one access key the listener accepts: its ID (the Credential's first element), its
// secret, and whether it may only read.
type Key struct {
	ID       string
	Secret   string
	ReadOnly bool
}

// MinSecretLength is the shortest secret a key may have. AWS's secrets are 40 characters; a
// short one on a listener other hosts reach could be guessed from one signed request.
const MinSecretLength = 16

// readOnlyFlag marks a read-only key in a keys file.
const readOnlyFlag = "read-only"

// Keys are the access keys a listener accepts, by ID. A Keys is not changed after it is built,
// so one may serve many requests at once.
type Keys struct {
	byID map[string]Key
}

// NewKeys returns the set of keys, refusing an ID given twice, an ID a Credential cannot carry
// and a secret shorter than MinSecretLength.
func NewKeys(keys ...Key) (*Keys, error) {
	if len(keys) == 0 {
		return nil, errors.New("no access keys")
	}
	k := &Keys{byID: make(map[string]Key, len(keys))}
	for _, key := range keys {
		if err := checkKey(key); err != nil {
			return nil, err
		}
		if _, dup := k.byID[key.ID]; dup {
			return nil, fmt.Errorf("access key %s is given twice", key.ID)
		}
		k.byID[key.ID] = key
	}
	return k, nil
}

// checkKey refuses a key that could never sign a request, or whose secret is too short. Its
// errors never show the secret.
func checkKey(key Key) error {
	switch {
	case key.ID == "":
		return errors.New("an access key has no ID")
	case strings.ContainsAny(key.ID, "/,= \t"):
		return fmt.Errorf("access key ID %q holds '/', ',', '=' or a space, which a Credential cannot carry", key.ID)
	case len(key.Secret) < MinSecretLength:
		return fmt.Errorf("the secret of access key %s is %d characters long: want at least %d", key.ID, len(key.Secret), MinSecretLength)
	}
	return nil
}

// lookup returns the key of id; nil Keys hold none, so a Handler built without keys refuses
// every request rather than serving them all.
func (k *Keys) lookup(id string) (Key, bool) {
	if k == nil {
		return Key{}, false
	}
	key, ok := k.byID[id]
	return key, ok
}

// String describes the keys for a start-up message: how many, and how many read-only; never
// their secrets.
func (k *Keys) String() string {
	readOnly := 0
	for _, key := range k.byID {
		if key.ReadOnly {
			readOnly++
		}
	}
	s := fmt.Sprintf("%d access key", len(k.byID))
	if len(k.byID) != 1 {
		s += "s"
	}
	if readOnly > 0 {
		s += fmt.Sprintf(" (%d read-only)", readOnly)
	}
	return s
}

// ParseKeys reads keys, one a line: the access key ID, its secret, and optionally the word
// read-only, separated by spaces or tabs. Blank lines and lines starting with # are skipped.
// name (the file's) prefixes the errors, which cite the line and never a secret.
func ParseKeys(r io.Reader, name string) (*Keys, error) {
	var keys []Key
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		var key Key
		switch {
		case len(fields) == 2:
		case len(fields) == 3 && fields[2] == readOnlyFlag:
			key.ReadOnly = true
		case len(fields) == 3:
			return nil, fmt.Errorf("%s:%d: the third field may only be %q", name, line, readOnlyFlag)
		default:
			return nil, fmt.Errorf("%s:%d: want ACCESS_KEY_ID SECRET [%s], got %d fields", name, line, readOnlyFlag, len(fields))
		}
		key.ID, key.Secret = fields[0], fields[1]
		if err := checkKey(key); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		keys = append(keys, key)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	k, err := NewKeys(keys...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return k, nil
}

// LoadKeys reads the keys file at path (see ParseKeys). It refuses a file other users may
// read or anyone but its owner may write, as ssh refuses such a private key: its secrets
// open the whole table, and a key someone else adds is one they can use.
func LoadKeys(path string) (*Keys, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if mode := info.Mode().Perm(); mode&0o027 != 0 {
		return nil, fmt.Errorf("%s: mode %04o lets other users read it or others than its owner write it: chmod 600 (or 640) it", path, mode)
	}
	return ParseKeys(f, path)
}
