package schemaerr

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the captures in testdata/zod")

// capture is one entry of a cases.json written by testdata/zod/drive.mjs.
type capture struct {
	Case     string `json:"case"`
	Kind     string `json:"kind"`
	Text     string `json:"text"`
	Request  string `json:"request"`
	Response string `json:"response"`
}

// goldenCase is one line of testdata/golden/*.jsonl: a tools/call and the SDK's answer.
type goldenCase struct {
	Name string          `json:"name"`
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"arguments,omitempty"`
	// Result is "ok", "isError" (Text holds the text), "rpcError" (a JSON-RPC error for a tool
	// the server does not have; Text holds its message) or "skip" (a protocol-level error that
	// never reaches a tool's validator; Text says why).
	Result string `json:"result"`
	Text   string `json:"text,omitempty"`
}

// convertCaptures turns a drive.mjs cases.json into the tools' schemas (from tools/list) and
// golden cases.
func convertCaptures(t testing.TB, raw []byte) (tools map[string]json.RawMessage, cases []goldenCase) {
	t.Helper()
	var caps []capture
	if err := json.Unmarshal(raw, &caps); err != nil {
		t.Fatal(err)
	}
	tools = map[string]json.RawMessage{}
	for _, c := range caps {
		switch c.Case {
		case "initialize":
			continue
		case "tools/list":
			var resp struct {
				Result struct {
					Tools []struct {
						Name        string          `json:"name"`
						InputSchema json.RawMessage `json:"inputSchema"`
					} `json:"tools"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(c.Response), &resp); err != nil {
				t.Fatal(err)
			}
			for _, tl := range resp.Result.Tools {
				tools[tl.Name] = tl.InputSchema
			}
			continue
		}
		var req struct {
			Params *struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		if err := json.Unmarshal([]byte(c.Request), &req); err != nil {
			t.Fatal(err)
		}
		g := goldenCase{Name: c.Case}
		if req.Params != nil {
			g.Tool, g.Args = req.Params.Name, req.Params.Arguments
		}
		switch {
		case c.Kind == "result ok":
			g.Result = "ok"
		case c.Kind == "result isError:true":
			g.Result, g.Text = "isError", c.Text
		case c.Kind == "JSON-RPC error -32602" && c.Text == "Tool "+g.Tool+" not found":
			g.Result, g.Text = "rpcError", c.Text
		default:
			g.Result = "skip"
			g.Text = "the SDK's protocol layer refuses this call before any tool validator sees it"
		}
		cases = append(cases, g)
	}
	return tools, cases
}

