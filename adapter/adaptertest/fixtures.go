package adaptertest

import (
	"strings"
	"testing"

	"github.com/mcperr/mcperr/schemaerr"
	"github.com/mcperr/mcperr/wire"
)

// The schemas of two tools of the TypeScript dialect's captured examples.
const (
	// ValuesSchema is the schema of get_values: a required path of at most
	// 8 strings and an integer limit from 1 to 100.
	ValuesSchema = `{"type":"object","properties":{"path":{"type":"array","items":{"type":"string"},"maxItems":8},"limit":{"type":"integer","minimum":1,"maximum":100}},"required":["path"]}`
	// SearchSchema is the schema of search: a required query of 3 to 20
	// characters, an order asc or desc, a language, and no other member.
	SearchSchema = `{"type":"object","properties":{"query":{"type":"string","minLength":3,"maxLength":20},"order":{"type":"string","enum":["asc","desc"]},"language":{"type":"string"}},"required":["query"],"additionalProperties":false}`
)

// MustCompile is schemaerr.Compile of schema; it fails t when schema does
// not compile.
func MustCompile(t testing.TB, schema string) *schemaerr.Schema {
	t.Helper()
	s, err := schemaerr.Compile([]byte(schema), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Deep is an array nested n deep inside the object {"path": ...}.
func Deep(n int) string {
	return `{"path":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
}

// Wrapped is err with msg before its text, a wrapper that is neither
// fmt.Errorf's nor errors.Join's: errors.As must still open it.
func Wrapped(msg string, err error) error { return &wrapped{msg, err} }

type wrapped struct {
	msg string
	err error
}

func (e *wrapped) Error() string { return e.msg + e.err.Error() }
func (e *wrapped) Unwrap() error { return e.err }

// Prose is a tool error with a shape of its own: prose for the agent and
// _meta, as a server with its own error contract writes it (a
// wire.Renderer).
type Prose struct{ Msg string }

// Error is the Go error's text, which the agent does not see.
func (e *Prose) Error() string { return "prose: " + e.Msg }

// ToolResult is the text "Not found: " and Msg, with the _meta
// {"example/plan":"free"}.
func (e *Prose) ToolResult() *wire.ToolResult {
	r := wire.TextError("Not found: " + e.Msg)
	r.Meta = map[string]any{"example/plan": "free"}
	return r
}
