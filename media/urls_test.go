package media

import (
	"fmt"
	"testing"
	"time"
)

func TestSignedURLs(t *testing.T) {
	hour := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	var c signedURLs
	if _, ok := c.get("a", hour); ok {
		t.Fatal("an empty cache had a URL")
	}
	c.put("a", hour, "a@12")
	if url, ok := c.get("a", hour); !ok || url != "a@12" {
		t.Fatalf("get a: %q %v", url, ok)
	}
	if _, ok := c.get("a", hour.Add(time.Hour)); ok {
		t.Fatal("a URL was handed out for another expiry")
	}
	// A request that read the clock before the window moved on neither gets nor drops the new
	// window's URLs.
	c.put("a", hour.Add(time.Hour), "a@13")
	c.put("b", hour, "b@12")
	if _, ok := c.get("b", hour); ok {
		t.Fatal("a URL of an earlier expiry was kept")
	}
	if url, _ := c.get("a", hour.Add(time.Hour)); url != "a@13" {
		t.Fatalf("a at 13: %q", url)
	}
	// Full, it keeps what it has and takes nothing new until the expiry moves on.
	for i := len(c.urls); i < maxSignedURLs; i++ {
		c.put(fmt.Sprint(i), hour.Add(time.Hour), "u")
	}
	c.put("late", hour.Add(time.Hour), "late@13")
	if _, ok := c.get("late", hour.Add(time.Hour)); ok || len(c.urls) != maxSignedURLs {
		t.Fatalf("full: kept a new URL (%d kept)", len(c.urls))
	}
	c.put("late", hour.Add(2*time.Hour), "late@14")
	if url, _ := c.get("late", hour.Add(2*time.Hour)); url != "late@14" || len(c.urls) != 1 {
		t.Fatalf("next expiry: %q, %d kept", url, len(c.urls))
	}
}
