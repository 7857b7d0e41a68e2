package gosdk_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/examples/internal/gosdk"
	"github.com/mcperr/mcperr/wire"
)

// TestResult: the SDK's result marshals to the same JSON as the wire
// result it came from, for an error, a success with structuredContent, and
// a result with _meta.
func TestResult(t *testing.T) {
	ok, err := wire.Success(map[string]any{"total": 6, "partial": false})
	if err != nil {
		t.Fatal(err)
	}
	meta := wire.TextError("Not found in the Vulnetix VDB: CVE-1999-0001")
	meta.Meta = map[string]any{"vulnetix/plan": "community"}
	for _, r := range []*wire.ToolResult{
		wire.ErrorResult(&envelope.Error{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace"}),
		wire.ErrorResult(errors.New("plain")),
		ok,
		meta,
	} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(gosdk.Result(r))
		if err != nil {
			t.Fatal(err)
		}
		var w, g any
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(w, g); d != "" {
			t.Errorf("%s: (-wire +sdk)\n%s", want, d)
		}
	}
}

func ExampleResult() {
	r := wire.ErrorResult(&envelope.Error{Kind: errkind.AuthenticationFailed, Message: "token revoked"})
	b, _ := json.Marshal(gosdk.Result(r))
	fmt.Println(string(b))
	// Output:
	// {"content":[{"type":"text","text":"{\"kind\":\"authentication_failed\",\"message\":\"token revoked\"}"}],"isError":true}
}
