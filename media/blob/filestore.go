package blob

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// FileStore is the embedded store: one file per object under dir/objects, each written to
// dir/tmp, synced and renamed into place, so a reader never sees part of one. Each file starts
// with a fixed-size JSON header (content type, size, SHA-256) so that the object and its attributes
// change together in one rename, then holds the bytes.
//
// Uploads and GETs go through [FileStore.Handler], signed with an HMAC-SHA256 key that
// OpenFileStore creates once (mode 0600) in dir and reads back on every later open, so URLs
// and forms survive a restart.
//
// gocloud.dev/blob's fileblob was considered: it signs URLs with HMAC too, but keeps attributes
// in a sidecar file written apart from the data, has no POST-policy upload to match S3's, and
// would bring its whole dependency tree for a few hundred lines this package needs anyway.
type FileStore struct {
	dir     string
	objects string
	tmp     string
	key     []byte
	// macs holds HMAC-SHA256 hashes keyed with key, for sign to reuse: keying one is two
	// SHA-256 blocks and five allocations, and every photo of a page signs its URL.
	macs      sync.Pool
	baseURL   func() string
	immutable func(key string) bool
	log       *slog.Logger
	now       func() time.Time
	stall     time.Duration
}

// FileStorePath is where serve mounts [FileStore.Handler]; signed URLs and upload forms point
// below it.
const FileStorePath = "/media/"

// hmacKeyFile is the name of the signing key in the store's directory.
const hmacKeyFile = "blob-hmac.key"

// headerSize is the fixed length of an object file's header: JSON padded with spaces, then a
// newline.
const headerSize = 512

// FileStoreOption configures OpenFileStore.
type FileStoreOption func(*FileStore)

// WithImmutable marks the keys whose content never changes (content-addressed keys): their
// signed GETs are served with Cache-Control: public, max-age=31536000, immutable. Other keys
// are served with Cache-Control: private, no-cache and revalidate by ETag.
func WithImmutable(immutable func(key string) bool) FileStoreOption {
	return func(s *FileStore) { s.immutable = immutable }
}

// WithLogger sets where the handler logs the internal errors (a file it cannot write or read)
// that it answers with 500 InternalError; by default, slog's default logger.
func WithLogger(log *slog.Logger) FileStoreOption {
	return func(s *FileStore) { s.log = log }
}

// DefaultUploadStall is how long, by default, the file of a verified upload may go without a
// byte arriving before its connection is dropped (see [WithUploadStall]).
const DefaultUploadStall = 30 * time.Second

// WithUploadStall sets how long the file of an upload whose form checks out may go without a
// byte arriving. The server's read and write timeouts bound whole requests, which suits API
// calls but not a large photo sent from a phone on a slow network: once the form's signature
// and policy check out, the handler lifts them for that request (through
// http.ResponseController) and drops only an upload that stalls for about d; the policy's
// size range bounds how much it may send.
func WithUploadStall(d time.Duration) FileStoreOption {
	return func(s *FileStore) { s.stall = d }
}

// OpenFileStore opens (creating them if needed) the store in dir. baseURL returns the origin
// that clients reach serve at, such as "http://127.0.0.1:8080", without a trailing slash; it is
// a function because serve may learn its address only once it listens.
func OpenFileStore(dir string, baseURL func() string, opts ...FileStoreOption) (*FileStore, error) {
	s := &FileStore{
		dir:       dir,
		objects:   filepath.Join(dir, "objects"),
		tmp:       filepath.Join(dir, "tmp"),
		baseURL:   baseURL,
		immutable: func(string) bool { return false },
		log:       slog.Default(),
		now:       time.Now,
		stall:     DefaultUploadStall,
	}
	for _, o := range opts {
		o(s)
	}
	for _, d := range []string{s.objects, s.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("blob: open %s: %w", dir, err)
		}
	}
	key, err := loadOrCreateKey(filepath.Join(dir, hmacKeyFile))
	if err != nil {
		return nil, err
	}
	s.key = key
	s.macs.New = func() any { return hmac.New(sha256.New, s.key) }
	s.removeStaleTemps()
	return s, nil
}

// loadOrCreateKey reads the HMAC key at path, or creates it: written in full to a temporary
// file and linked into place, so two processes opening the store at once agree on one key.
func loadOrCreateKey(path string) ([]byte, error) {
	key, err := readKey(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	key = make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), hmacKeyFile+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("blob: create signing key: %w", err)
	}
	defer os.Remove(f.Name())
	// CreateTemp makes the file 0600 already; the key never has wider permissions.
	if _, err := f.Write(key); err != nil {
		f.Close()
		return nil, fmt.Errorf("blob: write signing key: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, fmt.Errorf("blob: write signing key: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("blob: write signing key: %w", err)
	}
	if err := os.Link(f.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readKey(path)
		}
		return nil, fmt.Errorf("blob: create signing key: %w", err)
	}
	syncDir(filepath.Dir(path))
	return key, nil
}

