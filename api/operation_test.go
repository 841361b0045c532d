package api

import (
	"reflect"
	"testing"

	"github.com/vektah/gqlparser/v2"

	"github.com/quickphotos/quickphotos/domain"
	"github.com/quickphotos/quickphotos/graph"
)

func TestProfileFields(t *testing.T) {
	schema := graph.NewExecutableSchema(graph.Config{}).Schema()
	for name, tc := range map[string]struct {
		query string
		want  []domain.ProfileField
	}{
		"OnlyCounters":  {`{ user(username: "a") { username followerCount } }`, []domain.ProfileField{}},
		"Direct":        {`{ user(username: "a") { name status } }`, []domain.ProfileField{domain.FieldName, domain.FieldStatus}},
		"Nested":        {`{ photo(owner: "a", timestamp: "2020-01-01T00:00:00Z") { owner { pinnedImage } reactions { edges { node { user { email } } } } } }`, []domain.ProfileField{domain.FieldEmail, domain.FieldPinnedImage}},
		"Fragments":     {`{ user(username: "a") { ...F ... on User { address } } } fragment F on User { interests }`, []domain.ProfileField{domain.FieldAddress, domain.FieldInterests}},
		"NotPhotoField": {`{ photo(owner: "a", timestamp: "2020-01-01T00:00:00Z") { url } }`, []domain.ProfileField{}},
	} {
		t.Run(name, func(t *testing.T) {
			doc, errs := gqlparser.LoadQueryWithRules(schema, tc.query, nil)
			if errs != nil {
				t.Fatal(errs)
			}
			got := walkSelection(doc.Operations[0], nil).profile.profileFields()
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}
