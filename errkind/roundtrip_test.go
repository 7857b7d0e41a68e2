package errkind_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/mcperr/mcperr/errkind"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestRoundTrip: every kind, rendered as its kind object (with the standard
// layout, or a server taxonomy's own), reads back with Read as the same
// kind, the taxonomy's move and the same wait; and every rendered object is
// valid against the published schema.
func TestRoundTrip(t *testing.T) {
	vexlo := errkind.Standard().With(errkind.Rule{Code: "forbidden_role", Kind: "wrong_role"})
	vexlo.Advice["wrong_role"] = errkind.Advice{Move: errkind.Stop, Note: "stop", Fields: []string{"message"}}
	vexlo.Advice["too_many_values_requested"] = errkind.Advice{Move: errkind.FixArgument, Note: "ask for fewer", Fields: []string{"message"}}
	kinds := append(errkind.Kinds(), "wrong_role", "too_many_values_requested", "a_kind_nobody_declared")
	sch := compileSchema(t)
	for _, tax := range []*errkind.Taxonomy{nil, vexlo} {
		for _, k := range kinds {
			for _, w := range []*int64{nil, i64(0), i64(1), i64(394200)} {
				o := errkind.Object{Kind: k, Code: "some_code", Message: "a <message> \"quoted\"\n", Details: json.RawMessage(`{"id": 7}`),
					HTTPStatus: 429, RetryAfterSeconds: w, Limit: i64(20), Remaining: i64(0), ResetSeconds: i64(1)}
				var text []byte
				if tax == nil {
					text, _ = o.MarshalJSON()
				} else {
					text = o.AppendJSON(nil, tax.Advise(k).Fields)
				}
				r := tax.Read(errkind.Outcome{IsError: true, Text: string(text)})
				type got struct {
					Form    errkind.Form
					Kind    errkind.Kind
					Move    errkind.Move
					Wait    time.Duration
					HasWait bool
				}
				want := got{errkind.FormKindObject, k, tax.Advise(k).Move, 0, w != nil}
				if w != nil {
					want.Wait = time.Duration(*w) * time.Second
					if m := want.Move; want.Wait > 24*time.Hour && (m == errkind.WaitThenRetry || m == errkind.RetrySafe || m == errkind.RereadThenRetry) {
						want.Move = errkind.Stop // a wait beyond a day: no sleeping on it
					}
				}
				if diff := cmp.Diff(want, got{r.Form, r.Kind, r.Move, r.Wait, r.HasWait}); diff != "" {
					t.Errorf("%s: read back (-want +got):\n%s", text, diff)
				}
				inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
				if err != nil {
					t.Fatalf("%s: %v", text, err)
				}
				if err := sch.Validate(inst); err != nil {
					t.Errorf("%s: schema: %v", text, err)
				}
			}
		}
	}
}

// FuzzRoundTrip: any kind object written is read back with its kind, code,
// message and wait.
func FuzzRoundTrip(f *testing.F) {
	f.Add("not_found", "trace_not_found", "no trace", int64(3), true)
	f.Add("custom kind", "", "a\nb\"c", int64(-1), false)
	f.Fuzz(func(t *testing.T, kind, code, message string, wait int64, hasWait bool) {
		if kind == "" || !utf8.ValidString(kind) || !utf8.ValidString(code) || !utf8.ValidString(message) {
			return // invalid UTF-8 is written as U+FFFD, by design
		}
		o := errkind.Object{Kind: errkind.Kind(kind), Code: code, Message: message}
		if hasWait {
			o.RetryAfterSeconds = &wait
		}
		text := o.AppendJSON(nil, nil)
		r := errkind.Read(errkind.Outcome{IsError: true, Text: string(text)})
		if r.Kind != o.Kind || r.Code != code || r.Message != message || r.Object == nil {
			t.Fatalf("%s read back as %+v", text, r)
		}
		if hasWait != (r.Object.RetryAfterSeconds != nil) || hasWait && *r.Object.RetryAfterSeconds != wait {
			t.Fatalf("%s: wait read back as %v", text, r.Object.RetryAfterSeconds)
		}
	})
}
