//go:build unix

package ddb

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// The upgrade's crash test: TestMigrateToV4_Crash runs the test binary
// again as a process that opens a format 3 file (TestMigrateToV4CrashChild,
// selected with -test.run and activated by upgradeCrashDirEnv), which
// kills itself with SIGKILL from the upgrade hook at one stage; then it
// opens the directory again and checks every answer. SIGKILL runs no
// deferred cleanup, so the directory is what a crash leaves (short of
// power loss, which keeps only what was fsynced: see crash_test.go).
const (
	// upgradeCrashDirEnv carries the data directory to the child.
	upgradeCrashDirEnv = "QUICKPHOTOS_UPGRADE_CRASH_DIR"
	// upgradeCrashAtEnv carries the stage and the batch to die at, as
	// "stage/batches".
	upgradeCrashAtEnv = "QUICKPHOTOS_UPGRADE_CRASH_AT"
	// upgradeCrashBatchBytes makes the fixture's upgrade take many batches.
	upgradeCrashBatchBytes = 512
)

// TestMigrateToV4CrashChild is the child half of TestMigrateToV4_Crash:
// without its environment it returns at once.
func TestMigrateToV4CrashChild(t *testing.T) {
	dir := os.Getenv(upgradeCrashDirEnv)
	if dir == "" {
		return
	}
	stage, batches, _ := strings.Cut(os.Getenv(upgradeCrashAtEnv), "/")
	wantStage, _ := strconv.Atoi(stage)
	wantBatches, _ := strconv.Atoi(batches)
	e, err := Open(dir, &Options{NoSync: true, TTLSweepInterval: -1, upgradeBatchBytes: upgradeCrashBatchBytes,
		upgradeHook: func(stage storage.UpgradeStage, batches int) error {
			if int(stage) == wantStage && batches >= wantBatches {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				time.Sleep(time.Minute) // the signal is on its way
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	t.Fatal("the upgrade ended without reaching the stage to crash at")
}

// TestMigrateToV4_Crash kills an upgrade at each stage: before the rename
// the old file must be intact, and upgraded on the next Open, the new
// file's leftover removed; after it the new file must be complete. Every
// answer must then be the one from before the upgrade.
func TestMigrateToV4_Crash(t *testing.T) {
	f := newV3Fixture(t, func(uint64) string { return "local" })
	// A dry run counts the batches.
	batches := 0
	err := copyDir(f.env.dir, t.TempDir(), func(dir string) error {
		e, err := Open(dir, &Options{NoSync: true, TTLSweepInterval: -1, upgradeBatchBytes: upgradeCrashBatchBytes,
			upgradeHook: func(stage storage.UpgradeStage, n int) error {
				batches = max(batches, n)
				return nil
			}})
		if err == nil {
			err = e.Close()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if batches < 4 {
		t.Fatalf("the fixture's upgrade takes %d batches: too few to crash between", batches)
	}
	for _, c := range []struct {
		stage   storage.UpgradeStage
		batches int
		renamed bool // whether the new file has the name when it dies
	}{
		{storage.UpgradeBatch, 0, false}, // before the first commit
		{storage.UpgradeBatch, 1, false},
		{storage.UpgradeBatch, batches / 2, false},
		{storage.UpgradeBatch, batches - 1, false}, // before the last, which writes the version
		{storage.UpgradeSynced, 0, false},
		{storage.UpgradeRenamed, 0, true},
	} {
		t.Run(fmt.Sprintf("stage%d-batch%d", c.stage, c.batches), func(t *testing.T) {
			env := &testEnv{t: t, dir: t.TempDir(), clock: f.env.clock, ctx: f.env.ctx}
			if err := copyDir(f.env.dir, env.dir, nil); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestMigrateToV4CrashChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), upgradeCrashDirEnv+"="+env.dir,
				fmt.Sprintf("%s=%d/%d", upgradeCrashAtEnv, c.stage, c.batches))
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("child ended with %v, not by SIGKILL:\n%s", err, out)
			}
			format := fileFormat(t, env.dir)
			if want := map[bool]string{false: storage.FormatV3, true: storage.FormatVersion}[c.renamed]; format != want {
				t.Fatalf("format %q after the crash, want %q", format, want)
			}
			if _, err := os.Stat(filepath.Join(env.dir, FileName+storage.UpgradeSuffix)); c.stage == storage.UpgradeBatch && c.batches > 0 && err != nil {
				t.Errorf("no upgrade file left by the crash: %v", err)
			}
			env.open()
			defer func() {
				if err := checkInvariants(env.e); err != nil {
					t.Errorf("invariants: %v", err)
				}
				if err := env.e.Close(); err != nil {
					t.Error(err)
				}
			}()
			f.Check(env)
		})
	}
	// And the fixture's own file, which mustOpen's cleanup checks.
	f.env.open()
	f.Check(f.env)
}

// fileFormat returns the format version of the engine file in dir.
func fileFormat(t *testing.T, dir string) string {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, FileName), 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v []byte
	err = db.View(func(tx *bolt.Tx) error {
		v = bytes.Clone(tx.Bucket(storage.BucketMeta).Get(storage.KeyFormat))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(v)
}

// copyDir copies the regular files of directory from into directory to,
// then runs fn, if not nil, on to.
func copyDir(from, to string, fn func(dir string) error) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o600); err != nil {
			return err
		}
	}
	if fn == nil {
		return nil
	}
	return fn(to)
}
