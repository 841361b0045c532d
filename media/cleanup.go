package media

import (
	"context"
	"errors"
	"time"

	"github.com/quickphotos/quickphotos/domain"
)

// Forget deletes the images of the photos whose removal is among changes: a handler of the
// table's change stream (stream.Handler), so the images go only once the delete has committed,
// whoever made it. The commands run it beside the feed's fan-out on the feed's reader of the
// stream, wherever that runs (serve, `quickphotos stream`, the Lambda fan-out): DynamoDB
// Streams serves about two readers per shard, and one of its own would be a third. It is
// idempotent: deleting an object already gone is no error, so a batch delivered again does no
// harm.
//
// A photo owns every object under its own upload's prefix, and Forget deletes them all, not
// only the ones the photo names: a Finish refused before the one that made the photo (its
// timestamp taken, then another file sent to the same form) may have left renditions there
// that the sweep has not yet removed. The sample's photos
// share their images under a prefix of their own, and Forget leaves them.
func (s *Service) Forget(ctx context.Context, changes []domain.Change) error {
	for _, c := range changes {
		if c.Op != domain.Removed {
			continue
		}
		p, ok := c.Old.(domain.Photo)
		if !ok || p.Images == nil || ValidateUploadID(p.Upload) != nil {
			// A photo hosted elsewhere, or one of the sample's, which share their images.
			continue
		}
		if err := s.deleteUnder(ctx, imagePrefix(p.Upload), nil); err != nil {
			return err
		}
	}
	return nil
}

// ConsumerName is the name of a stream consumer that runs Forget alone, under which its
// checkpoints are kept: the API tests' server's (internal/testkit/apitest), which fills no
// feeds. Tables an earlier release's `serve --no-feed` ran on hold its checkpoints too.
const ConsumerName = "media"

// SweepGrace is how long after its expiry an upload is swept: longer than any Finish that
// began before the expiry can still be writing renditions. A Finish stores nothing once its
// request has ended (render), and requests time out well before.
const SweepGrace = 10 * time.Minute

// SweepInterval is how often serve sweeps, and the schedule of the Lambda sweep function
// (deploy/template.yaml; its test holds the two equal).
const SweepInterval = time.Minute

// Sweep removes the uploads that expired more than SweepGrace ago: for each, its staged file,
// the renditions an unfinished Finish left (all of an unused upload's images; those of a used
// one that its photo does not name), then its record, in that order, so a sweep cut short is
// finished by the next. It returns how many uploads it removed.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	expired, err := s.records.ExpiredUploads(ctx, s.cfg.Now().Add(-SweepGrace))
	if err != nil {
		return 0, err
	}
	swept := 0
	for _, u := range expired {
		if ValidateUploadID(u.ID) != nil {
			// No key of the store is named by it, so there is nothing to delete but the record.
			s.cfg.Log.Warn("removing an upload record with a malformed id", "upload", u.ID)
		} else if err := s.sweepObjects(ctx, u); err != nil {
			return swept, err
		}
		if err := s.records.DeleteUpload(ctx, u.ID); err != nil {
			return swept, err
		}
		swept++
	}
	return swept, nil
}

// sweepObjects deletes upload u's staged file and the images under its prefix that no photo
// owns: past SweepGrace no Finish writes there any more.
//
// A used upload's photo owns the images it names. The others are what a Finish refused before
// the one that made the photo left (the same form sent another file), or a Finish that lost a
// race to it; they are deleted, and so is everything once the photo is gone, which Forget will
// have done too. A record used before it named its photo leaves its images to Forget.
func (s *Service) sweepObjects(ctx context.Context, u domain.Upload) error {
	if err := s.store.Delete(ctx, stagingKey(u.ID)); err != nil {
		return err
	}
	if !u.Used {
		return s.deleteUnder(ctx, imagePrefix(u.ID), nil)
	}
	if u.PhotoTimestamp == "" {
		return nil
	}
	key := domain.PhotoKey{Owner: u.Owner, Timestamp: u.PhotoTimestamp}
	photos, err := s.records.GetPhotos(ctx, []domain.PhotoKey{key})
	if err != nil {
		return err
	}
	named := map[string]bool{}
	if p, ok := photos[key]; ok && p.Upload == u.ID {
		// (Another photo may have been made at that timestamp since this one was deleted.)
		for _, img := range p.Images {
			named[img.Key] = true
		}
	}
	return s.deleteUnder(ctx, imagePrefix(u.ID), func(key string) bool { return named[key] })
}

// deleteUnder deletes every object under prefix but those keep reports (all with a nil keep),
// listing them first.
func (s *Service) deleteUnder(ctx context.Context, prefix string, keep func(key string) bool) error {
	var keys []string
	err := s.store.List(ctx, prefix, func(key string, _ time.Time) error {
		if keep == nil || !keep(key) {
			keys = append(keys, key)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var errs []error
	for _, k := range keys {
		errs = append(errs, s.store.Delete(ctx, k))
	}
	return errors.Join(errs...)
}

// SweepEvery sweeps every interval until ctx ends, telling report what each sweep that
// removed something or failed did.
func (s *Service) SweepEvery(ctx context.Context, interval time.Duration, report func(swept int, err error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if n, err := s.Sweep(ctx); (n > 0 || err != nil) && ctx.Err() == nil {
			report(n, err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
