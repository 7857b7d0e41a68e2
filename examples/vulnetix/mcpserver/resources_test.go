package mcpserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcperr/mcperr/examples/vulnetix/vdbdemo"
)

// TestResourceReadErrors drives every row of seed 003's "Resource read
// errors" table: JSON-RPC errors, not tool results.
func TestResourceReadErrors(t *testing.T) {
	e := newEnv(t, nil)
	tests := []struct {
		name, uri, key string
		want           want
	}{
		{"a record", "vulnetix://vuln/CVE-2021-44228", vdbdemo.KeyCommunity, want{Status: 200}},
		{"a record by a percent-encoded id", "vulnetix://vuln/CVE%2D2021%2D44228", vdbdemo.KeyCommunity, want{Status: 200}},
		{"a skill file", "skill://vulnetix/errors.md", "", want{Status: 200}},
		{"record not in the VDB (upstream 404)", "vulnetix://vuln/CVE-1999-0001", vdbdemo.KeyCommunity,
			want{Status: 400, Code: -32602, ID: "1", Message: "Not found in the Vulnetix VDB: CVE-1999-0001."}},
		{"unknown skill:// file", "skill://vulnetix/nope.md", "",
			want{Status: 400, Code: -32602, ID: "1", Message: "Resource not found"}},
		{"missing URI variable", "vulnetix://vuln/", vdbdemo.KeyCommunity,
			want{Status: 400, Code: -32602, ID: "1", Message: `Missing URI variable id in "vulnetix://vuln/"`}},
		{"badly percent-encoded URI variable", "vulnetix://vuln/CVE%2", vdbdemo.KeyCommunity,
			want{Status: 400, Code: -32602, ID: "1", Message: `Badly percent-encoded URI variable id in "vulnetix://vuln/CVE%2"`}},
		{"badly percent-encoded URI variable (%zz)", "vulnetix://vuln/%zzCVE", vdbdemo.KeyCommunity,
			want{Status: 400, Code: -32602, ID: "1", Message: "Badly percent-encoded URI variable id"}},
		{"a URI variable that is not an id", "vulnetix://vuln/..%2F..%2Fetc", vdbdemo.KeyCommunity,
			want{Status: 400, Code: -32602, ID: "1", Message: `URI variable id "../../etc"`}},
		{"any other upstream failure: 403", "vulnetix://vuln/CVE-2021-44228", vdbdemo.KeyInactive,
			want{Status: 200, Code: -32603, ID: "1", Message: "Vulnetix denied access (HTTP 403): The organisation for this key is not active. The organisation may be inactive."}},
		{"any other upstream failure: 401", "vulnetix://vuln/CVE-2021-44228", "wrong",
			want{Status: 200, Code: -32603, ID: "1", Message: "Vulnetix rejected the credential (HTTP 401)."}},
		{"any other upstream failure: no credential", "vulnetix://vuln/CVE-2021-44228", "",
			want{Status: 200, Code: -32603, ID: "1", Message: "Vulnetix request failed: No Vulnetix credential was supplied."}},
		{"any other upstream failure: maintenance", "vulnetix://vuln/CVE-2021-44228", vdbdemo.KeyMaintenance,
			want{Status: 200, Code: -32603, ID: "1", Message: "Vulnetix is in maintenance mode and is refusing writes right now."}},
	}
	var xs []*exchange
	var names []string
	for _, tt := range tests {
		extra := map[string]string{}
		if tt.key != "" {
			extra["Authorization"] = "Bearer " + tt.key
		}
		x := e.post(t, rpc(1, "resources/read", `"uri":"`+tt.uri+`"`), extra)
		same(t, tt.name, tt.want, gotOf(t, x))
		xs, names = append(xs, x), append(names, tt.name)
	}
	golden(t, "resources.golden", transcript(xs, names))
	if !strings.Contains(xs[0].RespBody, `"cacheScope":"private"`) || !strings.Contains(xs[2].RespBody, `"cacheScope":"public"`) {
		t.Errorf("a record read with a credential must be cacheScope private, a skill file public:\n%s\n%s", xs[0].RespBody, xs[2].RespBody)
	}
}

// TestSDKClient connects the go-sdk's own client in 2026-07-28 mode: its
// requests pass the front as they are, and the errors reach it in the
// shapes the seed gives them.
func TestSDKClient(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	hc := &http.Client{Transport: bearerTransport{vdbdemo.KeyCommunity}}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: e.url + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "vdb_request,vulnetix_auth_poll,vulnetix_auth_start,vulnetix_overview,vulnetix_purl,vulnetix_vuln" {
		t.Errorf("tools: %s", got)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolVuln, Arguments: map[string]any{"id": "CVE-1999-0001"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "Not found in the Vulnetix VDB: CVE-1999-0001") {
		t.Errorf("tool error: %+v", res)
	}
	up, _ := json.Marshal(res.Meta[MetaUpstream])
	if !strings.Contains(string(up), `"calls":1`) || res.Meta[MetaPlan] != "community" {
		t.Errorf("_meta: %v", res.Meta)
	}

	// The URI travels in Mcp-Name too; one with a non-ASCII character is sent as a =?base64?...?= sentinel.
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "vulnetix://vuln/CVE-1999-0001"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != -32602 {
		t.Errorf("resources/read of a missing record: %v", err)
	}
	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://vulnetix/nöpe.md"})
	if !errors.As(err, &werr) || werr.Code != -32602 {
		t.Errorf("resources/read of an unknown skill with a non-ASCII name: %v", err)
	}
	r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://vulnetix/SKILL.md"})
	if err != nil || !strings.Contains(r.Contents[0].Text, "vulnetix_vuln") {
		t.Errorf("skill file: %v", err)
	}
}

type bearerTransport struct{ key string }

func (b bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(req)
}

// TestReadUnquotableURINotFound: a resources/read of a URI that Go's %q
// does not write as JSON (a control character, DEL, an unprintable rune
// beyond U+FFFF) is answered "Resource not found" as JSON, as any unknown
// URI is, not with the SDK's empty 200.
func TestReadUnquotableURINotFound(t *testing.T) {
	e := newEnv(t, nil)
	for _, uri := range []string{"\x7f", "skill://vulnetix/a\x01.md", "x\U000E0001", "\x1b[0m"} {
		body, _ := json.Marshal(uri)
		name := "=?base64?" + base64.StdEncoding.EncodeToString([]byte(uri)) + "?="
		x := e.post(t, rpc(1, "resources/read", `"uri":`+string(body)), map[string]string{"Mcp-Name": name})
		same(t, fmt.Sprintf("%q", uri), want{Status: 400, Code: -32602, ID: "1", Message: "Resource not found"}, gotOf(t, x))
	}
}
