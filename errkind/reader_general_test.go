package errkind_test

import (
	"encoding/json"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcperr/mcperr/errkind"
)

// day366 is the wait of issue 31's repro: 366 days, within the year a wait
// may name, far beyond what an agent should sleep on.
const day366 = 366 * 24 * time.Hour

// TestReadWaitBound: a wait beyond a day, in every form a server can send
// it (kind object, code object, prose, JSON-RPC data), is kept as a figure
// and its move is stop; a wait of a day or less keeps its move; a wait
// beyond a year is absent, as before.
func TestReadWaitBound(t *testing.T) {
	sec := int64(day366 / time.Second)
	forms := []struct {
		name string
		in   func(sec int64) errkind.Outcome
	}{
		{"kind object", func(s int64) errkind.Outcome {
			return errkind.Outcome{IsError: true, Text: fmt.Sprintf(`{"kind":"rate_limited","retryAfterSeconds":%d}`, s)}
		}},
		{"code object", func(s int64) errkind.Outcome {
			return errkind.Outcome{IsError: true, Text: fmt.Sprintf(`{"error":"slow down","code":"rate_limited","retry_after_secs":%d}`, s)}
		}},
		{"prose", func(s int64) errkind.Outcome {
			return errkind.Outcome{IsError: true, Text: fmt.Sprintf("Too many requests: retry after %d seconds", s)}
		}},
		{"mcperr's own prose", func(s int64) errkind.Outcome {
			return errkind.Outcome{IsError: true, Text: fmt.Sprintf("Rate limited: retry after %d seconds.", s)}
		}},
		{"JSON-RPC data", func(s int64) errkind.Outcome {
			return errkind.Outcome{RPCCode: errkind.ImplementationDefined, Message: "slow down", Data: json.RawMessage(fmt.Sprintf(`{"code":"rate_limited","retry_after":%d}`, s))}
		}},
		{"kind object in JSON-RPC data", func(s int64) errkind.Outcome {
			return errkind.Outcome{RPCCode: errkind.ImplementationDefined, Message: "m", Data: json.RawMessage(fmt.Sprintf(`{"kind":"unavailable","retryAfterSeconds":%d}`, s))}
		}},
	}
	for _, f := range forms {
		for _, tt := range []struct {
			sec     int64
			move    errkind.Move
			hasWait bool
		}{
			{sec, errkind.Stop, true},
			{86400, errkind.WaitThenRetry, true},
			{sec + 86400, errkind.WaitThenRetry, false},
		} {
			r := errkind.Read(f.in(tt.sec))
			want := time.Duration(0)
			if tt.hasWait {
				want = time.Duration(tt.sec) * time.Second
			}
			if r.Move != tt.move || r.HasWait != tt.hasWait || r.Wait != want {
				t.Errorf("%s, %ds: %s, wait %v (has %v); want %s, wait %v (has %v)", f.name, tt.sec, r.Move, r.Wait, r.HasWait, tt.move, want, tt.hasWait)
			}
		}
	}
}

// TestReadArgsSamePath: one fault, in each SDK's words, gives one path in
// Reading.Args: the property's own path, names joined by ".", indexes as
// "[n]".
func TestReadArgsSamePath(t *testing.T) {
	tests := []struct {
		name string
		want []string
		ins  []errkind.Outcome
	}{
		{"an unknown key inside filter", []string{"filter.lang"}, []errkind.Outcome{
			{IsError: true, Text: frame + `search: Unrecognized key: "lang" at filter`},                                                                // TypeScript 1.3x (zod 4)
			{IsError: true, Text: frame + `search: Unrecognized key(s) in object: 'lang' at filter`},                                                   // TypeScript 1.3x (zod 3)
			{IsError: true, Text: `Input validation error: Invalid arguments for tool search: filter: Unrecognized key: "lang"`},                       // 2.x
			{IsError: true, Text: `validating "arguments": validating root: validating /properties/filter: unexpected additional properties ["lang"]`}, // go-sdk
			{RPCCode: errkind.InvalidParams, Message: "Unknown parameter 'filter.lang'.", Data: json.RawMessage(`{"code":"unknown_parameter"}`)},       // mcperr's hint
			{IsError: true, Text: `{"kind":"invalid_arguments","message":"m","details":{"pointer":"/filter/lang"}}`},                                   // a kind object
		}},
		{"a wrong item of tags", []string{"tags[1]"}, []errkind.Outcome{
			{IsError: true, Text: frame + "t: Expected string, received number at tags[1]"},
			{IsError: true, Text: "Input validation error: Invalid arguments for tool t: tags.1: Invalid input: expected string, received number"},
			{IsError: true, Text: "input schema validation failed: /tags/1: &{Got:number Want:[string]}"},
			{IsError: true, Text: "Error executing tool t: 1 validation error for tArguments\ntags.1\n  Input should be a valid string [type=string_type, input_value=7, input_type=int]"},
			{IsError: true, Text: "Tool (t) input validation failed: Validation failed: JSON schema validation errors: [$.tags[1]: integer found, string expected]"},
			{RPCCode: errkind.InvalidParams, Message: "Invalid parameters for tool 't': Property '/tags/1': Invalid type. Expected `string`, but received `integer`."},
			{IsError: true, Text: `{"kind":"invalid_arguments","message":"m","details":{"field":"tags.1"}}`},
		}},
	}
	for _, tt := range tests {
		for _, in := range tt.ins {
			r := errkind.Read(in)
			if d := cmp.Diff(tt.want, r.Args); d != "" || r.Move != errkind.FixArgument {
				t.Errorf("%s: %+v read as %s %v (-want +got):\n%s", tt.name, in, r.Move, r.Args, d)
			}
		}
	}
}

