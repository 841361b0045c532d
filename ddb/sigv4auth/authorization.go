package sigv4auth

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The pieces of an AWS Signature Version 4 Authorization header.
const (
	algorithm  = "AWS4-HMAC-SHA256"
	service    = "dynamodb"
	terminator = "aws4_request"
	// amzDateFormat is X-Amz-Date's ISO 8601 basic format.
	amzDateFormat = "20060102T150405Z"
	scopeDateFmt  = "20060102"
)

// authorization is a parsed Authorization header with the request's X-Amz-Date.
type authorization struct {
	header        string
	algorithm     string
	credential    string
	signedHeaders string
	signature     string
	date          string
}

// credential is the parsed Credential of an Authorization header.
type credential struct {
	keyID, date, region, service, terminator string
}

// parseAuthorization splits header (which starts with "AWS4-") into its algorithm and
// parameters, and refuses one that lacks a parameter or a request without X-Amz-Date, with
// the IncompleteSignatureException DynamoDB answers, which quotes the header (it holds no
// secret: the signature is a one-way function of the request).
func parseAuthorization(header, amzDate string, hasDate bool) (*authorization, *authError) {
	a := &authorization{header: header, date: amzDate}
	alg, params, _ := strings.Cut(strings.TrimSpace(header), " ")
	a.algorithm = alg
	for _, param := range strings.Split(params, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(param), "=")
		switch name {
		case "Credential":
			a.credential = value
		case "SignedHeaders":
			a.signedHeaders = value
		case "Signature":
			a.signature = value
		}
	}
	var msg strings.Builder
	for _, p := range []struct{ name, value string }{{"Credential", a.credential}, {"Signature", a.signature}, {"SignedHeaders", a.signedHeaders}} {
		if p.value == "" {
			fmt.Fprintf(&msg, "Authorization header requires '%s' parameter. ", p.name)
		}
	}
	switch {
	case amzDate == "" && !hasDate:
		msg.WriteString("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ")
	case amzDate == "":
		// The SDK's signer, which checks the signature, always signs X-Amz-Date, and every
		// AWS SDK sends it; a request dated by Date alone could not be checked.
		msg.WriteString("This endpoint needs the request's date in the 'X-Amz-Date' header, not 'Date'. ")
	}
	if msg.Len() > 0 {
		return nil, &authError{typeIncomplete, msg.String() + "Authorization=" + header}
	}
	return a, nil
}

// signingTime parses X-Amz-Date.
func (a *authorization) signingTime() (time.Time, *authError) {
	t, err := time.Parse(amzDateFormat, a.date)
	if err != nil {
		return time.Time{}, &authError{typeIncomplete, fmt.Sprintf("Date must be in ISO-8601 'basic format'. Got '%s'. See http://en.wikipedia.org/wiki/ISO_8601", a.date)}
	}
	return t, nil
}

// checkSkew refuses a request signed more than skew before or after now, as DynamoDB does, so
// that a request captured on the way cannot be replayed later.
func checkSkew(signed, now time.Time, skew time.Duration) *authError {
	minutes := int(skew / time.Minute)
	switch {
	case signed.Before(now.Add(-skew)):
		return &authError{typeInvalidSignature, fmt.Sprintf("Signature expired: %s is now earlier than %s (%s - %d min.)",
			signed.Format(amzDateFormat), now.Add(-skew).Format(amzDateFormat), now.Format(amzDateFormat), minutes)}
	case signed.After(now.Add(skew)):
		return &authError{typeInvalidSignature, fmt.Sprintf("Signature not yet current: %s is still later than %s (%s + %d min.)",
			signed.Format(amzDateFormat), now.Add(skew).Format(amzDateFormat), now.Format(amzDateFormat), minutes)}
	}
	return nil
}

// signedHeaderList returns SignedHeaders' names, refusing a list without host, which
// DynamoDB requires to be signed, or, when the request has one, without x-amz-target: the
// operation is named there and not in the body, so an unsigned one could be changed on the
// way (a GetItem's body is a valid DeleteItem's). Every AWS SDK and the CLI sign it.
func (a *authorization) signedHeaderList(hasTarget bool) ([]string, *authError) {
	names := strings.Split(a.signedHeaders, ";")
	if !slices.Contains(names, "host") {
		return nil, &authError{typeInvalidSignature, "'Host' must be a 'SignedHeader' in the AWS Authorization."}
	}
	if hasTarget && !slices.Contains(names, "x-amz-target") {
		return nil, &authError{typeInvalidSignature, "'X-Amz-Target' must be a 'SignedHeader' in the AWS Authorization."}
	}
	return names, nil
}

// parseCredential checks the algorithm and splits the Credential into its five elements, then
// checks its scope against the request's date: the service, the terminator, and the date
// must be these, and any region is accepted, as DynamoDB Local does (the engine has one
// namespace of tables whatever the region).
func (a *authorization) parseCredential() (credential, *authError) {
	if a.algorithm != algorithm {
		return credential{}, &authError{typeIncomplete, fmt.Sprintf("Unsupported AWS 'algorithm': '%s' (only %s for now). ", a.algorithm, algorithm)}
	}
	parts := strings.Split(strings.TrimRight(a.credential, "/"), "/")
	if len(parts) != 5 {
		return credential{}, &authError{typeIncomplete, fmt.Sprintf("Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '%s'", a.credential)}
	}
	c := credential{keyID: parts[0], date: parts[1], region: parts[2], service: parts[3], terminator: parts[4]}
	var msgs []string
	if c.region == "" {
		msgs = append(msgs, "Credential should be scoped to a valid region, not ''.")
	}
	if c.service != service {
		msgs = append(msgs, fmt.Sprintf("Credential should be scoped to correct service: '%s'.", service))
	}
	if c.terminator != terminator {
		msgs = append(msgs, fmt.Sprintf("Credential should be scoped with a valid terminator: '%s', not '%s'.", terminator, c.terminator))
	}
	if day := a.date[:len(scopeDateFmt)]; c.date != day {
		msgs = append(msgs, fmt.Sprintf("Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '%s' != '%s', from '%s'.", c.date, day, a.date))
	}
	if len(msgs) > 0 {
		return credential{}, &authError{typeInvalidSignature, strings.Join(msgs, " ")}
	}
	return c, nil
}
