#!/bin/sh
# Runs every Go fuzz target in the module for a short while each (FUZZTIME, default 10s).
# `go test -fuzz` takes one target per package per run, so the targets are listed first.
# Inputs that fail are written under the package's testdata/fuzz/<Target>/ by go test: keep
# those that found a bug there, under a name that says what they found, as regression seeds
# (plain `go test` runs them every time).
set -eu
fuzztime=${FUZZTIME:-10s}
go=${GO:-go}
count=0
for pkg in $($go list ./...); do
	for target in $($go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "fuzz: $pkg $target ($fuzztime)"
		$go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
		count=$((count + 1))
	done
done
if [ "$count" -eq 0 ]; then
	echo "fuzz: no fuzz targets found" >&2
	exit 1
fi
echo "fuzz: $count targets passed"