// TestReadDetailsArgs: a kind object's details name the arguments at fault
// as a field, a pointer, a path or a list of fields.
func TestReadDetailsArgs(t *testing.T) {
	for _, tt := range []struct {
		details string
		want    []string
	}{
		{`{"field":"query"}`, []string{"query"}},
		{`{"pointer":"/filter/window~1hours"}`, []string{"filter.window/hours"}},
		{`{"path":"items.0.id"}`, []string{"items[0].id"}},
		{`{"fields":["a","#/b/c"]}`, []string{"a", "b.c"}},
		{`{"parameter":"limit","field":"limit"}`, []string{"limit"}},
		{`{"id":7}`, nil},
		{`"a string"`, nil},
	} {
		r := errkind.Read(errkind.Outcome{IsError: true, Text: `{"kind":"invalid_arguments","message":"m","details":` + tt.details + `}`})
		if d := cmp.Diff(tt.want, r.Args, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("details %s (-want +got):\n%s", tt.details, d)
		}
	}
}

// TestReadHintDialect: mcperr's own hint-dialect refusals name their
// arguments in Args, whether they come as JSON-RPC errors or as mcpgo's
// fallback (the JSON-RPC error object as a result's text).
func TestReadHintDialect(t *testing.T) {
	for _, tt := range []struct {
		msg, code string
		want      []string
	}{
		{"Unknown parameter 'idd'. Did you mean 'id'?", "unknown_parameter", []string{"idd"}},
		{"Missing required parameter 'query'.", "invalid_parameter", []string{"query"}},
		{"Invalid value for 'limit': must be at most 10.", "invalid_parameter", []string{"limit"}},
		{"Unknown parameter 'a'. Unknown parameter 'b'. Missing required parameter 'c'.", "unknown_parameter", []string{"a", "b", "c"}},
	} {
		data := `{"code":"` + tt.code + `"}`
		rpc := errkind.Read(errkind.Outcome{RPCCode: errkind.InvalidParams, Message: tt.msg, Data: json.RawMessage(data)})
		obj, _ := json.Marshal(map[string]any{"code": -32602, "message": tt.msg, "data": json.RawMessage(data)})
		text := errkind.Read(errkind.Outcome{IsError: true, Text: string(obj)})
		for _, r := range []errkind.Reading{rpc, text} {
			if d := cmp.Diff(tt.want, r.Args); d != "" || r.Move != errkind.FixArgument || r.Code != tt.code {
				t.Errorf("%q as %s: %s %s code %q (-want +got args):\n%s", tt.msg, r.Form, r.Kind, r.Move, r.Code, d)
			}
		}
		if text.Form != errkind.FormCodeObject {
			t.Errorf("%q: the object as a text read as %s, want %s", tt.msg, text.Form, errkind.FormCodeObject)
		}
	}
}

