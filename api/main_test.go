package api_test

import (
	"os"
	"testing"

	"github.com/quickphotos/quickphotos/internal/testkit/apitest"
)

func TestMain(m *testing.M) { os.Exit(apitest.Main(m)) }
