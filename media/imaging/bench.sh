#!/usr/bin/env bash
# Compares the image pipeline with libvips on the same 12-megapixel JPEG: Process making all
# three sizes and each size alone (decoding included) against vipsthumbnail / vips autorot
# making the same sizes, one process per size. Prints the machine, both timings and the ratio.
#
#   media/imaging/bench.sh                       # BENCHTIME=3x COUNT=3 by default
#
# Needs Debian's libvips-tools (apt-get install -y libvips-tools); without it only the Go side
# runs. Timings are wall-clock per run of the whole step, process start included for libvips;
# each is the fastest of COUNT rounds, the least disturbed by whatever else the machine runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
benchtime=${BENCHTIME:-3x}
count=${COUNT:-3}

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
command -v vipsthumbnail >/dev/null && echo "libvips: $(vipsthumbnail --vips-version)"
echo "command: go test -run '^\$' -bench 'Process12MP|Vipsthumbnail12MP' -benchtime $benchtime -count $count ./media/imaging/"
go test -run '^$' -bench 'Process12MP|Vipsthumbnail12MP' -benchtime "$benchtime" -count "$count" ./media/imaging/ |
	awk '
	/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name)
		ns = $3
		if (name ~ /^BenchmarkProcess12MPSizes\//) { split(name, p, "/"); keep(goTime, p[2], ns) }
		else if (name == "BenchmarkProcess12MP") { keep(goTime, "all", ns); for (i = 4; i < NF; i++) if ($(i+1) == "peak-heap-MB") peak = $i; else if ($(i+1) == "B/op") alloc = $i }
		else if (name ~ /^BenchmarkVipsthumbnail12MP\//) { split(name, p, "/"); keep(vips, p[2], ns) }
	}
	function keep(a, k, v) { if (!(k in a) || v + 0 < a[k] + 0) a[k] = v }
	END {
		printf "%-10s %12s %12s %7s\n", "size", "Go (ms)", "libvips (ms)", "ratio"
		n = split("thumbnail display original all", sizes, " ")
		for (i = 1; i <= n; i++) {
			s = sizes[i]
			if (!(s in goTime)) continue
			if (s in vips) printf "%-10s %12.0f %12.0f %6.1fx\n", s, goTime[s] / 1e6, vips[s] / 1e6, goTime[s] / vips[s]
			else printf "%-10s %12.0f %12s %7s\n", s, goTime[s] / 1e6, "-", "-"
		}
		printf "Process, all sizes: %.0f MB allocated per run, %.0f MB peak heap\n", alloc / 1048576, peak
	}'
