package api

import "testing"

func TestLocalHost(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1:8080":             true,
		"127.0.0.1":                  true,
		"[::1]:8080":                 true,
		"[::1]":                      true,
		"192.0.2.7:8080":             true, // an address cannot be rebound
		"localhost:5173":             true,
		"LOCALHOST":                  true,
		"localhost.":                 true,
		"app.localhost:8080":         true,
		"":                           true, // HTTP/1.0: no name to rebind
		"attacker.example:8080":      false,
		"attacker.example":           false,
		"localhost.attacker.example": false,
		"127.0.0.1.nip.io:8080":      false,
		"localhostx:8080":            false,
	} {
		if got := localHost(host); got != want {
			t.Errorf("localHost(%q) = %v, want %v", host, got, want)
		}
	}
}
