package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/quickphotos/quickphotos/dynamo"
	"github.com/quickphotos/quickphotos/media"
	"github.com/quickphotos/quickphotos/telemetry"
)

// opening is what openBackend opens, and with what.
type opening struct {
	store storeConfig
	// media, when set, opens the photo files' store; nil takes no photo files.
	media *mediaConfig
	// prepareTable creates or checks the table and its index (storeConfig.prepareTable); a
	// Lambda function leaves it to its first request.
	prepareTable bool
	// poll is --stream-poll, for the stream's consumers.
	poll time.Duration
	// tel, when set, observes the store's calls and the consumers' lag.
	tel *telemetry.Telemetry
	log *slog.Logger
}

// backend is what serve, stream and lambda open before their own parts, in this order: the
// store's clients, the table's data layer over them, and the photo files' store over that.
type backend struct {
	opened *openedStore
	store  *dynamo.Store
	// media is nil when the command takes no photo files.
	media *openedMedia
	poll  time.Duration
	tel   *telemetry.Telemetry
	log   *slog.Logger
}

// openBackend opens what o says onto lc, which closes it in reverse.
func openBackend(ctx context.Context, lc *lifecycle, o opening) (*backend, error) {
	o.store.log = o.log
	opened, err := o.store.open(ctx)
	if err != nil {
		return nil, err
	}
	lc.onClose(func() { _ = opened.Close() })
	var observe []dynamo.Option
	if o.tel != nil {
		observe = append(observe, dynamo.WithObserver(o.tel.Store()))
	}
	b := &backend{opened: opened, store: dynamo.New(opened.client, o.store.table, observe...), poll: o.poll, tel: o.tel, log: o.log}
	if o.prepareTable {
		if err := o.store.prepareTable(ctx, b.store); err != nil {
			return nil, err
		}
	}
	if o.media != nil {
		if b.media, err = o.media.open(ctx, b.store, o.store, o.log); err != nil {
			return nil, err
		}
		lc.onClose(b.media.cleanup)
	}
	return b, nil
}

// images is the media service, nil when the command takes no photo files.
func (b *backend) images() *media.Service {
	if b.media == nil {
		return nil
	}
	return b.media.service
}

// startTracing sets up OpenTelemetry's exporter from the OTEL_* variables onto lc, and reports
// whether it traces.
func startTracing(ctx context.Context, lc *lifecycle) (bool, error) {
	stop, tracing, err := telemetry.SetupTracing(ctx)
	if err != nil {
		return false, fmt.Errorf("tracing: %w", err)
	}
	lc.onClose(func() { _ = stop(context.Background()) })
	return tracing, nil
}
