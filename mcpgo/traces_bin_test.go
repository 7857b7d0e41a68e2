package mcpgo_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTracesServer: internal/traces, the package doc's server the load
// driver measures against the TypeScript SDK, answers the driver's calls as
// the TypeScript server does: the rejection in the TypeScript SDK's words,
// the unknown tool as an isError result naming it, get_trace with its
// upstream GET and trace_link at once, each as structuredContent and text.
func TestTracesServer(t *testing.T) {
	bin := buildCommand(t, "./internal/traces")
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"`+strings.TrimPrefix(r.URL.Path, "/v1/traces/")+`","spans":3}`)
	}))
	defer api.Close()
	in := stdioInit + "\n" + stdioInitialized + "\n" +
		`{"jsonrpc":"2.0","id":"rejected","method":"tools/call","params":{"name":"get_trace","arguments":{}}}` + "\n" +
		`{"jsonrpc":"2.0","id":"unknown","method":"tools/call","params":{"name":"get_traces","arguments":{"id":"abc"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":"valid","method":"tools/call","params":{"name":"get_trace","arguments":{"id":"abc"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":"link","method":"tools/call","params":{"name":"trace_link","arguments":{"id":"a b"}}}` + "\n"
	want := map[string]string{
		"rejected": `{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool get_trace: Invalid input: expected string, received undefined at id"}],"isError":true}`,
		"unknown":  `{"content":[{"type":"text","text":"MCP error -32602: Tool get_traces not found"}],"isError":true}`,
		"valid":    `{"content":[{"type":"text","text":"{\"id\":\"abc\",\"spans\":3}"}],"structuredContent":{"id":"abc","spans":3}}`,
		"link":     `{"content":[{"type":"text","text":"{\"id\":\"a b\",\"url\":\"` + api.URL + `/traces/a%20b\"}"}],"structuredContent":{"id":"a b","url":"` + api.URL + `/traces/a%20b"}}`,
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "TRACES_API="+api.URL)
	cmd.Stdin = strings.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var a struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		var id string
		if json.Unmarshal(a.ID, &id) == nil {
			got[id] = string(a.Result)
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("answers (-want +got):\n%s", d)
	}
}
