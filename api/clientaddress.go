package api

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"

	"github.com/realclientip/realclientip-go"
)

// clientAddresses says which address a request comes from, for the rate-limit buckets of
// anonymous callers. Behind a reverse proxy or load balancer every connection comes from the
// proxy, so every anonymous caller would share its bucket. Given the proxies' addresses
// (Config.TrustedProxies), a request whose connection comes from one of them is taken to come
// from the rightmost address of its X-Forwarded-For headers that is not a trusted proxy's:
// each proxy appends the address it was reached from, so that entry is the last one a trusted
// party wrote, and what lies left of it is the client's to make up. A connection from anywhere
// else is its own address, whatever its headers say.
type clientAddresses struct {
	trusted   []netip.Prefix
	forwarded realclientip.RightmostTrustedRangeStrategy
}

func newClientAddresses(trusted []netip.Prefix) clientAddresses {
	nets := make([]net.IPNet, len(trusted))
	for i, p := range trusted {
		nets[i] = net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}
	}
	// The header name is one the strategy accepts: the error cannot happen.
	forwarded, _ := realclientip.NewRightmostTrustedRangeStrategy("X-Forwarded-For", nets)
	return clientAddresses{trusted: trusted, forwarded: forwarded}
}

// of is r's client address, as clientAddress makes it a bucket's.
func (c clientAddresses) of(r *http.Request) string {
	if len(c.trusted) > 0 && c.isTrusted(r.RemoteAddr) {
		// Empty when the headers name no untrusted address, or a malformed one there: the
		// proxy's own address stands.
		if client := c.forwarded.ClientIP(r.Header, r.RemoteAddr); client != "" {
			return clientAddress(client)
		}
	}
	return clientAddress(r.RemoteAddr)
}

// isTrusted reports whether remoteAddr is a trusted proxy's.
func (c clientAddresses) isTrusted(remoteAddr string) bool {
	ip, ok := remoteIP(remoteAddr)
	if !ok {
		return false
	}
	for _, p := range c.trusted {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// remoteIP is the IP of remoteAddr (host:port, or a bare address as X-Forwarded-For holds and
// as the Lambda adapter gives API Gateway's source IP), IPv4 unmapped, without a zone.
func remoteIP(remoteAddr string) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return ip.Unmap().WithZone(""), true
}

// clientAddress is the address a bucket is kept for: the IP of remoteAddr, or the /64 network
// of an IPv6 address, since one host commonly holds a whole /64; a remoteAddr that holds no IP
// (a Unix socket's name) stands for itself.
func clientAddress(remoteAddr string) string {
	ip, ok := remoteIP(remoteAddr)
	switch {
	case !ok:
		return remoteAddr
	case ip.Is6():
		return netip.PrefixFrom(ip, 64).Masked().String()
	}
	return ip.String()
}

// ParseTrustedProxies reads a list of IP addresses and CIDR ranges (a lone address is a range
// of one) for Config.TrustedProxies. Addresses are compared in their IPv4 form where they have
// one, so an IPv4-mapped range is read as the IPv4 range it maps.
func ParseTrustedProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		if p, err := netip.ParsePrefix(s); err == nil {
			if a := p.Addr(); a.Is4In6() {
				if p.Bits() < 96 {
					return nil, fmt.Errorf("%q reaches beyond the IPv4-mapped addresses", s)
				}
				p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("%q is neither an IP address nor a CIDR range", s)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}
