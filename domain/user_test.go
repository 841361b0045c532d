package domain_test

import (
	"reflect"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

func TestProfileField(t *testing.T) {
	var p domain.Profile
	for _, f := range domain.StringFields {
		target := p.Field(f)
		if target == nil {
			t.Fatalf("Field(%s) = nil", f)
		}
		v := f.String()
		*target = &v
	}
	ptr := func(s string) *string { return &s }
	want := domain.Profile{
		Name: ptr("name"), Email: ptr("email"), Birthdate: ptr("birthdate"),
		Address: ptr("address"), Status: ptr("status"), PinnedImage: ptr("pinnedImage"),
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("profile set through Field = %+v, want %+v", p, want)
	}
	if p.Field(domain.FieldInterests) != nil {
		t.Error("Field(interests) is not nil")
	}
}
