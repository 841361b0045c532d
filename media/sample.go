package media

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/media/imaging"
)

// sampleImages is how many distinct pictures the sample's photos share: generating one takes
// tens of milliseconds, and a sample has a thousand photos or more.
const sampleImages = 16

// Sizes of the sample's pictures: a display size (also the original) and a thumbnail.
const (
	sampleWidth, sampleHeight           = 640, 480
	sampleThumbWidth, sampleThumbHeight = 320, 240
)

// samplePrefix holds the sample's shared pictures, which no photo owns (see Forget).
const samplePrefix = imagesPrefix + "sample/"

// AttachSampleImages gives every photo of a sample dataset real pictures: sampleImages
// generated ones (imaging.Sample), stored once under the sample's prefix and chosen per photo
// by its owner and timestamp, so the same sample always shows the same pictures. The photos
// keep their URLs as their tutorial data has them; Photo.url and Photo.image answer the
// stored pictures.
func (s *Service) AttachSampleImages(ctx context.Context, photos []domain.Photo) error {
	sets := make([]domain.Images, sampleImages)
	pictures := samplePictures()
	for i := range sets {
		display, err := s.storeSample(ctx, pictures[i].display, sampleWidth, sampleHeight)
		if err != nil {
			return err
		}
		thumb, err := s.storeSample(ctx, pictures[i].thumbnail, sampleThumbWidth, sampleThumbHeight)
		if err != nil {
			return err
		}
		sets[i] = domain.Images{domain.ImageThumbnail: thumb, domain.ImageDisplay: display, domain.ImageOriginal: display}
	}
	for i := range photos {
		p := &photos[i]
		sum := sha256.Sum256([]byte(p.Owner + "#" + p.Timestamp))
		p.Images = sets[int(sum[0])%sampleImages]
		p.Width, p.Height = sampleWidth, sampleHeight
	}
	return nil
}

// samplePictures generates the sample's pictures once per process, on every CPU: they are
// the same every time, and a process may load the sample into several tables (tests do).
var samplePictures = sync.OnceValue(func() []struct{ display, thumbnail []byte } {
	pictures := make([]struct{ display, thumbnail []byte }, sampleImages)
	var wg sync.WaitGroup
	for i := range pictures {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seed := fmt.Sprintf("quickphotos-sample-%d", i)
			pictures[i].display = imaging.Sample(seed, sampleWidth, sampleHeight)
			pictures[i].thumbnail = imaging.Sample(seed, sampleThumbWidth, sampleThumbHeight)
		}()
	}
	wg.Wait()
	return pictures
})

func (s *Service) storeSample(ctx context.Context, jpg []byte, w, h int) (domain.StoredImage, error) {
	sum := sha256.Sum256(jpg)
	img := domain.StoredImage{Key: samplePrefix + hex.EncodeToString(sum[:]) + ".jpg", Width: w, Height: h, ContentType: "image/jpeg"}
	if err := s.store.Write(ctx, img.Key, img.ContentType, jpg); err != nil {
		return domain.StoredImage{}, fmt.Errorf("storing a sample picture: %w", err)
	}
	return img, nil
}
