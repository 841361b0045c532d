package playground

import (
	"embed"
	"io/fs"
	"path"
	"sync"

	"github.com/quickphotos/quickphotos/internal/staticfile"
)

// files holds the vendored assets (assets/, see update.sh) and our own page and bootstrap
// (static/). The .txt files (licenses, versions) are embedded so that they ship with the binary.
//
//go:embed assets/*.js assets/*.css assets/*.txt static
var files embed.FS

// theAssets are every embedded file but index.html (a template), by base name. They are read
// and hashed (some 4 MB) on the first request for the playground, not when the program starts:
// a process that never serves the page (an AWS Lambda function's cold start, a command other
// than serve) does not pay the milliseconds. Each is gzipped on the first request that accepts it.
var theAssets = sync.OnceValue(loadAssets)

func loadAssets() map[string]*staticfile.File {
	m := map[string]*staticfile.File{}
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "static/index.html" {
			return err
		}
		body, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		m[path.Base(p)] = staticfile.New(path.Base(p), body)
		return nil
	})
	if err != nil {
		panic("playground: reading embedded files: " + err.Error())
	}
	return m
}
