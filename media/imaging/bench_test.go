package imaging

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// benchSource returns the 12-megapixel (4000 x 3000) JPEG the benchmarks process: a Sample
// with fine deterministic grain added, so that it has the entropy (and so the decoding cost)
// of a camera photo, not of a smooth gradient. About 3.5 MB at quality 90.
var benchSource = sync.OnceValue(func() []byte {
	m, err := jpeg.Decode(bytes.NewReader(Sample("bench#12MP", 4000, 3000)))
	if err != nil {
		panic(err)
	}
	ycc := m.(*image.YCbCr)
	state := uint32(2463534242)
	for i := range ycc.Y {
		state ^= state << 13 // xorshift32
		state ^= state >> 17
		state ^= state << 5
		ycc.Y[i] = uint8(min(255, max(0, int(ycc.Y[i])+int(state%25)-12)))
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, ycc, &jpeg.Options{Quality: 90}); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

// peakHeap samples the live heap every millisecond while it runs and returns the most seen.
func peakHeap() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak
	}
}

// BenchmarkProcess12MP times Process on a 12-megapixel JPEG, making all three sizes. Besides
// time and allocations it reports peak-heap-MB: the most live heap seen during the runs, above
// what was live before (the source bytes).
func BenchmarkProcess12MP(b *testing.B) {
	benchSizes(b, allSizes)
}

// BenchmarkProcess12MPSizes times each size alone (decoding included), to compare with
// vipsthumbnail making one size per run.
func BenchmarkProcess12MPSizes(b *testing.B) {
	for _, size := range allSizes {
		b.Run(string(size), func(b *testing.B) { benchSizes(b, []Size{size}) })
	}
}

func benchSizes(b *testing.B, sizes []Size) {
	src := benchSource()
	runtime.GC()
	base := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(base)
	stop := peakHeap()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := process(context.Background(), bytes.NewReader(src), "image/jpeg", Limits{}, sizes); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	peak := stop()
	b.ReportMetric(float64(peak-min(peak, base[0].Value.Uint64()))/(1<<20), "peak-heap-MB")
}

// BenchmarkStages12MP times the stages of Process on the 12-megapixel JPEG, to show where the
// time goes.
func BenchmarkStages12MP(b *testing.B) {
	src := benchSource()
	img, err := jpeg.Decode(bytes.NewReader(src))
	if err != nil {
		b.Fatal(err)
	}
	display := downscale(img, 1280, 960)
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			if _, err := jpeg.Decode(bytes.NewReader(src)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("box-reduce-to-2000x1500", func(b *testing.B) {
		for b.Loop() {
			boxReduce(img, 2)
		}
	})
	b.Run("scale-to-display", func(b *testing.B) {
		for b.Loop() {
			downscale(img, 1280, 960)
		}
	})
	b.Run("scale-display-to-thumbnail", func(b *testing.B) {
		for b.Loop() {
			downscale(display, 320, 240)
		}
	})
	b.Run("encode-original", func(b *testing.B) {
		for b.Loop() {
			if _, err := encode(Original, img, "image/jpeg"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("orient-original-rotate90", func(b *testing.B) {
		for b.Loop() {
			orientFull(img, OrientRotate90)
		}
	})
}

// BenchmarkVipsthumbnail12MP makes the same sizes from the same file with libvips's command
// line tools (Debian's libvips-tools), one process per size as they work: vipsthumbnail for
// the two scaled sizes and `vips autorot` for the upright original, all at quality 85 with
// metadata stripped. Each run includes starting the process. It is skipped when the tools are
// not installed; media/imaging/bench.sh prints both benchmarks and their ratio.
func BenchmarkVipsthumbnail12MP(b *testing.B) {
	thumb, err1 := exec.LookPath("vipsthumbnail")
	vips, err2 := exec.LookPath("vips")
	if err1 != nil || err2 != nil {
		b.Skip("vipsthumbnail and vips (Debian package libvips-tools) are not installed")
	}
	dir := b.TempDir()
	src := filepath.Join(dir, "src.jpg")
	if err := os.WriteFile(src, benchSource(), 0o600); err != nil {
		b.Fatal(err)
	}
	commands := map[Size][]string{
		Thumbnail: {thumb, src, "--size", "320x320", "-o", filepath.Join(dir, "thumbnail.jpg[Q=85,strip]")},
		Display:   {thumb, src, "--size", "1280x1280", "-o", filepath.Join(dir, "display.jpg[Q=85,strip]")},
		Original:  {vips, "autorot", src, filepath.Join(dir, "original.jpg[Q=85,strip]")},
	}
	run := func(b *testing.B, sizes []Size) {
		for b.Loop() {
			for _, size := range sizes {
				cmd := commands[size]
				if out, err := exec.CommandContext(context.Background(), cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", cmd, err, out)
				}
			}
		}
	}
	b.Run("all", func(b *testing.B) { run(b, allSizes) })
	for _, size := range allSizes {
		b.Run(string(size), func(b *testing.B) { run(b, []Size{size}) })
	}
}
