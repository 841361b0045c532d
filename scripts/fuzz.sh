#!/bin/sh
# Runs every Go fuzz target in the module for a short while each (FUZZTIME, default 10s).
# Minimizing an input (FUZZMINIMIZETIME, default 2s) is bounded well below go test's 60s:
# it minimizes every new interesting input too, and would otherwise spend a short run on that.
# `go test -fuzz` takes one target per package per run, so the targets are listed first, by
# `go test -list` over the whole module: a target added anywhere is run without being named
# here, and a package whose tests do not build fails the run instead of being skipped.
# Inputs that fail are written under the package's testdata/fuzz/<Target>/ by go test: keep
# those that found a bug there, under a name that says what they found, as regression seeds
# (plain `go test` runs them every time).
set -eu
fuzztime=${FUZZTIME:-10s}
minimizetime=${FUZZMINIMIZETIME:-2s}
go=${GO:-go}
list=$(mktemp)
trap 'rm -f "$list"' EXIT
# Each package's test names, then its "ok  <package>  <time>" line.
$go test -list '^Fuzz' ./... >"$list"
targets=$(awk '/^Fuzz/ { t[n++] = $1; next } /^ok/ { for (i = 0; i < n; i++) print $2 " " t[i]; n = 0 }' "$list")
if [ -z "$targets" ]; then
	echo "fuzz: no fuzz targets found" >&2
	exit 1
fi
total=$(echo "$targets" | wc -l)
count=0
while read -r pkg target; do
	echo "fuzz: $pkg $target ($fuzztime)"
	$go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimizetime" "$pkg" </dev/null
	count=$((count + 1))
done <<EOF
$targets
EOF
echo "fuzz: $count of $total targets passed"
