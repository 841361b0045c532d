package api

import (
	"net/http"
	"net/netip"
	"reflect"
	"testing"
)

func TestClientAddress(t *testing.T) {
	for _, tc := range []struct{ remote, want string }{
		{"192.0.2.7:51234", "192.0.2.7"},
		{"[::ffff:192.0.2.7]:51234", "192.0.2.7"},                       // IPv4 over an IPv6 socket: the same caller
		{"[2001:db8:1:2:aaaa:bbbb:cccc:dddd]:443", "2001:db8:1:2::/64"}, // one host may hold a whole /64
		{"[2001:db8:1:2::1]:443", "2001:db8:1:2::/64"},                  // the same network, the same bucket
		{"[fe80::1%eth0]:443", "fe80::/64"},                             // the zone is not part of the address
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},                        // a bare address, as X-Forwarded-For holds
		{"@", "@"},                                                      // a Unix socket has no IP: its name stands
	} {
		if got := clientAddress(tc.remote); got != tc.want {
			t.Errorf("clientAddress(%q) = %q, want %q", tc.remote, got, tc.want)
		}
	}
}

// TestClientAddresses: behind trusted proxies, a request is known by the rightmost address of
// X-Forwarded-For that no trusted proxy holds; what a client writes left of it, or sends
// straight to the server, changes nothing.
func TestClientAddresses(t *testing.T) {
	trusted, err := ParseTrustedProxies([]string{"10.0.0.0/8", "192.0.2.1", "2001:db8:ffff::/48"})
	if err != nil {
		t.Fatal(err)
	}
	behind := newClientAddresses(trusted)
	for _, tc := range []struct {
		name      string
		remote    string
		forwarded []string // X-Forwarded-For headers, in order
		want      string
	}{
		{"a proxy's request", "10.1.2.3:5000", []string{"198.51.100.7"}, "198.51.100.7"},
		{"two proxies", "10.1.2.3:5000", []string{"198.51.100.7, 192.0.2.1"}, "198.51.100.7"},
		{"a forged entry left of the proxy's", "10.1.2.3:5000", []string{"203.0.113.9, 198.51.100.7"}, "198.51.100.7"},
		{"headers in turn", "10.1.2.3:5000", []string{"203.0.113.9", "198.51.100.7"}, "198.51.100.7"},
		{"IPv6, its /64", "[2001:db8:ffff::5]:443", []string{"2001:db8:1:2::99"}, "2001:db8:1:2::/64"},
		{"IPv4-mapped proxy", "[::ffff:10.1.2.3]:5000", []string{"198.51.100.7"}, "198.51.100.7"},
		{"a bare proxy address (Lambda's source IP)", "10.1.2.3", []string{"198.51.100.7"}, "198.51.100.7"},
		{"no header: the proxy", "10.1.2.3:5000", nil, "10.1.2.3"},
		{"only proxies: the nearest", "10.1.2.3:5000", []string{"10.9.9.9, 192.0.2.1"}, "10.1.2.3"},
		{"malformed at the client's place: the proxy", "10.1.2.3:5000", []string{"not-an-address"}, "10.1.2.3"},
		{"straight to the server: the header is the client's", "198.51.100.7:5000", []string{"203.0.113.9"}, "198.51.100.7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &http.Request{RemoteAddr: tc.remote, Header: http.Header{"X-Forwarded-For": tc.forwarded}}
			if got := behind.of(r); got != tc.want {
				t.Errorf("behind trusted proxies: %q, want %q", got, tc.want)
			}
			if got, want := newClientAddresses(nil).of(r), clientAddress(tc.remote); got != want {
				t.Errorf("with no proxy trusted: %q, want the connection's %q", got, want)
			}
		})
	}
}

func TestParseTrustedProxies(t *testing.T) {
	got, err := ParseTrustedProxies([]string{"10.1.2.3/8", "192.0.2.1", "::ffff:192.0.2.2", "2001:db8::/32", "::ffff:172.16.0.0/108"})
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.1/32"), netip.MustParsePrefix("192.0.2.2/32"), netip.MustParsePrefix("2001:db8::/32"), netip.MustParsePrefix("172.16.0.0/12")}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{"", "proxy.example.com", "10.0.0.0/33", "fe80::1%eth0", "::ffff:0.0.0.0/80"} {
		if _, err := ParseTrustedProxies([]string{bad}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
