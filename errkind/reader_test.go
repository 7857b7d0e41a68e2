package errkind_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcperr/mcperr/errkind"
)

// reading is the part of a Reading every dialect test compares.
type reading struct {
	Form    errkind.Form
	Kind    errkind.Kind
	Move    errkind.Move
	Wait    time.Duration
	HasWait bool
	Code    string
}

func short(r errkind.Reading) reading {
	return reading{r.Form, r.Kind, r.Move, r.Wait, r.HasWait, r.Code}
}

// credits is a server taxonomy with codes of its own (a credits API's) and
// a prose prefix, as a server declares them.
func credits() *errkind.Taxonomy {
	t := errkind.Standard().With(
		errkind.Rule{Code: "insufficient_credits", Kind: "insufficient_credits"},
		errkind.Rule{Code: "unknown_signal", Kind: "unknown_signal"},
		errkind.Rule{Text: "Unknown tool '", Kind: "unknown_tool"},
		errkind.Rule{Text: "Vulnetix returned HTTP *: the body is not the JSON", Kind: errkind.MalformedResponse},
		errkind.Rule{Text: "Vulnetix returned HTTP *: ", Kind: "upstream_status"},
		errkind.Rule{Text: "Not found in the Vulnetix VDB: ", Kind: errkind.NotFound},
	)
	t.Advice["insufficient_credits"] = errkind.Advice{Move: errkind.WaitThenRetry, Retryable: true}
	t.Advice["unknown_signal"] = errkind.Advice{Move: errkind.FixArgument}
	t.Advice["unknown_tool"] = errkind.Advice{Move: errkind.FixArgument}
	return t
}

