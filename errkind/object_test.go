package errkind_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcperr/mcperr/errkind"
)

// TestObjectMarshal: each standard kind writes the members its advice
// declares, in that order, each only when set; these are the objects the
// example servers' transcripts show.
func TestObjectMarshal(t *testing.T) {
	full := func(o errkind.Object) errkind.Object {
		o.Code, o.Message, o.Details, o.HTTPStatus = "the_code", "the message", json.RawMessage(`{ "a": 1 }`), 499
		o.RetryAfterSeconds, o.Limit, o.Remaining, o.ResetSeconds = i64(3), i64(20), i64(0), i64(1)
		return o
	}
	tests := []struct {
		name string
		obj  errkind.Object
		want string
	}{
		{"not_found capture", errkind.Object{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace with id deadbeefdeadbeefdeadbeefdeadbeef",
			Details: json.RawMessage(`{ "trace_id": "deadbeefdeadbeefdeadbeefdeadbeef" }`), HTTPStatus: 404},
			`{"kind":"not_found","code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}`},
		{"rate_limited capture", errkind.Object{Kind: errkind.RateLimited, Code: "rate_limited", Message: "slow down", HTTPStatus: 429,
			RetryAfterSeconds: i64(1), Limit: i64(20), Remaining: i64(0), ResetSeconds: i64(1)},
			`{"kind":"rate_limited","retryAfterSeconds":1,"limit":20,"remaining":0,"resetSeconds":1}`},
		{"server_error capture", errkind.Object{Kind: errkind.ServerError, Code: "internal_error", Message: "trace store shard 3 is unavailable", HTTPStatus: 500},
			`{"kind":"server_error","code":"internal_error","httpStatus":500,"message":"trace store shard 3 is unavailable"}`},
		{"malformed_response", errkind.Object{Kind: errkind.MalformedResponse, Message: "response body is not valid JSON (status 502)", HTTPStatus: 502},
			`{"kind":"malformed_response","httpStatus":502,"message":"response body is not valid JSON (status 502)"}`},
		{"invalid_arguments full", full(errkind.Object{Kind: errkind.InvalidArguments}),
			`{"kind":"invalid_arguments","code":"the_code","message":"the message","details":{"a":1},"retryAfterSeconds":3}`},
		{"authentication_failed full", full(errkind.Object{Kind: errkind.AuthenticationFailed}),
			`{"kind":"authentication_failed","message":"the message","retryAfterSeconds":3}`},
		{"permission_denied full", full(errkind.Object{Kind: errkind.PermissionDenied}),
			`{"kind":"permission_denied","code":"the_code","message":"the message","details":{"a":1},"retryAfterSeconds":3}`},
		{"conflict full", full(errkind.Object{Kind: errkind.Conflict}),
			`{"kind":"conflict","code":"the_code","message":"the message","details":{"a":1},"retryAfterSeconds":3}`},
		{"unavailable full", full(errkind.Object{Kind: errkind.Unavailable}),
			`{"kind":"unavailable","code":"the_code","httpStatus":499,"message":"the message","retryAfterSeconds":3}`},
		{"unavailable, no wait", errkind.Object{Kind: errkind.Unavailable, Code: "UNAVAILABLE", HTTPStatus: 503},
			`{"kind":"unavailable","code":"UNAVAILABLE","httpStatus":503}`},
		{"network_error full", full(errkind.Object{Kind: errkind.NetworkError}),
			`{"kind":"network_error","message":"the message","retryAfterSeconds":3}`},
		{"a kind of a server's own writes every member set", full(errkind.Object{Kind: "credit_rate_limited"}),
			`{"kind":"credit_rate_limited","code":"the_code","message":"the message","details":{"a":1},"httpStatus":499,"retryAfterSeconds":3,"limit":20,"remaining":0,"resetSeconds":1}`},
		{"zero object", errkind.Object{}, `{"kind":""}`},
		{"details that are not JSON are left out", errkind.Object{Kind: errkind.NotFound, Details: json.RawMessage(`{`)}, `{"kind":"not_found"}`},
		{"strings stay readable", errkind.Object{Kind: errkind.NotFound, Message: "a <b> & \"c\"\n\x01\xff\u2028"},
			`{"kind":"not_found","message":"a <b> & \"c\"\n\u0001\ufffd\u2028"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.obj.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(b)); diff != "" {
				t.Errorf("Marshal (-want +got):\n%s", diff)
			}
			if !json.Valid(b) {
				t.Errorf("not JSON: %s", b)
			}
		})
	}
}

// TestObjectLayout: a taxonomy's own layout decides the members, and a
// known wait is never dropped.
func TestObjectLayout(t *testing.T) {
	o := errkind.Object{Kind: "wrong_role", Code: "forbidden_role", Message: "read tokens only", HTTPStatus: 403}
	got := string(o.AppendJSON(nil, []string{"message"}))
	if want := `{"kind":"wrong_role","message":"read tokens only"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	o.RetryAfterSeconds = i64(0)
	got = string(o.AppendJSON([]byte("x"), []string{"message"}))
	if want := `x{"kind":"wrong_role","message":"read tokens only","retryAfterSeconds":0}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	got = string(o.AppendJSON(nil, []string{}))
	if want := `{"kind":"wrong_role","retryAfterSeconds":0}`; got != want {
		t.Errorf("empty layout: got %s, want %s", got, want)
	}
}

// TestObjectDecode: what Marshal writes, encoding/json reads back.
func TestObjectDecode(t *testing.T) {
	want := errkind.Object{Kind: "custom", Code: "c", Message: "m", Details: json.RawMessage(`[1,2]`), HTTPStatus: 429,
		RetryAfterSeconds: i64(5), Limit: i64(10), Remaining: i64(0), ResetSeconds: i64(7)}
	b, _ := json.Marshal(want)
	var got errkind.Object
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestObjectSchema: the published schema is the file beside the package,
// names every member, and accepts every object Marshal writes.
func TestObjectSchema(t *testing.T) {
	file, err := os.ReadFile("kindobject.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	s := errkind.ObjectSchema()
	if !bytes.Equal(file, s) {
		t.Errorf("ObjectSchema differs from kindobject.schema.json")
	}
	s[0] = 'x'
	if errkind.ObjectSchema()[0] == 'x' {
		t.Errorf("ObjectSchema hands out its own bytes")
	}
	var doc struct {
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(file, &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range doc.Properties {
		names = append(names, n)
	}
	want := []string{"kind"}
	for _, f := range errkind.Fields() {
		want = append(want, string(f))
	}
	slices.Sort(names)
	slices.Sort(want)
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("schema properties (-want +got):\n%s", diff)
	}

	sch := compileSchema(t)
	for _, k := range append(errkind.Kinds(), "custom") {
		o := errkind.Object{Kind: k, Code: "c", Message: "m", Details: json.RawMessage(`{"x":[1]}`), HTTPStatus: 503,
			RetryAfterSeconds: i64(1), Limit: i64(20), Remaining: i64(0), ResetSeconds: i64(1)}
		b, _ := json.Marshal(o)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
	for _, bad := range []string{`{}`, `{"kind":""}`, `{"kind":"x","retryAfterSeconds":-1}`, `{"kind":"x","httpStatus":"404"}`, `[]`} {
		inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(bad)))
		if sch.Validate(inst) == nil {
			t.Errorf("schema accepts %s", bad)
		}
	}
}

func compileSchema(t testing.TB) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(errkind.ObjectSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("kindobject.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("kindobject.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func BenchmarkObjectMarshal(b *testing.B) {
	o := errkind.Object{Kind: errkind.NotFound, Code: "trace_not_found", Message: "no trace with id deadbeefdeadbeefdeadbeefdeadbeef",
		Details: json.RawMessage(`{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}`), HTTPStatus: 404}
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = o.AppendJSON(buf[:0], nil)
	}
}
