package engine

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// Tags: TagResource, UntagResource and ListTagsOfResource, and Tags on
// CreateTable. A table's tags are kept in its metadata (tableMeta.Tags);
// tables are the only resources the engine has, so a ResourceArn must name
// one. DynamoDB Local does not support tagging at all ("Tagging is not
// currently supported in DynamoDB Local."); the rules below are DynamoDB's.

// Limits of DynamoDB tags.
const (
	MaxTagsPerResource = 50
	MaxTagKeyLength    = 128
	maxTagValueLength  = 256
	maxResourceARN     = 1283
)

// tagTextPattern is the character set DynamoDB allows in tag keys and
// values: letters, digits, white space and _ . : / = + - @.
var tagTextPattern = regexp.MustCompile(`^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$`)

// Tag is one Tag of a request or a table.
type Tag struct {
	Key   *string `json:"Key"`
	Value *string `json:"Value"`
}

// checkTags validates the Tags of a request (field names the parameter in
// messages, "tags") and returns them as stored tags, a later duplicate key
// winning as in DynamoDB.
func checkTags(field string, tags []Tag) ([]storage.StoredTag, error) {
	out := make([]storage.StoredTag, 0, len(tags))
	for i, t := range tags {
		at := fmt.Sprintf("%s.%d.member", field, i+1)
		switch {
		case t.Key == nil:
			return nil, Validationf("1 validation error detected: Value null at '%s.key' failed to satisfy constraint: Member must not be null", at)
		case t.Value == nil:
			return nil, Validationf("1 validation error detected: Value null at '%s.value' failed to satisfy constraint: Member must not be null", at)
		}
		k, v := *t.Key, *t.Value
		switch n := utf8.RuneCountInString(k); {
		case n < 1:
			return nil, Validationf("1 validation error detected: Value '%s' at '%s.key' failed to satisfy constraint: Member must have length greater than or equal to 1", k, at)
		case n > MaxTagKeyLength:
			return nil, Validationf("1 validation error detected: Value '%s' at '%s.key' failed to satisfy constraint: Member must have length less than or equal to %d", k, at, MaxTagKeyLength)
		case !tagTextPattern.MatchString(k):
			return nil, Validationf("1 validation error detected: Value '%s' at '%s.key' failed to satisfy constraint: Member must satisfy regular expression pattern: %s", k, at, tagTextPattern)
		}
		switch {
		case utf8.RuneCountInString(v) > maxTagValueLength:
			return nil, Validationf("1 validation error detected: Value '%s' at '%s.value' failed to satisfy constraint: Member must have length less than or equal to %d", v, at, maxTagValueLength)
		case !tagTextPattern.MatchString(v):
			return nil, Validationf("1 validation error detected: Value '%s' at '%s.value' failed to satisfy constraint: Member must satisfy regular expression pattern: %s", v, at, tagTextPattern)
		}
		if strings.HasPrefix(strings.ToLower(k), "aws:") {
			return nil, invalidParamf("Tag keys starting with 'aws:' are reserved for system use: %s", k)
		}
		out = mergeTags(out, []storage.StoredTag{{Key: k, Value: v}})
	}
	return out, nil
}

// mergeTags returns have with add applied: a key already there takes the
// new value.
func mergeTags(have, add []storage.StoredTag) []storage.StoredTag {
	for _, t := range add {
		i := sort.Search(len(have), func(i int) bool { return have[i].Key >= t.Key })
		if i < len(have) && have[i].Key == t.Key {
			have[i].Value = t.Value
			continue
		}
		have = append(have, storage.StoredTag{})
		copy(have[i+1:], have[i:])
		have[i] = t
	}
	return have
}

// errTooManyTags is the answer to a request that would leave a table with
// more than maxTagsPerResource tags.
func errTooManyTags(n int) *Error {
	return invalidParamf("The number of tags of a resource would be %d; the limit is %d", n, MaxTagsPerResource)
}