// TestRead covers every dialect a client meets (issue 11, item 4): the
// kind object, the TS SDK's texts, flat code objects, JSON-RPC errors with
// and without data.code, and prose a taxonomy declares.
func TestRead(t *testing.T) {
	tests := []struct {
		name string
		tax  *errkind.Taxonomy
		in   errkind.Outcome
		want reading
	}{
		{"data", nil, errkind.Outcome{Text: `{"kind":"not_found"}`}, reading{Form: errkind.FormData}},
		{"kind object", nil, errkind.Outcome{IsError: true, Text: `{"kind":"not_found","code":"trace_not_found","message":"no trace"}`},
			reading{errkind.FormKindObject, errkind.NotFound, errkind.TryAnotherID, 0, false, "trace_not_found"}},
		{"kind object, rate limited", nil, errkind.Outcome{IsError: true, Text: `{"kind":"rate_limited","retryAfterSeconds":2,"limit":20,"remaining":0,"resetSeconds":1}`},
			reading{errkind.FormKindObject, errkind.RateLimited, errkind.WaitThenRetry, 2 * time.Second, true, ""}},
		{"kind object of a server's own kind, a wait beyond a day: stop", credits(), errkind.Outcome{IsError: true, Text: ` {"kind":"insufficient_credits","retryAfterSeconds":394200}`},
			reading{errkind.FormKindObject, "insufficient_credits", errkind.Stop, 394200 * time.Second, true, ""}},
		{"kind object of a server's own kind", credits(), errkind.Outcome{IsError: true, Text: ` {"kind":"insufficient_credits","retryAfterSeconds":3600}`},
			reading{errkind.FormKindObject, "insufficient_credits", errkind.WaitThenRetry, time.Hour, true, ""}},
		{"kind object with a fractional wait", nil, errkind.Outcome{IsError: true, Text: `{"kind":"unavailable","retryAfterSeconds":1.5}`},
			reading{errkind.FormKindObject, errkind.Unavailable, errkind.WaitThenRetry, 2 * time.Second, true, ""}},
		{"kind object with a wait beyond a year", nil, errkind.Outcome{IsError: true, Text: `{"kind":"rate_limited","retryAfterSeconds":9223372036854775807}`},
			reading{errkind.FormKindObject, errkind.RateLimited, errkind.WaitThenRetry, 0, false, ""}},
		{"kind object with a negative wait", nil, errkind.Outcome{IsError: true, Text: `{"kind":"rate_limited","retryAfterSeconds":-3}`},
			reading{errkind.FormKindObject, errkind.RateLimited, errkind.WaitThenRetry, 0, false, ""}},
		{"kind object without kind is classified", nil, errkind.Outcome{IsError: true, Text: `{"code":"internal_error","httpStatus":500}`},
			reading{errkind.FormCodeObject, errkind.ServerError, errkind.Report, 0, false, "internal_error"}},
		{"flat code object", nil, errkind.Outcome{IsError: true, Text: `{"error":"not found","code":"not_found","detail":"no story s-9999","retry_after_secs":3}`},
			reading{errkind.FormCodeObject, errkind.NotFound, errkind.TryAnotherID, 3 * time.Second, true, "not_found"}},
		{"flat code object of a server's own code", credits(), errkind.Outcome{IsError: true, Text: `{"error":"insufficient credits","code":"insufficient_credits","retry_after_secs":394200,"credits_remaining":0}`},
			reading{errkind.FormCodeObject, "insufficient_credits", errkind.Stop, 394200 * time.Second, true, "insufficient_credits"}},
		{"flat code object, code unknown to the standard", nil, errkind.Outcome{IsError: true, Text: `{"error":"watch limit reached","code":"watch_limit"}`},
			reading{errkind.FormCodeObject, errkind.ServerError, errkind.Report, 0, false, "watch_limit"}},
		{"Google envelope", nil, errkind.Outcome{IsError: true, Text: `{"error":{"code":404,"status":"NOT_FOUND","message":"no such bucket"}}`},
			reading{errkind.FormCodeObject, errkind.NotFound, errkind.TryAnotherID, 0, false, "NOT_FOUND"}},
		{"envelope with a numeric code of its own", nil, errkind.Outcome{IsError: true, Text: `{"error":{"code":20404,"message":"gone"},"status":404}`},
			reading{errkind.FormCodeObject, errkind.NotFound, errkind.TryAnotherID, 0, false, "20404"}},
		{"envelope with a type", nil, errkind.Outcome{IsError: true, Text: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
			reading{errkind.FormCodeObject, errkind.Unavailable, errkind.WaitThenRetry, 0, false, "overloaded_error"}},
		{"object that does not decode", nil, errkind.Outcome{IsError: true, Text: `{"kind":`},
			reading{Form: errkind.FormUnknown, Move: errkind.Report}},
		{"object of no known shape", nil, errkind.Outcome{IsError: true, Text: `{"a":1}`},
			reading{Form: errkind.FormUnknown, Move: errkind.Report}},

		{"TS validation text", nil, errkind.Outcome{IsError: true, Text: frame + "get_values: Too big: expected array to have <=8 items at path"},
			reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument}},
		{"TS size refusal", nil, errkind.Outcome{IsError: true, Text: "MCP error -32602: Invalid arguments for tool t: arguments contain more than the maximum of 5 elements"},
			reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument}},
		{"TS unknown tool", nil, errkind.Outcome{IsError: true, Text: "MCP error -32602: Tool nope not found"},
			reading{Form: errkind.FormUnknownTool, Kind: errkind.InvalidArguments, Move: errkind.FixArgument}},
		{"another MCP error text", nil, errkind.Outcome{IsError: true, Text: "MCP error -32603: boom"},
			reading{Form: errkind.FormMCPError, Kind: errkind.ServerError, Move: errkind.Report}},
		{"MCP error text with a bad code", nil, errkind.Outcome{IsError: true, Text: "MCP error x: boom"},
			reading{Form: errkind.FormUnknown, Move: errkind.Report}},

		{"JSON-RPC -32602 with data.code", nil, errkind.Outcome{RPCCode: errkind.InvalidParams, Message: "Unknown parameter 'langauge'. Did you mean 'language'?", Data: json.RawMessage(`{"code":"unknown_parameter"}`)},
			reading{errkind.FormRPCError, errkind.InvalidArguments, errkind.FixArgument, 0, false, "unknown_parameter"}},
		{"JSON-RPC -32602 with a server's own data.code", credits(), errkind.Outcome{RPCCode: errkind.InvalidParams, Message: "Unknown signal 'sentimnt'", Data: json.RawMessage(`{"code":"unknown_signal"}`)},
			reading{errkind.FormRPCError, "unknown_signal", errkind.FixArgument, 0, false, "unknown_signal"}},
		{"JSON-RPC with a data.code nobody knows", nil, errkind.Outcome{RPCCode: errkind.InvalidParams, Message: "x", Data: json.RawMessage(`{"code":"brand_new"}`)},
			reading{errkind.FormRPCError, errkind.InvalidArguments, errkind.FixArgument, 0, false, "brand_new"}},
		{"JSON-RPC -32602 without data", nil, errkind.Outcome{RPCCode: errkind.InvalidParams, Message: "Invalid params"},
			reading{Form: errkind.FormRPCError, Kind: errkind.InvalidArguments, Move: errkind.FixArgument}},
		{"JSON-RPC -32601", nil, errkind.Outcome{RPCCode: errkind.MethodNotFound, Message: "Unknown tool 'search_storys'."},
			reading{Form: errkind.FormRPCError, Kind: errkind.InvalidArguments, Move: errkind.FixArgument}},
		{"JSON-RPC -32601, a server's prose rule", credits(), errkind.Outcome{RPCCode: errkind.MethodNotFound, Message: "Unknown tool 'search_storys'. The tools are: a, b."},
			reading{Form: errkind.FormRPCError, Kind: "unknown_tool", Move: errkind.FixArgument}},
		{"JSON-RPC with a wait in data", nil, errkind.Outcome{RPCCode: errkind.ImplementationDefined, Message: "slow down", Data: json.RawMessage(`{"code":"rate_limited","retry_after_secs":5}`)},
			reading{errkind.FormRPCError, errkind.RateLimited, errkind.WaitThenRetry, 5 * time.Second, true, "rate_limited"}},
		{"JSON-RPC -32603", nil, errkind.Outcome{RPCCode: errkind.InternalError, Message: "boom", Data: json.RawMessage(`"text data"`)},
			reading{Form: errkind.FormRPCError, Kind: errkind.ServerError, Move: errkind.Report}},
		{"JSON-RPC -32021", nil, errkind.Outcome{RPCCode: errkind.MissingCapability, Message: "declare sampling"},
			reading{Form: errkind.FormRPCError, Kind: errkind.InvalidArguments, Move: errkind.Stop}},

		{"prose a taxonomy declares", credits(), errkind.Outcome{IsError: true, Text: "Not found in the Vulnetix VDB: CVE-1. Try an alias."},
			reading{Form: errkind.FormProse, Kind: errkind.NotFound, Move: errkind.TryAnotherID}},
		{"prose with a wildcard, the specific rule first", credits(), errkind.Outcome{IsError: true, Text: "Vulnetix returned HTTP 200: the body is not the JSON this tool expects (x)."},
			reading{Form: errkind.FormProse, Kind: errkind.MalformedResponse, Move: errkind.Report}},
		{"prose with a wildcard, the general rule", credits(), errkind.Outcome{IsError: true, Text: "Vulnetix returned HTTP 500: Trend store unavailable."},
			reading{Form: errkind.FormProse, Kind: "upstream_status", Move: errkind.Report}},
		{"prose nobody declares", nil, errkind.Outcome{IsError: true, Text: "Not found in the Vulnetix VDB: CVE-1"},
			reading{Form: errkind.FormUnknown, Move: errkind.Report}},
		{"empty failure", nil, errkind.Outcome{IsError: true},
			reading{Form: errkind.FormUnknown, Move: errkind.Report}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.tax.Read(tt.in)
			if diff := cmp.Diff(tt.want, short(got)); diff != "" {
				t.Errorf("Read (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadDetails: what each dialect carries besides kind, move and wait.
func TestReadDetails(t *testing.T) {
	r := errkind.Read(errkind.Outcome{IsError: true, Text: frame + "t: Too big: expected number to be <=5 at limit\nUnrecognized keys: \"a\", \"b\""})
	want := errkind.Reading{Form: errkind.FormInvalidArguments, Kind: errkind.InvalidArguments, Move: errkind.FixArgument,
		RPCCode: errkind.InvalidParams, Tool: "t",
		Issues: []errkind.Issue{{Message: "Too big: expected number to be <=5", Path: "limit"}, {Message: `Unrecognized keys: "a", "b"`, Keys: []string{"a", "b"}}},
		Args:   []string{"limit", "a", "b"}}
	if diff := cmp.Diff(want, r, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("validation text (-want +got):\n%s", diff)
	}
	r = errkind.Read(errkind.Outcome{IsError: true, Text: `{"error":"insufficient credits","code":"insufficient_credits","detail":"up to 3 credits","retry_after_secs":394200}`})
	wantObj := &errkind.Object{Code: "insufficient_credits", Message: "insufficient credits", Details: json.RawMessage(`"up to 3 credits"`), RetryAfterSeconds: i64(394200)}
	if diff := cmp.Diff(wantObj, r.Object); diff != "" || r.Message != "insufficient credits" {
		t.Errorf("flat object (-want +got):\n%s\nmessage %q", diff, r.Message)
	}
	r = errkind.Read(errkind.Outcome{RPCCode: errkind.InvalidParams, Message: "m"})
	if r.RPCCode != errkind.InvalidParams || r.Message != "m" {
		t.Errorf("JSON-RPC error: %+v", r)
	}
	// The TypeScript SDK's words as a JSON-RPC error's message.
	r = errkind.Read(errkind.Outcome{RPCCode: errkind.InvalidParams, Message: "Tool nope not found"})
	if r.Tool != "nope" || r.Kind != errkind.InvalidArguments || r.Move != errkind.FixArgument {
		t.Errorf("unknown tool as a JSON-RPC error: %+v", r)
	}
	r = errkind.Read(errkind.Outcome{RPCCode: errkind.InvalidParams, Message: "Input validation error: Invalid arguments for tool t: Invalid input at x"})
	if diff := cmp.Diff([]string{"x"}, r.Args); diff != "" || r.Tool != "t" || r.Form != errkind.FormRPCError {
		t.Errorf("validation as a JSON-RPC error: %+v (-want +got args):\n%s", r, diff)
	}
}

// manyIssues is a validation text of n issue lines, each naming a distinct
// argument: the input that made the old parser quadratic.
func manyIssues(n int) string {
	var b strings.Builder
	b.WriteString(frame + "t: ")
	for i := range n {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "Invalid input at arg%d", i)
	}
	return b.String()
}

// TestReadLinear: reading n issue lines, each naming another argument (the
// input that made the old reader quadratic: it compared every argument with
// each one before it), costs work in proportion to n, and every line is
// read. The work is counted, not compared between two timings, which a
// loaded machine's caches skewed (linear read 1.5 to 6.66 times apart):
//
//   - the bytes allocated grow with the input: per input byte, a read of
//     8n lines allocates at most 1.25 times what a read of n lines does (a
//     reader copying what it has read so far at each line allocates n
//     times more);
//   - one read of 100,000 lines costs under 2 s of the reading thread's own
//     CPU: a linear reader needs about 60 ms here (the bound leaves it 30
//     times that), the quadratic one 12 s.
//
// Allocation counts nothing a reader does without allocating, hence the
// budget; it is CPU time, the thread's own, so other work on the machine
// does not count, and its margin is wide on both sides.
func TestReadLinear(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("reads a large input; the race detector's overhead is not the reader's work")
	}
	if r := checkLinear(t, manyIssues, 10_000, 100_000); len(r.Issues) != 100_000 || len(r.Args) != len(r.Issues) {
		t.Errorf("%d issues, %d args read of 100,000 lines, want one each per line", len(r.Issues), len(r.Args))
	}
}

// checkLinear checks what TestReadLinear states of the texts gen makes:
// the bytes allocated reading gen(n) and gen(8n), and the CPU time of
// reading gen(budget), whose Reading it returns. The bound of 2 s fits the
// texts of TestReadLinear and TestReadLinear2, whose linear reading costs
// 10 to 120 ms here at the budgets they pass.
func checkLinear(t *testing.T, gen func(n int) string, n, budget int) errkind.Reading {
	t.Helper()
	read := func(text string) errkind.Reading { return errkind.Read(errkind.Outcome{IsError: true, Text: text}) }
	perByte := func(text string) float64 {
		read(text) // once first: what a first call sets up is not the text's
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		read(text)
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(text))
	}
	small, large := perByte(gen(n)), perByte(gen(8*n))
	t.Logf("bytes allocated per input byte: %.2f at n=%d, %.2f at n=%d", small, n, large, 8*n)
	if large > 1.25*small {
		t.Errorf("reading gen(%d) allocated %.2f bytes per input byte, gen(%d) %.2f: more than 1.25 times", 8*n, large, n, small)
	}
	text := gen(budget)
	var r errkind.Reading
	cpu := threadCPU(func() { r = read(text) })
	t.Logf("n=%d: %v of CPU", budget, cpu)
	if cpu > 2*time.Second {
		t.Errorf("one read of gen(%d) cost %v of CPU, want well under 2s (a linear reader: 10 to 120 ms here)", budget, cpu)
	}
	return r
}

// BenchmarkReadKindObject reads a kind object (goal: under 2 us). Besides
// ns/op it reports cpu-ns/op, the measuring thread's own CPU time, which a
// busy machine does not inflate.
func BenchmarkReadKindObject(b *testing.B) {
	benchRead(b, errkind.Outcome{IsError: true, Text: `{"kind":"not_found","code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}`})
}

// BenchmarkUnmarshalObject is the anchor of BenchmarkReadKindObject: the
// same text decoded by json.Unmarshal into an Object, which reads no kind,
// move or wait.
func BenchmarkUnmarshalObject(b *testing.B) {
	text := []byte(`{"kind":"not_found","code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}`)
	b.ReportAllocs()
	n := 0
	cpu := threadCPU(func() {
		for b.Loop() {
			var o errkind.Object
			if json.Unmarshal(text, &o) != nil {
				b.Fatal("does not decode")
			}
			n++
		}
	})
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
}

func BenchmarkReadRateLimited(b *testing.B) {
	benchRead(b, errkind.Outcome{IsError: true, Text: `{"kind":"rate_limited","retryAfterSeconds":1,"limit":20,"remaining":0,"resetSeconds":1}`})
}

func BenchmarkReadRPCError(b *testing.B) {
	benchRead(b, errkind.Outcome{RPCCode: errkind.InvalidParams, Message: "Unknown parameter 'langauge'. Did you mean 'language'?", Data: json.RawMessage(`{"code":"unknown_parameter"}`)})
}

func benchRead(b *testing.B, o errkind.Outcome) {
	b.ReportAllocs()
	n := 0
	cpu := threadCPU(func() {
		for b.Loop() {
			errkind.Read(o)
			n++
		}
	})
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
}

// BenchmarkReadIssues reads a validation text of 100,000 lines; ns/op over
// 100,000 is the cost of a line.
func BenchmarkReadIssues(b *testing.B) {
	o := errkind.Outcome{IsError: true, Text: manyIssues(100_000)}
	b.SetBytes(int64(len(o.Text)))
	b.ReportAllocs()
	for b.Loop() {
		errkind.Read(o)
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range []string{
		frame + "get_values: Too big: expected array to have <=8 items at path",
		"MCP error -32602: Tool x not found",
		"MCP error -32602: Invalid arguments for tool t: too many",
		`{"kind":"rate_limited","retryAfterSeconds":1.5}`,
		`{"error":"x","code":"not_found","retry_after_secs":1e400}`,
		`{"error":{"code":404,"status":"NOT_FOUND"}}`,
		"Not found in the Vulnetix VDB: x",
		"Input validation error: Invalid arguments for tool t: a.0: x, b: y, Unrecognized key: \"c\"",
		"Invalid arguments for tool t: [{\"path\":[\"a\",1],\"message\":\"m\",\"keys\":[\"k\"]}]",
		"MCP error -32602: MCP error -32602: Tool x not found",
		`validating "arguments": validating root: validating /properties/a: required: missing properties: ["b"]`,
		"input schema validation failed: /a/0: &{Got:string Want:[integer]}; <root>: &{Missing:[q]}",
		`unknown tool "x"`,
		"tool 'x' not found: tool not found",
		"Streamable HTTP error: Error POSTing to endpoint: " + `{"jsonrpc":"2.0","id":0,"error":{"code":-32000,"message":"m","data":{"kind":"rate_limited","retryAfterSeconds":5}}}`,
		"Error POSTing to endpoint (HTTP 429): x",
		`calling "tools/call": rejected by transport: sending "tools/call": Too Many Requests`,
		"transport error: request failed with status 503: x",
		"Rate limited: retry after 5 seconds.",
		"Error executing tool add: 1 validation error for addArguments\nb\n  Field required [type=missing]",
		"Input validation error: 'b' is a required property",
		"Tool (t) input validation failed: Validation failed: JSON schema validation errors: [$.a.b: string found, integer expected]",
		"failed to deserialize parameters: unknown field `c`, expected `a` or `b`",
		"Missing required arguments: a, b",
		"Invalid argument [a] - unable to convert value",
		"Invalid parameters for tool 't': Property '/a/0': Invalid type.",
		"Unknown tool: 'x'",
		"Tool x not found",
		`upstream returned 429: {"retry_after":3}`,
		"Rate limit exceeded. Try again in 2 minutes.",
		`calling "tools/call": context deadline exceeded`,
		`{"code":-32602,"message":"Unknown parameter 'idd'.","data":{"code":"unknown_parameter"}}`,
		`{"kind":"invalid_arguments","details":{"fields":["a","/b/c"],"mayHaveActed":true}}`,
		"[{\"path\":[\"a\"],\"message\":\"Required\"}]",
		"",
	} {
		f.Add(s, 0, []byte(nil))
		f.Add(s, -32602, []byte(`{"code":"unknown_parameter","retry_after":3}`))
	}
	tax := credits()
	f.Fuzz(func(t *testing.T, text string, code int, data []byte) {
		for _, o := range []errkind.Outcome{
			{IsError: true, Text: text},
			{RPCCode: errkind.RPCCode(code), Message: text, Data: data},
		} {
			rpc := o.RPCCode != 0 || o.Message != "" || len(o.Data) > 0
			for _, tx := range []*errkind.Taxonomy{nil, tax} {
				r := tx.Read(o)
				if r.Form == "" || r.Move == "" && (rpc || o.IsError) {
					t.Fatalf("no form or move: %+v", r)
				}
				if r.Wait < 0 || r.Wait > 366*24*time.Hour || (r.Wait != 0 && !r.HasWait) {
					t.Fatalf("wait %v (has %v)", r.Wait, r.HasWait)
				}
				if o.IsError && r.Form == errkind.FormData {
					t.Fatalf("a failure read as data: %+v", r)
				}
				if rpc != (r.Form == errkind.FormRPCError) {
					t.Fatalf("%+v read as %s", o, r.Form)
				}
				for _, a := range r.Args {
					if a == "" {
						t.Fatalf("empty argument name")
					}
				}
			}
		}
	})
}