func writeGolden(t *testing.T, name string, tools map[string]json.RawMessage, cases []goldenCase) {
	t.Helper()
	dir := filepath.Join("testdata", "golden")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var tb bytes.Buffer
	enc := json.NewEncoder(&tb)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(tools); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".tools.json"), tb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var cb bytes.Buffer
	enc = json.NewEncoder(&cb)
	enc.SetEscapeHTML(false)
	for _, c := range cases {
		if err := enc.Encode(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, name+".jsonl"), cb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readGolden(t testing.TB, name string) (map[string]json.RawMessage, []goldenCase) {
	t.Helper()
	dir := filepath.Join("testdata", "golden")
	raw, err := os.ReadFile(filepath.Join(dir, name+".tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tools map[string]json.RawMessage
	if err := json.Unmarshal(raw, &tools); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []goldenCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c goldenCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return tools, cases
}

// goldenSets are the captures kept under testdata/zod: the reference's 73 cases and the derived
// corner cases of testdata/zod/derived.mjs, and under testdata/zod2 the same scripts' captures
// from the TypeScript SDK 2.x.
var goldenSets = []struct {
	name, capture string
	sdk           *sdk
}{
	{"zod", "cases.json", sdk1},
	{"derived", "derived-cases.json", sdk1},
	{"zod2", "cases.json", sdk2},
	{"derived2", "derived-cases.json", sdk2},
}

func TestUpdateGolden(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite testdata/golden from testdata/zod")
	}
	for _, set := range goldenSets {
		raw, err := os.ReadFile(filepath.Join("testdata", set.sdk.dir, set.capture))
		if err != nil {
			t.Fatal(err)
		}
		tools, cases := convertCaptures(t, raw)
		writeGolden(t, set.name, tools, cases)
	}
}

// answer is what schemaerr, in sdk's dialect, says to a golden case, in the golden's terms.
func answer(t testing.TB, schemas map[string]*Schema, c goldenCase, sdk *sdk) goldenCase {
	t.Helper()
	got := goldenCase{Name: c.Name, Tool: c.Tool, Args: c.Args}
	s, ok := schemas[c.Tool]
	if ok && strings.HasPrefix(c.Name, "maxToolInputElements 5") {
		// captured from a server started with maxToolInputElements: 5
		limited := *s.root
		s = &Schema{root: &limited, limits: Bounds{MaxElements: 5}}
	}
	if !ok {
		got.Result, got.Text = sdk.unknown(c.Tool)
		return got
	}
	issues := s.Validate(c.Args)
	if issues == nil {
		got.Result = "ok"
		return got
	}
	got.Result, got.Text = "isError", sdk.text(c.Tool, issues)
	return got
}

func compileAll(t testing.TB, tools map[string]json.RawMessage) map[string]*Schema {
	t.Helper()
	schemas := map[string]*Schema{}
	for name, raw := range tools {
		s, err := Compile(raw, nil)
		if err != nil {
			t.Fatalf("compile %s: %v", name, err)
		}
		schemas[name] = s
	}
	return schemas
}

// TestGolden checks every captured case byte for byte.
func TestGolden(t *testing.T) {
	for _, set := range goldenSets {
		t.Run(set.name, func(t *testing.T) {
			tools, cases := readGolden(t, set.name)
			schemas := compileAll(t, tools)
			n := 0
			for _, c := range cases {
				if c.Result == "skip" {
					continue
				}
				n++
				got := answer(t, schemas, c, set.sdk)
				if diff := cmp.Diff(c, got); diff != "" {
					t.Errorf("%s: %s (-sdk +schemaerr):\n%s", c.Name, c.Args, diff)
				}
			}
			if n < 20 {
				t.Errorf("only %d cases checked", n)
			}
		})
	}
}

// TestGoldenIsCapture checks that the golden files are the conversion of the captures, so
// neither is edited alone.
func TestGoldenIsCapture(t *testing.T) {
	for _, set := range goldenSets {
		raw, err := os.ReadFile(filepath.Join("testdata", set.sdk.dir, set.capture))
		if err != nil {
			t.Fatal(err)
		}
		wantTools, wantCases := convertCaptures(t, raw)
		tools, cases := readGolden(t, set.name)
		if diff := cmp.Diff(normTools(t, wantTools), normTools(t, tools)); diff != "" {
			t.Errorf("%s tools: run go test -run TestUpdateGolden -update (-capture +golden):\n%s", set.name, diff)
		}
		if diff := cmp.Diff(wantCases, cases, cmp.Comparer(jsonEqual)); diff != "" {
			t.Errorf("%s cases: run go test -run TestUpdateGolden -update (-capture +golden):\n%s", set.name, diff)
		}
	}
}

func normTools(t testing.TB, tools map[string]json.RawMessage) map[string]any {
	out := map[string]any{}
	for k, v := range tools {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			t.Fatal(err)
		}
		out[k] = x
	}
	return out
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return cmp.Equal(x, y)
}

// TestSpecExamples checks the captured examples of the TypeScript dialect (the
// texts the package doc shows) and the endings of the Vexlo example's table.
func TestSpecExamples(t *testing.T) {
	tools, _ := readGolden(t, "zod")
	schemas := compileAll(t, tools)
	nine := `["1","2","3","4","5","6","7","8","9"]`
	tests := []struct {
		tool, args, want string
	}{
		{"vexlo_get_values", `{"path":["a"],"limit":101}`, "Too big: expected number to be <=100 at limit"},
		{"vexlo_get_values", `{"path":["a"],"limit":0}`, "Too small: expected number to be >=1 at limit"},
		{"vexlo_get_values", `{"path":["a"],"limit":1.5}`, "Invalid input: expected int, received number at limit"},
		{"vexlo_get_values", `{"path":["a"],"limit":"5"}`, "Invalid input: expected number, received string at limit"},
		{"vexlo_get_values", `{"path":` + nine + `}`, "Too big: expected array to have <=8 items at path"},
		{"vexlo_get_values", `{"path":["a","b",3]}`, "Invalid input: expected string, received number at path[2]"},
		{"vexlo_get_values", `{}`, "Invalid input: expected array, received undefined at path"},
		{"vexlo_get_values", `{"limit":101,"path":` + nine + `}`, "Too big: expected array to have <=8 items at path\nToo big: expected number to be <=100 at limit"},
		{"vexlo_search", `{"query":"ab"}`, "Too small: expected string to have >=3 characters at query"},
		{"vexlo_search", `{"query":"hello","order":"up"}`, `Invalid option: expected one of "asc"|"desc" at order`},
		{"vexlo_search", `{"query":"hello","environment":{"named":["a"],"unset":true}}`, "Invalid input at environment"},
		{"vexlo_search", `{"query":"hello","environment":"prod"}`, "Invalid input at environment"},
		{"vexlo_search", `{"query":"hello","environment":{"named":["a"],"foo":1}}`, `Unrecognized key: "foo" at environment`},
		{"vexlo_search", `{"query":"hello","filter":{"window":{"hours":200}}}`, "Too big: expected number to be <=168 at filter.window.hours"},
		{"vexlo_search", `{"query":"hello","tags":[]}`, "Too small: expected array to have >=1 items at tags"},
		{"vexlo_strict", `{"name":"n","foo":1}`, `Unrecognized key: "foo"`},
		{"vexlo_strict", `{"name":"n","foo":1,"bar":2}`, `Unrecognized keys: "foo", "bar"`},
		{"vexlo_strict", `{"foo":1}`, "Invalid input: expected string, received undefined at name\nUnrecognized key: \"foo\""},
		// seed 000, "Rejected arguments": each ending, on a schema of the same shape
		{"vexlo_get_traces", `{"traceIds":` + strings.Repeat(`["t"`, 1) + strings.Repeat(`,"t"`, 100) + `]}`, "Too big: expected array to have <=100 items at traceIds"},
		{"vexlo_strict", `{"name":"n","environment":"prod"}`, "Invalid input at environment"},
	}
	for _, tt := range tests {
		got := TypeScript.Refuse(tt.tool, schemas[tt.tool].Validate(json.RawMessage(tt.args))).Text
		want := textPrefix + tt.tool + ": " + tt.want
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s %s (-want +got):\n%s", tt.tool, tt.args, diff)
		}
	}
}