// TestReadMayHaveActed: a network_error whose kind object says the call
// may have acted (a write that timed out after it was sent) is not
// retry_safe: the agent reads back first. The mark is "mayHaveActed": true,
// in the object or in its details.
func TestReadMayHaveActed(t *testing.T) {
	for _, tt := range []struct {
		text string
		want errkind.Move
	}{
		{`{"kind":"network_error","message":"timeout"}`, errkind.RetrySafe},
		{`{"kind":"network_error","message":"timeout","mayHaveActed":true}`, errkind.RereadThenRetry},
		{`{"kind":"network_error","message":"timeout","details":{"mayHaveActed":true}}`, errkind.RereadThenRetry},
		{`{"kind":"network_error","message":"timeout","mayHaveActed":false}`, errkind.RetrySafe},
		{`{"kind":"not_found","message":"gone","mayHaveActed":true}`, errkind.TryAnotherID},
		// envelope's shape (branch errorof): the kind is conflict already.
		{`{"kind":"conflict","message":"timeout; the POST request was sent and may have acted: read the resource back before retrying","details":{"mayHaveActed":true,"method":"POST","failure":"network_error"}}`, errkind.RereadThenRetry},
	} {
		if r := errkind.Read(errkind.Outcome{IsError: true, Text: tt.text}); r.Move != tt.want {
			t.Errorf("%s: %s, want %s", tt.text, r.Move, tt.want)
		}
	}
}

// TestReadPlainServerMisreadings are the newcomer's misreadings of issue
// 28 (a plain server without mcperr): prose carrying a status, mcp-go's own
// required-argument text, -32022 and a -32601 for task augmentation, the
// client's own timeout. Each failed before.
func TestReadPlainServerMisreadings(t *testing.T) {
	type w struct {
		Kind errkind.Kind
		Move errkind.Move
		Args []string
		Wait time.Duration
	}
	for _, tt := range []struct {
		name string
		in   errkind.Outcome
		want w
	}{
		{"prose with a status and a body", errkind.Outcome{IsError: true, Text: `upstream returned 429: {"error":"rate limited","retry_after":7}`}, w{errkind.RateLimited, errkind.WaitThenRetry, nil, 7 * time.Second}},
		{"rate limit in words", errkind.Outcome{IsError: true, Text: "Rate limit exceeded"}, w{errkind.RateLimited, errkind.WaitThenRetry, nil, 0}},
		{"a wait in words", errkind.Outcome{IsError: true, Text: "Too busy, try again in 2 minutes"}, w{errkind.Unavailable, errkind.WaitThenRetry, nil, 2 * time.Minute}},
		{"a status in a Go error, code 0", errkind.Outcome{Message: "GET https://api.example.com/v1/x: status 503"}, w{errkind.Unavailable, errkind.WaitThenRetry, nil, 0}},
		{"mcp-go's required argument", errkind.Outcome{IsError: true, Text: `required argument "id" not found`}, w{errkind.InvalidArguments, errkind.FixArgument, []string{"id"}, 0}},
		{"-32022 with data.supported", errkind.Outcome{RPCCode: errkind.UnsupportedVersion, Message: "Unsupported protocol version: 1900-01-01", Data: json.RawMessage(`{"supported":["2026-07-28"]}`)}, w{errkind.InvalidArguments, errkind.RetrySafe, nil, 0}},
		{"-32601, task augmentation", errkind.Outcome{RPCCode: errkind.MethodNotFound, Message: "Tool render requires task augmentation (taskSupport: 'required')"}, w{errkind.InvalidArguments, errkind.Stop, nil, 0}},
		{"the client's context deadline", errkind.Outcome{IsError: true, Text: `calling "tools/call": context deadline exceeded`}, w{errkind.NetworkError, errkind.RetrySafe, nil, 0}},
		{"the TypeScript client's -32001", errkind.Outcome{RPCCode: -32001, Message: "MCP error -32001: Request timed out", Data: json.RawMessage(`{"timeout":200}`)}, w{errkind.NetworkError, errkind.RetrySafe, nil, 0}},
		{"the Python client's 408", errkind.Outcome{RPCCode: 408, Message: "Timed out while waiting for response to CallToolRequest. Waited 5.0 seconds."}, w{errkind.NetworkError, errkind.RetrySafe, nil, 0}},
		{"a cancelled call", errkind.Outcome{IsError: true, Text: "context canceled"}, w{errkind.NetworkError, errkind.RetrySafe, nil, 0}},
	} {
		r := errkind.Read(tt.in)
		if d := cmp.Diff(tt.want, w{r.Kind, r.Move, r.Args, r.Wait}, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s: (-want +got)\n%s", tt.name, d)
		}
	}
	r := errkind.Read(errkind.Outcome{RPCCode: errkind.UnsupportedVersion, Message: "m", Data: json.RawMessage(`{"supported":["2026-07-28","2025-11-25"]}`)})
	if d := cmp.Diff([]string{"2026-07-28", "2025-11-25"}, r.Supported); d != "" {
		t.Errorf("Supported (-want +got):\n%s", d)
	}
}

