package floor

import (
	"errors"
	"fmt"
	"net"
	"net/url"
)

// loopbackOnly refuses a target that is not an http URL on a loopback address: the floor is
// measured on one machine, and never contacts another.
func loopbackOnly(target string) error {
	u, err := url.Parse(target)
	if err != nil {
		return err
	}
	if u.Scheme != "http" {
		return fmt.Errorf("%s: the floor records from http on a loopback address", target)
	}
	return loopbackHost(u.Hostname())
}

// loopbackHost refuses a host that is not a loopback IP address or localhost.
func loopbackHost(host string) error {
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return errors.New(host + " is not a loopback address: the floor stays on this machine")
}

// Listen listens on addr, which must be a loopback address.
func Listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if err := loopbackHost(host); err != nil {
		return nil, err
	}
	return net.Listen("tcp", addr)
}