// TestSeedEndings checks every ending of seed 000's "Rejected arguments" table, on schemas of
// the shape its tools publish (strict objects, as their unknown-key rows show).
func TestSeedEndings(t *testing.T) {
	env := `{"anyOf":[{"type":"object","properties":{"named":{"type":"array","items":{"type":"string"}}},"required":["named"],"additionalProperties":false},{"type":"object","properties":{"unset":{"type":"boolean","const":true}},"required":["unset"],"additionalProperties":false}]}`
	ids := `{"type":"array","items":{"type":"string"},"maxItems":100}`
	tools := map[string]string{
		"vexlo_search_traces":         `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":100}},"additionalProperties":false}`,
		"vexlo_check_trace_status":    `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"traceIds":` + ids + `},"required":["traceIds"],"additionalProperties":false}`,
		"vexlo_find_related_traces":   `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"traceId":{"type":"string"},"windowHours":{"type":"number","maximum":168}},"required":["traceId"],"additionalProperties":false}`,
		"vexlo_get_function_examples": `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"service":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":5}},"required":["service"],"additionalProperties":false}`,
		"vexlo_get_function":          `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"service":{"type":"string"},"environment":` + env + `},"required":["service"],"additionalProperties":false}`,
	}
	hundredOne := `["t"` + strings.Repeat(`,"t"`, 100) + `]`
	tests := []struct{ tool, args, ending string }{
		{"vexlo_search_traces", `{"limit":101}`, "Too big: expected number to be <=100 at limit"},
		{"vexlo_check_trace_status", `{"traceIds":` + hundredOne + `}`, "Too big: expected array to have <=100 items at traceIds"},
		{"vexlo_find_related_traces", `{"traceId":"x","windowHours":169}`, "Too big: expected number to be <=168 at windowHours"},
		{"vexlo_get_function_examples", `{"service":"s","limit":6}`, "Too big: expected number to be <=5 at limit"},
		{"vexlo_search_traces", `{"teams":["a"]}`, `Unrecognized key: "teams"`},
		{"vexlo_check_trace_status", `{"traceIds":["t"],"team":"a"}`, `Unrecognized key: "team"`},
		{"vexlo_get_function", `{"service":"s","environment":"prod"}`, "Invalid input at environment"},
		{"vexlo_get_function", `{"service":"s","environment":{"named":["a"],"unset":true}}`, "Invalid input at environment"},
	}
	for _, tt := range tests {
		s, err := Compile([]byte(tools[tt.tool]), nil)
		if err != nil {
			t.Fatal(err)
		}
		got := TypeScript.Refuse(tt.tool, s.Validate(json.RawMessage(tt.args))).Text
		want := "MCP error -32602: Input validation error: Invalid arguments for tool " + tt.tool + ": " + tt.ending
		if got != want {
			t.Errorf("%s %s:\n got %q\nwant %q", tt.tool, tt.args, got, want)
		}
	}
}