// TestReadNeverData: no failure text reads as data, whatever it says.
func TestReadNeverData(t *testing.T) {
	for _, text := range []string{"", "ok", `{"traces":[]}`, "200 OK", "success", `{"kind":""}`, `{"code":-32000,"message":"x"}`} {
		if r := errkind.Read(errkind.Outcome{IsError: true, Text: text}); r.Form == errkind.FormData || r.Move == "" {
			t.Errorf("failure %q read as %s, move %q", text, r.Form, r.Move)
		}
	}
}

// TestReadSuccessAllocs: a success allocates nothing, whatever its size.
func TestReadSuccessAllocs(t *testing.T) {
	big := `{"items":[` + strings.Repeat(`{"id":"a","name":"required property 'x' not found"},`, 2000) + `{}]}`
	if n := testing.AllocsPerRun(100, func() { errkind.Read(errkind.Outcome{Text: big}) }); n != 0 {
		t.Errorf("a success allocated %v times", n)
	}
}

// generalTexts are failure texts whose general reading does the most work
// per byte: every phrase repeated, quoted names, pointers, JSONPaths, loc
// lines, statuses and waits.
func generalTexts(n int) []string {
	return []string{
		strings.Repeat("required property 'a' not found, ", n),
		strings.Repeat("$.", n) + ": x",
		strings.Repeat("tool ", n) + "not found",
		strings.Repeat("status 4291 ", n),
		strings.Repeat("retry after retry in ", n),
		"1 validation error for tArguments\n" + strings.Repeat("a.b\n  Field required\n", n),
		strings.Repeat("Missing required arguments: a, b, c; ", n),
		strings.Repeat("'x' is a required property", n),
		strings.Repeat("`", n) + " is a required property",
		strings.Repeat("Unknown parameter '", n),
	}
}

// TestReadGeneralLinear: the general readings are linear in the text: 8
// reads of n bytes against one of 8n, for each of the costliest shapes,
// on the measuring thread's own CPU time.
func TestReadGeneralLinear(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("reads large inputs; the race detector's overhead makes the timing meaningless")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	small, large := generalTexts(4000), generalTexts(32000)
	for i := range small {
		measure := func(text string, reads int) time.Duration {
			return threadCPU(func() {
				for range reads {
					errkind.Read(errkind.Outcome{IsError: true, Text: text})
				}
			})
		}
		// Enough large reads (at most 16), and eight times as many small
		// ones, that both sides last about 80 ms, many ticks of the thread
		// CPU clock (4 ms on some kernels): one read of each measured 0 or
		// 4 ms and failed on the clock, not the reader. A shape whose read
		// costs 20 ms needs 4, not the 16 a cheap one does.
		reads := 16
		if one := measure(large[i], 1); one > 0 {
			reads = max(1, min(16, int(80*time.Millisecond/one)))
		}
		s, l := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
		for range 3 {
			s, l = min(s, measure(small[i], 8*reads)), min(l, measure(large[i], reads))
		}
		if ratio := float64(l) / float64(max(s, time.Duration(reads)*5*time.Millisecond/4)); ratio > 4 {
			t.Errorf("shape %d: one read of %d bytes cost %.2f times eight of %d (%v, %v, %d reads)", i, len(large[i]), ratio, len(small[i]), l, s, reads)
		}
	}
}

// TestReadFalseFriends: words the general readings look for, in texts that
// do not mean them, are not read as them: a cancelled order is no
// cancelled call, a property tax is no property, a handler's own words are
// reported.
func TestReadFalseFriends(t *testing.T) {
	for _, tt := range []struct {
		text string
		kind errkind.Kind
		move errkind.Move
	}{
		{"Order 123 was cancelled by the customer", "", errkind.Report},
		{"The property tax API returned nothing", "", errkind.Report},
		{"Error executing tool forecast: No forecast for 'Atlantis'.", "", errkind.Report},
		{"build 4291 failed at step 404.5", "", errkind.Report},
		{"Gateway Timeout", errkind.Unavailable, errkind.WaitThenRetry},
		{"Invalid value for 'timeout': must be at most 10.", errkind.InvalidArguments, errkind.FixArgument},
		{"Error executing tool w: 1 validation error for WeatherData\nhumidity\n  Field required [type=missing]", "", errkind.Report},
	} {
		r := errkind.Read(errkind.Outcome{IsError: true, Text: tt.text})
		if r.Kind != tt.kind || r.Move != tt.move {
			t.Errorf("%q: %q %s, want %q %s", tt.text, r.Kind, r.Move, tt.kind, tt.move)
		}
	}
}
