package storage

import (
	"errors"
)

// Sentinel errors returned by OpenStore, OpenMemoryStore and Close. Errors
// returned to DynamoDB clients travel as the engine's *Error values instead.
var (
	// ErrFormatVersion is returned by Open when the data file was written
	// by an incompatible version of the engine (its format-version record
	// differs from FormatVersion).
	ErrFormatVersion = errors.New("ddb: unsupported on-disk format version")

	// ErrNotDir is returned by Open when dir exists and is not a directory.
	ErrNotDir = errors.New("ddb: data path is not a directory")

	// ErrLocked is returned by Open when another process (or another Engine
	// in this one) has the data file open: bbolt allows one writer per file.
	ErrLocked = errors.New("ddb: the data file is in use by another process")

	// ErrClosed is returned (as an InternalServerError to clients) by any
	// operation on an Engine after Close.
	ErrClosed = errors.New("ddb: engine is closed")
)