// taggedTable resolves a ResourceArn to the table it names, in tx. A string
// that is not a DynamoDB table ARN is a ValidationException; an ARN of
// another account or region names nothing this endpoint serves, which
// DynamoDB answers with AccessDeniedException; an ARN of this engine
// naming no table is a ResourceNotFoundException.
func (e *Engine) taggedTable(tx *bolt.Tx, op, arn string) (*storage.TableMeta, error) {
	if arn == "" {
		return nil, Validationf("1 validation error detected: Value null at 'resourceArn' failed to satisfy constraint: Member must not be null")
	}
	if len(arn) > maxResourceARN {
		return nil, Validationf("1 validation error detected: Value '%s' at 'resourceArn' failed to satisfy constraint: Member must have length less than or equal to %d", arn, maxResourceARN)
	}
	invalid := Validationf("Invalid TableArn: Invalid ResourceArn provided as input %s", arn)
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[2] == "" {
		return nil, invalid
	}
	if parts[2] != "dynamodb" {
		return nil, accessDenied(op, arn)
	}
	name, ok := strings.CutPrefix(parts[5], "table/")
	if !ok || name == "" || strings.Contains(name, "/") {
		return nil, invalid
	}
	if parts[4] != e.Opts.AccountID || parts[3] != e.Opts.Region {
		return nil, accessDenied(op, arn)
	}
	m, err := storage.LoadTable(tx, name)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, &Error{Type: TypeResourceNotFound, Message: "Requested resource not found: ResourcArn: " + arn + " not found"}
	}
	return m, nil
}

// accessDenied is DynamoDB's answer to a request on a resource outside the
// caller's reach.
func accessDenied(op, arn string) *Error {
	return &Error{Type: typeAccessDenied, Message: fmt.Sprintf("User is not authorized to perform: dynamodb:%s on resource: %s", op, arn)}
}

// TagResourceInput is the TagResource request.
type TagResourceInput struct {
	ResourceArn string `json:"ResourceArn"`
	Tags        []Tag  `json:"Tags"`
}

// TagResource adds tags to a table, replacing the values of keys it has.
func (e *Engine) TagResource(_ context.Context, in *TagResourceInput) (*EmptyOutput, error) {
	if in.Tags == nil {
		return nil, Validationf("1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member must not be null")
	}
	add, err := checkTags("tags", in.Tags)
	if err != nil {
		return nil, err
	}
	return emptyOrError(e.Update(func(tx *bolt.Tx) error {
		m, err := e.taggedTable(tx, "TagResource", in.ResourceArn)
		if err != nil {
			return err
		}
		m.Tags = mergeTags(m.Tags, add)
		if len(m.Tags) > MaxTagsPerResource {
			return errTooManyTags(len(m.Tags))
		}
		return storage.SaveTable(tx, m)
	}))
}

// UntagResourceInput is the UntagResource request.
type UntagResourceInput struct {
	ResourceArn string   `json:"ResourceArn"`
	TagKeys     []string `json:"TagKeys"`
}

// UntagResource removes tags from a table; a key it does not have is no
// error.
func (e *Engine) UntagResource(_ context.Context, in *UntagResourceInput) (*EmptyOutput, error) {
	if in.TagKeys == nil {
		return nil, Validationf("1 validation error detected: Value null at 'tagKeys' failed to satisfy constraint: Member must not be null")
	}
	for i, k := range in.TagKeys {
		if n := utf8.RuneCountInString(k); n < 1 || n > MaxTagKeyLength {
			return nil, Validationf("1 validation error detected: Value '%s' at 'tagKeys.%d.member' failed to satisfy constraint: Member must have length less than or equal to %d and greater than or equal to 1", k, i+1, MaxTagKeyLength)
		}
	}
	return emptyOrError(e.Update(func(tx *bolt.Tx) error {
		m, err := e.taggedTable(tx, "UntagResource", in.ResourceArn)
		if err != nil {
			return err
		}
		kept := m.Tags[:0]
		for _, t := range m.Tags {
			removed := false
			for _, k := range in.TagKeys {
				removed = removed || t.Key == k
			}
			if !removed {
				kept = append(kept, t)
			}
		}
		m.Tags = kept
		return storage.SaveTable(tx, m)
	}))
}

// emptyOrError is the answer of an operation whose success holds nothing.
func emptyOrError(err error) (*EmptyOutput, error) {
	if err != nil {
		return nil, err
	}
	return &EmptyOutput{}, nil
}

// ListTagsInput is the ListTagsOfResource request.
type ListTagsInput struct {
	ResourceArn string  `json:"ResourceArn"`
	NextToken   *string `json:"NextToken"`
}

// ListTagsOfResource lists a table's tags, ordered by key. A table has at
// most 50, so one page holds them all and no NextToken is ever issued.
func (e *Engine) ListTagsOfResource(_ context.Context, in *ListTagsInput) (*ListTagsOutput, error) {
	var tags []storage.StoredTag
	err := e.View(func(tx *bolt.Tx) error {
		m, err := e.taggedTable(tx, "ListTagsOfResource", in.ResourceArn)
		if err != nil {
			return err
		}
		if in.NextToken != nil {
			return invalidParamf("Invalid NextToken: %s", *in.NextToken)
		}
		tags = m.Tags
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &ListTagsOutput{Tags: tags}, nil
}
