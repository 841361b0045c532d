package api

import "testing"

func TestClientAddress(t *testing.T) {
	for _, tc := range []struct{ remote, want string }{
		{"192.0.2.7:51234", "192.0.2.7"},
		{"[::ffff:192.0.2.7]:51234", "192.0.2.7"},                       // IPv4 over an IPv6 socket: the same caller
		{"[2001:db8:1:2:aaaa:bbbb:cccc:dddd]:443", "2001:db8:1:2::/64"}, // one host may hold a whole /64
		{"[2001:db8:1:2::1]:443", "2001:db8:1:2::/64"},                  // the same network, the same bucket
		{"[fe80::1%eth0]:443", "fe80::/64"},                             // the zone is not part of the address
		{"@", "@"},                                                      // a Unix socket has no IP: its name stands
	} {
		if got := clientAddress(tc.remote); got != tc.want {
			t.Errorf("clientAddress(%q) = %q, want %q", tc.remote, got, tc.want)
		}
	}
}