func readKey(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("blob: signing key %s has mode %v; it must be readable by its owner only (chmod 600)", path, fi.Mode().Perm())
	}
	key, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(key) != 32 {
		return nil, fmt.Errorf("blob: signing key %s holds %d bytes, not 32", path, len(key))
	}
	return key, nil
}

// removeStaleTemps deletes temporary files a crashed write left behind; recent ones may belong
// to another process writing now.
func (s *FileStore) removeStaleTemps() {
	entries, err := os.ReadDir(s.tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && s.now().Sub(fi.ModTime()) > time.Hour {
			os.Remove(filepath.Join(s.tmp, e.Name()))
		}
	}
}

// mkdirs creates dir and any missing parents below the objects directory, syncing the parent
// of each directory it creates so that the new entries, and so the object renamed into them,
// survive a crash.
func (s *FileStore) mkdirs(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	var missing []string
	for d := dir; d != s.objects; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		missing = append(missing, d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, d := range missing {
		syncDir(filepath.Dir(d))
	}
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// path maps a checked key to its file.
func (s *FileStore) path(key string) string {
	return filepath.Join(s.objects, filepath.FromSlash(key))
}

type fileHeader struct {
	ContentType string `json:"contentType"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
}

// objectWriter streams an object into a temporary file and renames it into place on commit.
type objectWriter struct {
	s    *FileStore
	f    *os.File
	sum  hash.Hash
	size int64
	w    *bufio.Writer
}

func (s *FileStore) newObjectWriter() (*objectWriter, error) {
	f, err := os.CreateTemp(s.tmp, "object-*")
	if err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	if _, err := f.Seek(headerSize, io.SeekStart); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("blob: %w", err)
	}
	return &objectWriter{s: s, f: f, sum: sha256.New(), w: bufio.NewWriterSize(f, 256<<10)}, nil
}

func (w *objectWriter) Write(p []byte) (int, error) {
	w.sum.Write(p)
	n, err := w.w.Write(p)
	w.size += int64(n)
	return n, err
}

// abort discards the temporary file.
func (w *objectWriter) abort() {
	w.f.Close()
	os.Remove(w.f.Name())
}

// commit writes the header, syncs, and renames the file to key.
func (w *objectWriter) commit(key, contentType string) (Attrs, error) {
	a := Attrs{Size: w.size, ContentType: contentType, ETag: hex.EncodeToString(w.sum.Sum(nil))}
	err := w.w.Flush()
	if err == nil {
		var hdr []byte
		hdr, err = encodeHeader(a)
		if err == nil {
			_, err = w.f.WriteAt(hdr, 0)
		}
	}
	if err == nil {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(w.f.Name())
		return Attrs{}, fmt.Errorf("blob: write %s: %w", key, err)
	}
	dst := w.s.path(key)
	if err := w.s.mkdirs(filepath.Dir(dst)); err != nil {
		os.Remove(w.f.Name())
		return Attrs{}, fmt.Errorf("blob: write %s: %w", key, err)
	}
	if err := os.Rename(w.f.Name(), dst); err != nil {
		os.Remove(w.f.Name())
		return Attrs{}, fmt.Errorf("blob: write %s: %w", key, err)
	}
	syncDir(filepath.Dir(dst))
	return a, nil
}

func encodeHeader(a Attrs) ([]byte, error) {
	j, err := json.Marshal(fileHeader{ContentType: a.ContentType, Size: a.Size, SHA256: a.ETag})
	if err != nil {
		return nil, err
	}
	if len(j) > headerSize-1 {
		return nil, fmt.Errorf("header of %d bytes does not fit", len(j))
	}
	hdr := make([]byte, headerSize)
	copy(hdr, j)
	for i := len(j); i < headerSize-1; i++ {
		hdr[i] = ' '
	}
	hdr[headerSize-1] = '\n'
	return hdr, nil
}

// openObject opens key's file and decodes its header; the caller closes the file.
func (s *FileStore) openObject(key string) (*os.File, Attrs, time.Time, error) {
	if err := CheckKey(key); err != nil {
		return nil, Attrs{}, time.Time{}, err
	}
	f, err := os.Open(s.path(key))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) || isNotDir(err) {
			return nil, Attrs{}, time.Time{}, fmt.Errorf("%w: %s", ErrNotFound, key)
		}
		return nil, Attrs{}, time.Time{}, fmt.Errorf("blob: %w", err)
	}
	fi, err := f.Stat()
	if err == nil && fi.IsDir() {
		f.Close()
		return nil, Attrs{}, time.Time{}, fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	var hdr [headerSize]byte
	if err == nil {
		_, err = io.ReadFull(f, hdr[:])
	}
	var h fileHeader
	if err == nil {
		err = json.Unmarshal(hdr[:], &h)
	}
	if err == nil && h.Size != fi.Size()-headerSize {
		err = fmt.Errorf("header says %d bytes, file holds %d", h.Size, fi.Size()-headerSize)
	}
	if err != nil {
		f.Close()
		return nil, Attrs{}, time.Time{}, fmt.Errorf("blob: object %s is damaged: %w", key, err)
	}
	return f, Attrs{Size: h.Size, ContentType: h.ContentType, ETag: h.SHA256}, fi.ModTime(), nil
}

// isNotDir reports ENOTDIR: a key below another key's file ("a/b" when "a" is an object).
func isNotDir(err error) bool {
	return errors.Is(err, syscall.ENOTDIR)
}

// Attributes implements Store.
func (s *FileStore) Attributes(ctx context.Context, key string) (Attrs, error) {
	f, a, _, err := s.openObject(key)
	if err != nil {
		return Attrs{}, err
	}
	f.Close()
	return a, nil
}

// NewReader implements Store.
func (s *FileStore) NewReader(ctx context.Context, key string, maxBytes int64) (io.ReadCloser, error) {
	f, a, _, err := s.openObject(key)
	if err != nil {
		return nil, err
	}
	if a.Size > maxBytes {
		f.Close()
		return nil, fmt.Errorf("%w: %s holds %d bytes, more than %d", ErrTooLarge, key, a.Size, maxBytes)
	}
	return struct {
		io.Reader
		io.Closer
	}{io.NewSectionReader(f, headerSize, a.Size), f}, nil
}

// Write implements Store. It writes nothing once ctx has ended, as a request to S3 would not,
// checking before it begins and again before the object takes its key.
func (s *FileStore) Write(ctx context.Context, key, contentType string, data []byte) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	if err := checkContentType(contentType); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("blob: write %s: %w", key, err)
	}
	// A content-addressed key written again with the same bytes is left as it is.
	sum := sha256.Sum256(data)
	if a, err := s.Attributes(ctx, key); err == nil && a.Size == int64(len(data)) && a.ContentType == contentType && a.ETag == hex.EncodeToString(sum[:]) {
		return nil
	}
	w, err := s.newObjectWriter()
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.abort()
		return fmt.Errorf("blob: write %s: %w", key, err)
	}
	if err := ctx.Err(); err != nil {
		w.abort()
		return fmt.Errorf("blob: write %s: %w", key, err)
	}
	_, err = w.commit(key, contentType)
	return err
}

// Delete implements Store.
func (s *FileStore) Delete(ctx context.Context, key string) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	err := os.Remove(s.path(key))
	if err == nil || errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
		return nil
	}
	return fmt.Errorf("blob: delete %s: %w", key, err)
}

// List implements Store.
func (s *FileStore) List(ctx context.Context, prefix string, fn func(key string, modified time.Time) error) error {
	if err := checkPrefix(prefix); err != nil {
		return err
	}
	// Walk only the directory the prefix's complete segments name.
	root := s.objects
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		root = s.path(prefix[:i])
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(s.objects, p)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if !strings.HasPrefix(key, prefix) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) { // deleted while listing
				return nil
			}
			return err
		}
		return fn(key, fi.ModTime())
	})
	return err
}

// SignedURL implements Store: baseURL + FileStorePath + key, with the expiry and an HMAC of
// both.
func (s *FileStore) SignedURL(ctx context.Context, key string, expires time.Time) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	exp := strconv.FormatInt(expires.Unix(), 10)
	// The query as url.Values encodes it: keys in order, and nothing to escape in digits and hex.
	return s.base() + FileStorePath + key + "?expires=" + exp + "&signature=" + s.sign("GET", key, exp), nil
}

func (s *FileStore) base() string { return strings.TrimSuffix(s.baseURL(), "/") }

// sign is the hex HMAC-SHA256 of the parts, each on its own line; the first part names the
// purpose ("GET", "POST") so that one signature cannot stand for the other.
func (s *FileStore) sign(parts ...string) string {
	m := s.macs.Get().(hash.Hash)
	defer s.macs.Put(m)
	m.Reset()
	for _, p := range parts {
		io.WriteString(m, p)
		m.Write([]byte{'\n'})
	}
	var sum [sha256.Size]byte
	return hex.EncodeToString(m.Sum(sum[:0]))
}

func (s *FileStore) verify(sig string, parts ...string) bool {
	want := s.sign(parts...)
	return hmac.Equal([]byte(sig), []byte(want))
}
