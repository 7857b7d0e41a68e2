package adaptertest

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// Request makes one request to the MCP endpoint at url, with the session
// header when session is not "", and returns the status, the session the
// answer names and the body. It fails t when the request cannot be made.
func Request(t testing.TB, method, url, session, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(b)
}

// Open starts a session at the MCP endpoint at url with Initialize and
// returns its id; it fails t unless the answer is 200 with a session.
func Open(t testing.TB, url string) string {
	t.Helper()
	status, id, body := Request(t, "POST", url, "", Initialize)
	if status != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d, session %q, body %s", status, id, body)
	}
	return id
}
