// Package media makes photos of uploaded files and serves their images: the service between
// the GraphQL resolvers and the two parts that handle bytes, media/imaging (sniff, decode,
// orient, resize, re-encode) and media/blob (the embedded file store or S3). It reaches the
// table through Records, an interface it defines and *dynamo.Store implements, so the arrows
// point one way: resolvers → media → (imaging, blob, domain); dynamo knows nothing of media.
//
// The flow:
//
//  1. CreateUpload writes a staging record (owner, declared type and size, expiry, unused) and
//     presigns a POST of exactly staging/<id>, of that type, at most that size, until the
//     expiry.
//  2. The client POSTs the file to the store.
//  3. Finish checks the record (the caller's, unused, not expired), reads the staged file (no
//     more than declared), makes the renditions with imaging.Process, writes them under
//     images/<id>/<sha256>.<ext>, then writes the photo and marks the upload used in one
//     transaction. Of two Finish calls racing on one upload, one wins; the other gets Conflict
//     and leaves nothing: both wrote the same content-addressed objects, which the winner's
//     photo keeps.
//  4. Image hands out signed, expiring URLs of the renditions.
//  5. Forget, a handler of the table's change stream, deletes a photo's images, every object
//     under its upload's prefix, once its removal has committed; Sweep removes expired
//     uploads with whatever they left.
//
// # Why images are keyed by upload, not by content alone
//
// The renditions are named by their SHA-256, which makes a retried Finish (same upload, same
// bytes) cost nothing and gives every object an immutable name that caches can keep forever.
// They live under their upload's prefix rather than in one content-addressed pool, so that a
// photo owns its objects outright: deleting it deletes them, with no reference count to keep
// in step with the photos (a count updated in the photo's transaction and read by an
// asynchronous deleter races with a new upload of the same bytes, which would lose its image).
// The price is that the same file uploaded twice, as two uploads, is stored twice.
//
// # What a failure leaves
//
// A Finish that fails after writing renditions (the transaction refused, its request ended,
// the process killed) leaves them under images/<id>/, with the record unused, or used by a
// later Finish of another file sent to the same form; once its request has ended it writes no
// more, so nothing is written there long after the upload expired. Sweep, run every
// SweepInterval by serve (on AWS Lambda, by the sweep function on a schedule), deletes the
// staging object and that prefix of every upload expired more than SweepGrace ago, but the
// images of the photo a used record names, then the record. The table's TTL removes a record
// the sweeper never reached, a day later; on S3 a lifecycle rule on the staging prefix
// (docs/uploads.md) expires staged files even with no server running.
package media
