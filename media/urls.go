package media

import (
	"sync"
	"time"
)

// maxSignedURLs bounds the URLs signedURLs keeps (about 250 bytes each, key and URL).
const maxSignedURLs = 1 << 16

// signedURLs keeps the images' signed URLs of the current expiry. Image hands out one URL per
// image within a lifetime (the expiry is the lifetime's end, rounded), so a URL signed once
// serves every later read of the image until the expiry moves on: a page of photos then
// costs no signature (an S3 presign, or an HMAC) for images already seen. When the expiry
// moves on, the URLs of the old one are dropped; past maxSignedURLs, new URLs are not kept.
type signedURLs struct {
	mu      sync.RWMutex
	expires time.Time
	urls    map[string]string
}

// get returns the URL signed for key until expires, if kept.
func (c *signedURLs) get(key string, expires time.Time) (string, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if !c.expires.Equal(expires) {
		return "", false
	}
	url, ok := c.urls[key]
	return url, ok
}

// put keeps url as key's URL until expires. A URL of an earlier expiry than the one kept is
// not kept (a request that read the clock just before the window moved on).
func (c *signedURLs) put(key string, expires time.Time, url string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case expires.After(c.expires):
		c.expires, c.urls = expires, make(map[string]string)
	case expires.Before(c.expires) || len(c.urls) >= maxSignedURLs:
		return
	}
	c.urls[key] = url
}
