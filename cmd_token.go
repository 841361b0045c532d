package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/quickphotos/quickphotos/auth"
)

// mintToken prints a development token for a username, signed with the secret `serve
// --jwt-secret` verifies.
func mintToken(args []string, stdout, stderr io.Writer) error {
	var cfg authConfig
	var ttl time.Duration
	f := newFlags("token USERNAME", stderr)
	f.String(&cfg.jwtSecret, "jwt-secret", "", "the shared secret `serve --jwt-secret` verifies (at least 32 bytes)")
	f.String(&cfg.usernameClaim, "username-claim", "sub", "the claim that holds the username, as `serve --username-claim`")
	f.Duration(&ttl, "ttl", time.Hour, "how long the token is valid")
	username, rest := "", args
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		username, rest = args[0], args[1:]
	}
	if err := f.parse(rest); err != nil {
		return err
	}
	if username == "" && f.NArg() == 1 {
		username = f.Arg(0)
	} else if f.NArg() > 0 || username == "" {
		return errors.New("usage: quickphotos token USERNAME [--ttl 1h] (with --jwt-secret or QUICKPHOTOS_JWT_SECRET)")
	}
	if cfg.jwtSecret == "" {
		return errors.New("token needs the secret: --jwt-secret or QUICKPHOTOS_JWT_SECRET")
	}
	token, err := auth.Mint([]byte(cfg.jwtSecret), username, ttl, cfg.options())
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, token)
	return nil
}
