package ddb

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// tags builds SDK tags from key/value pairs.
func tags(kv ...string) []types.Tag {
	var out []types.Tag
	for i := 0; i < len(kv); i += 2 {
		out = append(out, types.Tag{Key: aws.String(kv[i]), Value: aws.String(kv[i+1])})
	}
	return out
}

// listTags returns a resource's tags as "key=value" strings, failing the
// test on error.
func (env *testEnv) listTags(arn string) []string {
	env.t.Helper()
	out, err := env.client.ListTagsOfResource(env.ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn)})
	if err != nil {
		env.t.Fatal(err)
	}
	var got []string
	for _, t := range out.Tags {
		got = append(got, aws.ToString(t.Key)+"="+aws.ToString(t.Value))
	}
	return got
}

// TestTags_Lifecycle: tags from CreateTable, added, overwritten, removed,
// kept across a reopen, and gone with the table.
func TestTags_Lifecycle(t *testing.T) {
	env := mustOpen(t)
	out, err := env.client.CreateTable(env.ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("tbl"),
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		BillingMode:          types.BillingModePayPerRequest,
		Tags:                 tags("team", "photos", "env", "dev"),
	})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(out.TableDescription.TableArn)
	steps := []struct {
		name string
		do   func() error
		want []string
	}{
		{"from CreateTable, ordered by key", func() error { return nil }, []string{"env=dev", "team=photos"}},
		{"added and overwritten", func() error {
			_, err := env.client.TagResource(env.ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: tags("env", "prod", "cost", "")})
			return err
		}, []string{"cost=", "env=prod", "team=photos"}},
		{"removed, an absent key ignored", func() error {
			_, err := env.client.UntagResource(env.ctx, &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: []string{"team", "nope"}})
			return err
		}, []string{"cost=", "env=prod"}},
		{"kept across a reopen", func() error { env.reopen(); return nil }, []string{"cost=", "env=prod"}},
		{"gone with the table", func() error {
			if _, err := env.client.DeleteTable(env.ctx, &dynamodb.DeleteTableInput{TableName: aws.String("tbl")}); err != nil {
				return err
			}
			env.CreateTable("tbl", false)
			return nil
		}, nil},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := env.listTags(arn); !slices.Equal(got, s.want) {
			t.Fatalf("%s: tags %v, want %v", s.name, got, s.want)
		}
	}
}

// TestTags_Errors: DynamoDB's rules for ARNs and tags; a refused request
// changes nothing.
func TestTags_Errors(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", false)
	arn := env.e.core.TableARN("tbl")
	if _, err := env.client.TagResource(env.ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: tags("keep", "1")}); err != nil {
		t.Fatal(err)
	}
	var fifty []string
	for i := range 50 {
		fifty = append(fifty, fmt.Sprintf("k%02d", i), "v")
	}
	tag := func(arn string, tags []types.Tag) func() error {
		return func() error {
			_, err := env.client.TagResource(env.ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn), Tags: tags})
			return err
		}
	}
	for _, c := range []struct {
		name      string
		call      func() error
		code, msg string
	}{
		{"not an ARN", tag("not-a-valid-arn", tags("a", "b")), "ValidationException", "Invalid TableArn: Invalid ResourceArn provided as input not-a-valid-arn"},
		{"an index ARN", tag(arn+"/index/gsi", tags("a", "b")), "ValidationException", "Invalid TableArn: Invalid ResourceArn provided as input " + arn + "/index/gsi"},
		{"another service", tag("arn:aws:s3:::bucket", tags("a", "b")), "AccessDeniedException", ""},
		{"another account", tag(strings.Replace(arn, "000000000000", "123456789012", 1), tags("a", "b")), "AccessDeniedException", ""},
		{"another region", tag(strings.Replace(arn, ":local:", ":us-east-1:", 1), tags("a", "b")), "AccessDeniedException", ""},
		{"no such table", tag(env.e.core.TableARN("nope"), tags("a", "b")), "ResourceNotFoundException", "Requested resource not found: ResourcArn: " + env.e.core.TableARN("nope") + " not found"},
		{"no tags", env.rawCall("TagResource", `{"ResourceArn":"`+arn+`"}`), "ValidationException", "1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member must not be null"},
		{"an empty key", tag(arn, tags("", "v")), "ValidationException", "1 validation error detected: Value '' at 'tags.1.member.key' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"a key of 129 characters", tag(arn, tags("a", "b", strings.Repeat("k", 129), "v")), "ValidationException", "1 validation error detected: Value '" + strings.Repeat("k", 129) + "' at 'tags.2.member.key' failed to satisfy constraint: Member must have length less than or equal to 128"},
		{"a value of 257 characters", tag(arn, tags("k", strings.Repeat("v", 257))), "ValidationException", ""},
		{"a character outside the set", tag(arn, tags("k#", "v")), "ValidationException", ""},
		{"a reserved key", tag(arn, tags("aws:cost", "v")), "ValidationException", "One or more parameter values were invalid: Tag keys starting with 'aws:' are reserved for system use: aws:cost"},
		{"the 51st tag", tag(arn, tags(fifty...)), "ValidationException", "One or more parameter values were invalid: The number of tags of a resource would be 51; the limit is 50"},
		{"untag without keys", env.rawCall("UntagResource", `{"ResourceArn":"`+arn+`"}`), "ValidationException", "1 validation error detected: Value null at 'tagKeys' failed to satisfy constraint: Member must not be null"},
		{"a NextToken never issued", func() error {
			_, err := env.client.ListTagsOfResource(env.ctx, &dynamodb.ListTagsOfResourceInput{ResourceArn: aws.String(arn), NextToken: aws.String("x")})
			return err
		}, "ValidationException", "One or more parameter values were invalid: Invalid NextToken: x"},
	} {
		t.Run(c.name, func(t *testing.T) { wantErr(t, c.call(), c.code, c.msg) })
	}
	if got := env.listTags(arn); !slices.Equal(got, []string{"keep=1"}) {
		t.Fatalf("tags after the refused requests: %v", got)
	}
	// Exactly 50 tags in all is allowed.
	if err := tag(arn, tags(fifty[:98]...))(); err != nil {
		t.Fatalf("the 50th tag: %v", err)
	}
}
