package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxFunctionLines bounds a function of package main: a command reads as its steps, each a
// function of the wiring, so no function holds a whole command's opening and shutdown.
const maxFunctionLines = 80

// TestPackageMain_FunctionsAreShort: no function of package main (its tests aside) is longer
// than maxFunctionLines, from its func line to its closing brace.
func TestPackageMain_FunctionsAreShort(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	for _, name := range packageMainFiles(t) {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files++
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > maxFunctionLines {
				t.Errorf("%s: %s is %d lines, over %d: split it into the steps it takes", name, fn.Name.Name, n, maxFunctionLines)
			}
		}
	}
	if files < 10 {
		t.Fatalf("parsed %d files of package main; has its layout changed?", files)
	}
}

// TestPackageMain_FilesFollowTheLayout: the files of package main are named as
// docs/development.md says: every command of `quickphotos help` in cmd_COMMAND.go, shared flags
// in flags_GROUP.go, the wiring in wire_PART.go, and no other file but main.go, flags.go and
// progress.go.
func TestPackageMain_FilesFollowTheLayout(t *testing.T) {
	scheme := regexp.MustCompile(`^(main|flags|progress|(cmd|flags|wire)_[a-z]+)\.go$`)
	have := map[string]bool{}
	for _, name := range packageMainFiles(t) {
		have[name] = true
		if !scheme.MatchString(name) {
			t.Errorf("%s is not named as docs/development.md's layout says: cmd_COMMAND.go, flags_GROUP.go or wire_PART.go", name)
		}
	}
	commands := listedCommands(t)
	for _, c := range commands {
		if !have["cmd_"+c+".go"] {
			t.Errorf("the command %s has no cmd_%s.go", c, c)
		}
	}
}

// packageMainFiles are the Go files of package main, its tests aside.
func packageMainFiles(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if !strings.HasSuffix(n, "_test.go") {
			out = append(out, n)
		}
	}
	return out
}
