package resolvers

import (
	"context"
	"sort"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/graph/model"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/media/blob"
)

// photoToUpload is uploadPhoto's input made valid: the photo, and the upload to make it of
// ("" for a photo hosted at its URL).
type photoToUpload struct {
	photo      domain.Photo
	upload     string
	fromUpload bool
}

// photoToUpload reads uploadPhoto's input: exactly one of url and upload.
func (r *mutationResolver) photoToUpload(input model.UploadPhotoInput) (photoToUpload, error) {
	p := domain.Photo{Owner: input.Owner, Timestamp: r.Store.Now()}
	if ts := input.Timestamp.Value(); ts != nil {
		p.Timestamp = *ts
	}
	k, err := domain.CanonicalPhotoKey(p.Key())
	if err != nil {
		return photoToUpload{}, err
	}
	p.Timestamp = k.Timestamp
	url, upload := input.URL.Value(), input.Upload.Value()
	switch {
	case url != nil && upload != nil:
		return photoToUpload{}, domain.Errorf(domain.Invalid, "give url or upload, not both")
	case upload != nil:
		if err := r.takesUploads(model.CreatePhotoUploadInput{}); err != nil {
			return photoToUpload{}, err
		}
		if err := media.ValidateUploadID(*upload); err != nil {
			return photoToUpload{}, err
		}
		return photoToUpload{photo: p, upload: *upload, fromUpload: true}, nil
	case url != nil:
		p.URL = *url
		return photoToUpload{photo: p}, domain.ValidateURL("url", p.URL)
	}
	return photoToUpload{}, domain.Errorf(domain.Invalid, "give url (a photo hosted elsewhere) or upload (a createPhotoUpload's uploadId)")
}

func (r *mutationResolver) uploadPhoto(ctx context.Context, in photoToUpload) (domain.Photo, error) {
	if in.fromUpload {
		return r.Media.Finish(ctx, in.photo, in.upload)
	}
	return r.Store.UploadPhoto(ctx, in.photo)
}

// takesUploads refuses uploads on a server without a media store.
func (r *mutationResolver) takesUploads(model.CreatePhotoUploadInput) error {
	if r.Media == nil {
		return domain.Errorf(domain.Invalid, "this server stores no files: upload photos by url")
	}
	return nil
}

// validUploadRequest checks createPhotoUpload's arguments before any request (with a client
// mutation id, before its mark is read or written).
func (r *mutationResolver) validUploadRequest(in model.CreatePhotoUploadInput) error {
	return r.Media.ValidateUploadRequest(in.Owner, in.ContentType, int64(in.ByteSize), postSuccess(in))
}

// postSuccess is how the store is to answer the upload's POST.
func postSuccess(in model.CreatePhotoUploadInput) blob.PostSuccess {
	var success blob.PostSuccess
	if v := in.SuccessActionStatus.Value(); v != nil {
		success.Status = *v
	}
	if v := in.SuccessActionRedirect.Value(); v != nil {
		success.Redirect = *v
	}
	return success
}

func (r *mutationResolver) createPhotoUpload(ctx context.Context, in model.CreatePhotoUploadInput) (model.PhotoUpload, error) {
	t, err := r.Media.CreateUpload(ctx, in.Owner, in.ContentType, int64(in.ByteSize), postSuccess(in))
	if err != nil {
		return model.PhotoUpload{}, err
	}
	fields := make([]model.FormField, 0, len(t.Form.Fields))
	for name, value := range t.Form.Fields {
		fields = append(fields, model.FormField{Name: name, Value: value})
	}
	sort.Slice(fields, func(i, j int) bool { return fields[i].Name < fields[j].Name })
	return model.PhotoUpload{
		UploadID: t.Upload.ID, URL: t.Form.URL, Fields: fields,
		Expires: domain.Timestamp(t.Form.Expires), MaxBytes: int(t.Form.MaxBytes),
	}, nil
}
