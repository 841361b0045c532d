package api

import (
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/quickphotos/quickphotos/domain"
)

// localHostsOnly answers only the requests that name the server by an IP address or by
// localhost, for a server that trusts every caller because only this machine can reach it
// (Config.LocalHostsOnly). A web page on any other name, whose DNS its author can point at
// 127.0.0.1 once the page has loaded (DNS rebinding), would otherwise be same-origin with the
// server, and its requests and WebSockets would act as any user. An IP address cannot be
// rebound, so a request naming one is a request to this server.
func localHostsOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !localHost(r.Host) {
			writeHTTPError(w, http.StatusForbidden, domain.Errorf(domain.Forbidden,
				"this server runs without authentication for this machine alone, and answers only requests that name it by an IP address or localhost, not %q", r.Host))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// localHost reports whether a request's Host names the server by an IP address, localhost or
// a name under .localhost (which resolvers keep on this machine, RFC 6761), with any port. A
// request with no Host (HTTP/1.0) names nothing a page could have rebound.
func localHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if _, err := netip.ParseAddr(host); err == nil || host == "" {
		return true
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}
