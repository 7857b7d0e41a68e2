package mcpserver

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/examples/vulnetix/vdbdemo"
)

type toolCase struct {
	name, tool, args, key string
	setup                 func(*env) // runs before the call
	// want: the text's start (the seed's "Message starts with"), isError,
	// the kind (checked through the message table), and calls made.
	prefix  string
	isError bool
	kind    errkind.Kind
	calls   int
}

// TestToolErrors drives every row of seed 003's "Tool errors" table over
// HTTP on loopback: HTTP 200, a result with isError, a text that starts as
// the seed says, and _meta["vulnetix/plan"] and _meta["vulnetix/upstream"]
// on every result. The results are recorded in testdata/tools.golden.
func TestToolErrors(t *testing.T) {
	const community = vdbdemo.KeyCommunity
	vuln := `{"id":"CVE-2021-44228"}`
	tests := []toolCase{
		{name: "no Authorization header", tool: ToolVuln, args: vuln, key: "",
			prefix: "Vulnetix request failed: No Vulnetix credential was supplied.", isError: true, kind: NoCredential},
		{name: "vdb-api 401", tool: ToolVuln, args: vuln, key: "not-a-vulnetix-key",
			prefix: "Vulnetix rejected the credential (HTTP 401).", isError: true, kind: CredentialRejected, calls: 1},
		{name: "vdb-api 403", tool: ToolVuln, args: vuln, key: vdbdemo.KeyInactive,
			prefix: "Vulnetix denied access (HTTP 403): The organisation for this key is not active. The organisation may be inactive.", isError: true, kind: AccessDenied, calls: 1},
		{name: "vdb-api 404", tool: ToolVuln, args: `{"id":"` + vdbdemo.UnindexedAliasID + `"}`, key: community,
			prefix: "Not found in the Vulnetix VDB: " + vdbdemo.UnindexedAliasID + ". Try an alias", isError: true, kind: NotFound, calls: 1},
		{name: "the alias of that 404 is found", tool: ToolVuln, args: `{"id":"` + vdbdemo.GHSAOnlyID + `"}`, key: community,
			prefix: `{"affected"`, calls: 1},
		{name: "vdb-api 429 (daily quota)", tool: ToolVuln, args: vuln, key: vdbdemo.KeyQuota,
			setup: func(e *env) {
				for range vdbdemo.QuotaPerDay {
					e.callTool(t, ToolVuln, vuln, vdbdemo.KeyQuota)
				}
			},
			prefix:  "Vulnetix daily rate limit exhausted for this organisation. The quota resets at 2026-12-01T00:00:00Z. Do NOT retry this call.",
			isError: true, kind: QuotaExhausted, calls: 1},
		{name: "vdb-api 503 with X-Maintenance-Mode", tool: ToolVuln, args: vuln, key: vdbdemo.KeyMaintenance,
			prefix: "Vulnetix is in maintenance mode and is refusing writes right now.", isError: true, kind: Maintenance, calls: 2},
		{name: "any other upstream status (500, retried once)", tool: ToolRequest, args: `{"path":"/v1/vendors/tukaani/trends"}`, key: community,
			prefix: "Vulnetix returned HTTP 500: Trend store unavailable.", isError: true, kind: UpstreamStatus, calls: 2},
		{name: "any other upstream status (400)", tool: ToolRequest, args: `{"path":"/v1/purl?purl=lodash"}`, key: community,
			prefix: "Vulnetix returned HTTP 400: purl must be a Package URL.", isError: true, kind: UpstreamStatus, calls: 1},
		{name: "a 5xx that fails once is retried", tool: ToolVuln, args: `{"id":"` + vdbdemo.FlakyID + `"}`, key: community,
			prefix: `{"affected"`, calls: 2},
		{name: "raw over 524,288 bytes", tool: ToolVuln, args: `{"id":"` + vdbdemo.HugeRawID + `","raw":true}`, key: community,
			prefix: "The raw record for CVE-2021-44228 is 614411 bytes", isError: true, kind: RawTooLarge, calls: 1},
		{name: "raw under the limit", tool: ToolVuln, args: `{"id":"CVE-2022-22965","raw":true}`, key: community,
			prefix: `{"history"`, calls: 1},
		{name: "not a purl", tool: ToolPURL, args: `{"purl":"lodash@4.17.21"}`, key: community,
			prefix: `Not a Package URL: "lodash@4.17.21"`, isError: true, kind: NotAPURL},
		{name: "not a purl: no name", tool: ToolPURL, args: `{"purl":"pkg:npm/"}`, key: community,
			prefix: `Not a Package URL: "pkg:npm/"`, isError: true, kind: NotAPURL},
		{name: "a purl", tool: ToolPURL, args: `{"purl":"pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1"}`, key: community,
			prefix: `{"purl"`, calls: 1},
		{name: "path not allowlisted", tool: ToolRequest, args: `{"path":"/v1/auth/device"}`, key: community,
			prefix: "Path '/v1/auth/device' is not on the allowlist for this tool.", isError: true, kind: PathNotAllowed},
		{name: "path climbing out of the allowlist", tool: ToolRequest, args: `{"path":"/v1/vulns/../auth/device"}`, key: community,
			prefix: "Path '/v1/vulns/../auth/device' is not on the allowlist for this tool.", isError: true, kind: PathNotAllowed},
		{name: "path to another host", tool: ToolRequest, args: `{"path":"//evil.example/v1/vulns/x"}`, key: community,
			prefix: "Path '//evil.example/v1/vulns/x' is not on the allowlist for this tool.", isError: true, kind: PathNotAllowed},
		{name: "path with an encoded slash", tool: ToolRequest, args: `{"path":"/v1/vulns/%2e%2e%2fauth/device"}`, key: community,
			prefix: "Path '/v1/vulns/%2e%2e%2fauth/device' is not on the allowlist for this tool.", isError: true, kind: PathNotAllowed},
		{name: "path with control characters", tool: ToolRequest, args: `{"path":"/v1/x\u0000\n"}`, key: community,
			prefix: `Path '/v1/x\x00\n' is not on the allowlist for this tool.`, isError: true, kind: PathNotAllowed},
		{name: "an allowlisted path", tool: ToolRequest, args: `{"path":"/v1/vendors/apache/trends"}`, key: community,
			prefix: `{"critical_share"`, calls: 1},
		{name: "handle older than 5 minutes", tool: ToolAuthPoll, key: "",
			setup:  nil, // set below: needs a handle
			prefix: "That login handle has expired", isError: true, kind: LoginExpired},
		{name: "tampered handle", tool: ToolAuthPoll, key: "",
			prefix: "That login handle is not valid", isError: true, kind: LoginInvalid},
		{name: "argument fails the input schema", tool: ToolVuln, args: `{"id":"CVE-2021-44228","raw":"yes"}`, key: community,
			prefix: "MCP error -32602: Input validation error: Invalid arguments for tool vulnetix_vuln: Invalid input: expected boolean, received string at raw", isError: true, kind: InvalidArguments},
		{name: "required argument missing", tool: ToolPURL, args: `{}`, key: community,
			prefix: "MCP error -32602: Input validation error: Invalid arguments for tool vulnetix_purl: Invalid input: expected string, received undefined at purl", isError: true, kind: InvalidArguments},
		{name: "no arguments at all", tool: ToolVuln, args: "", key: community,
			prefix: "MCP error -32602: Input validation error: Invalid arguments for tool vulnetix_vuln: Invalid input: expected string, received undefined at id", isError: true, kind: InvalidArguments},
		{name: "unknown argument", tool: ToolVuln, args: `{"id":"CVE-2021-44228","cve":"x"}`, key: community,
			prefix: `MCP error -32602: Input validation error: Invalid arguments for tool vulnetix_vuln: Unrecognized key: "cve"`, isError: true, kind: InvalidArguments},
		{name: "id not a CVE or GHSA", tool: ToolOverview, args: `{"id":"log4shell"}`, key: community,
			prefix: "MCP error -32602: Input validation error: Invalid arguments for tool vulnetix_overview: Invalid string: must match pattern", isError: true, kind: InvalidArguments},
	}
	e := newEnv(t, nil)
	handle := startLogin(t, e)
	var b strings.Builder
	for i := range tests {
		tt := &tests[i]
		switch tt.name {
		case "handle older than 5 minutes":
			tt.args = `{"handle":"` + handle + `"}`
			tt.setup = func(e *env) { e.clock.Advance(HandleTTL + time.Second) }
		case "tampered handle":
			tampered := []byte(handle)
			tampered[len(tampered)/2] ^= 1
			tt.args = `{"handle":"` + string(tampered) + `"}`
		}
		if tt.setup != nil {
			tt.setup(e)
		}
		r := e.callTool(t, tt.tool, tt.args, tt.key)
		checkResult(t, tt, r)
		shown := strings.ReplaceAll(tt.args, handle, "<handle>")
		if tt.name == "tampered handle" {
			shown = `{"handle":"<handle with one bit flipped>"}`
		}
		writeResult(&b, tt.name, tt.tool, shown, r)
	}
	golden(t, "tools.golden", b.String())
}

// checkResult checks one tool result against its case.
func checkResult(t *testing.T, tt *toolCase, r result) {
	t.Helper()
	if !strings.HasPrefix(r.text(), tt.prefix) {
		t.Errorf("%s: text\n%s\nwant it to start with\n%s", tt.name, r.text(), tt.prefix)
	}
	if r.IsError != tt.isError {
		t.Errorf("%s: isError %v, want %v", tt.name, r.IsError, tt.isError)
	}
	if tt.isError {
		if p := shapeOf(tt.kind).Prefix(); !strings.HasPrefix(r.text(), p) {
			t.Errorf("%s: text does not start with kind %s's prefix %q", tt.name, tt.kind, p)
		}
		if len(r.Content) != 1 || r.Content[0].Type != "text" || r.Structured != nil {
			t.Errorf("%s: an error result is one text block and no structuredContent", tt.name)
		}
	}
	if r.Meta.Upstream == nil || r.Meta.Plan == "" {
		t.Fatalf("%s: _meta lacks vulnetix/plan or vulnetix/upstream", tt.name)
	}
	if r.Meta.Upstream.Calls != tt.calls {
		t.Errorf("%s: upstream calls %d, want %d", tt.name, r.Meta.Upstream.Calls, tt.calls)
	}
	if r.ResultType != "complete" {
		t.Errorf("%s: resultType %q, want complete", tt.name, r.ResultType)
	}
}

// writeResult records a result in a golden transcript, its timing zeroed.
func writeResult(b *strings.Builder, name, tool, args string, r result) {
	up := *r.Meta.Upstream
	up.MS = 0
	text := r.text()
	if len(text) > 300 {
		text = text[:300] + "..."
	}
	meta := map[string]any{MetaPlan: r.Meta.Plan, MetaUpstream: up}
	if r.Meta.Degraded != nil {
		meta[MetaDegraded] = r.Meta.Degraded
	}
	m, _ := json.Marshal(meta)
	b.WriteString("### " + name + "\n> " + tool + " " + args + "\n< isError: " + map[bool]string{true: "true", false: "false"}[r.IsError] +
		"\n< _meta: " + string(m) + "\n< " + text + "\n\n")
}

func startLogin(t *testing.T, e *env) string {
	t.Helper()
	r := e.callTool(t, ToolAuthStart, `{}`, "")
	var s LoginStart
	if r.IsError || json.Unmarshal(r.Structured, &s) != nil || s.Handle == "" {
		t.Fatalf("vulnetix_auth_start: %s", r.text())
	}
	return s.Handle
}

// TestLogin: start, poll pending, poll approved, all within 5 minutes;
// the same handle one second past 5 minutes has expired.
func TestLogin(t *testing.T) {
	e := newEnv(t, nil)
	r := e.callTool(t, ToolAuthStart, `{}`, "")
	var s LoginStart
	json.Unmarshal(r.Structured, &s)
	if s.UserCode == "" || s.VerificationURI == "" || s.ExpiresIn != 300 {
		t.Errorf("start: %s", r.text())
	}
	for _, want := range []string{`{"status":"authorization_pending"}`, `{"organisation":"Demo Org","plan":"community","status":"approved"}`} {
		e.clock.Advance(2 * time.Minute)
		r := e.callTool(t, ToolAuthPoll, `{"handle":"`+s.Handle+`"}`, "")
		if r.IsError || r.text() != want {
			t.Errorf("poll: %s, want %s", r.text(), want)
		}
	}
	e.clock.Advance(time.Minute + time.Second) // 5m01s after the start
	if r := e.callTool(t, ToolAuthPoll, `{"handle":"`+s.Handle+`"}`, ""); !strings.HasPrefix(r.text(), "That login handle has expired") {
		t.Errorf("poll after 5 minutes: %s", r.text())
	}
	for _, bad := range []string{"", "x", strings.Repeat("A", 5000), "!!!", s.Handle + "A"} {
		r := e.callTool(t, ToolAuthPoll, `{"handle":"`+bad+`"}`, "")
		if !r.IsError {
			t.Errorf("poll %.20q: not an error", bad)
		}
	}
	// A handle sealed under another key is refused.
	other, _ := newSealer(make([]byte, 32))
	if r := e.callTool(t, ToolAuthPoll, `{"handle":"`+other.seal("dc_x", e.clock.Now())+`"}`, ""); !strings.HasPrefix(r.text(), "That login handle is not valid") {
		t.Errorf("foreign handle: %s", r.text())
	}
}

// TestPathParameters: the vdb_request allowlist refuses any path-parameter
// syntax, written or escaped (issue 13: "/v1/vulns/..;/auth/device" was
// forwarded, and servlet containers read "..;" as "..").
func TestPathParameters(t *testing.T) {
	tests := []struct {
		path string
		ok   bool
	}{
		{"/v1/vulns/CVE-2021-44228", true},
		{"/v1/purl?purl=pkg:npm/x;y", true}, // a ";" in the query is not a path parameter
		{"/v1/vulns/..;/auth/device", false},
		{"/v1/vulns/..;x=1/auth/device", false},
		{"/v1/vulns/CVE-1;jsessionid=x", false},
		{"/v1/vulns/CVE-1%3b/x", false},
		{"/v1/vulns/CVE-1%3B", false},
		{"/v1/vendors/;/trends", false},
		{"/v1/purl;x?purl=pkg:npm/x", false},
	}
	for _, tt := range tests {
		if got := pathAllowed(tt.path); got != tt.ok {
			t.Errorf("pathAllowed(%q) = %v, want %v", tt.path, got, tt.ok)
		}
	}
	// And through the tool: nothing is sent upstream.
	e := newEnv(t, nil)
	r := e.callTool(t, ToolRequest, `{"path":"/v1/vulns/..;/auth/device"}`, vdbdemo.KeyCommunity)
	if want := "Path '/v1/vulns/..;/auth/device' is not on the allowlist for this tool."; !r.IsError || !strings.HasPrefix(r.text(), want) || r.Meta.Upstream.Calls != 0 {
		t.Errorf("vdb_request ..;: %d calls, %s", r.Meta.Upstream.Calls, r.text())
	}
}

// TestLoginSingleUse: a login handle is single use once approved (issue
// 13: anyone holding a copy could poll it any number of times within its 5
// minutes). The poll that sees the approval gets it; every later poll of
// that handle, or of a copy, gets login_used, and a new login works.
func TestLoginSingleUse(t *testing.T) {
	e := newEnv(t, nil)
	start := func() string {
		var s LoginStart
		json.Unmarshal(e.callTool(t, ToolAuthStart, `{}`, "").Structured, &s)
		return s.Handle
	}
	h := start()
	var got []string
	for range 4 {
		r := e.callTool(t, ToolAuthPoll, `{"handle":"`+h+`"}`, "")
		got = append(got, r.text()[:min(len(r.text()), 40)])
	}
	want := []string{
		`{"status":"authorization_pending"}`,
		`{"organisation":"Demo Org","plan":"commu`,
		`That login handle was already used: its `,
		`That login handle was already used: its `,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("polls (-want +got):\n%s", diff)
	}
	if k, _ := KindOf(e.callTool(t, ToolAuthPoll, `{"handle":"`+h+`"}`, "").text()); k != LoginUsed {
		t.Errorf("kind %q, want %s", k, LoginUsed)
	}
	// Concurrent polls of an approved login: exactly one gets it.
	h = start()
	e.callTool(t, ToolAuthPoll, `{"handle":"`+h+`"}`, "") // pending
	results := make(chan string, 8)
	for range 8 {
		go func() { results <- e.callTool(t, ToolAuthPoll, `{"handle":"`+h+`"}`, "").text() }()
	}
	approved := 0
	for range 8 {
		if strings.Contains(<-results, `"approved"`) {
			approved++
		}
	}
	if approved != 1 {
		t.Errorf("%d concurrent polls got the approval, want 1", approved)
	}
}

func TestSpentLoginsBound(t *testing.T) {
	var s spentLogins
	now := time.Unix(1e9, 0)
	for i := range maxSpent {
		if !s.spend(fmt.Sprint(i), now.Add(time.Minute), now) {
			t.Fatalf("spend %d refused", i)
		}
	}
	if s.spend("one more", now.Add(time.Minute), now) {
		t.Error("a full record took one more")
	}
	if !s.spend("one more", now.Add(3*time.Minute), now.Add(2*time.Minute)) || len(s.until) != 1 {
		t.Errorf("expired entries not dropped: %d left", len(s.until))
	}
	if !s.used("one more") || s.used("0") {
		t.Error("used is wrong after the prune")
	}
}

// TestLoginWithoutKey: without MCP_AEAD_KEY both login tools answer the
// seed's error.
func TestLoginWithoutKey(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.AEADKey = nil })
	const want = "This Vulnetix MCP server cannot run a login because MCP_AEAD_KEY is not configured."
	for _, c := range []struct{ tool, args string }{{ToolAuthStart, `{}`}, {ToolAuthPoll, `{"handle":"abc"}`}} {
		r := e.callTool(t, c.tool, c.args, "")
		if !r.IsError || !strings.HasPrefix(r.text(), want) {
			t.Errorf("%s: %s", c.tool, r.text())
		}
	}
}

// TestNetworkFailure: vdb-api unreachable. The GET is retried once (two
// calls), then the tool error the seed gives a network failure.
func TestNetworkFailure(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	e := newEnv(t, func(c *Config) { c.APIURL = "http://" + addr })
	r := e.callTool(t, ToolVuln, `{"id":"CVE-2021-44228"}`, vdbdemo.KeyCommunity)
	if !r.IsError || !strings.HasPrefix(r.text(), "Vulnetix request failed: ") || strings.Contains(r.text(), "No Vulnetix credential") {
		t.Errorf("text: %s", r.text())
	}
	if r.Meta.Upstream.Calls != 2 {
		t.Errorf("calls %d, want 2 (one retry)", r.Meta.Upstream.Calls)
	}
}

// TestTimeout: vdb-api that never answers within the upstream timeout.
func TestTimeout(t *testing.T) {
	block := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(block)
	e := newEnv(t, func(c *Config) { c.APIURL, c.UpstreamTimeout = slow.URL, 50*time.Millisecond })
	r := e.callTool(t, ToolVuln, `{"id":"CVE-2021-44228"}`, vdbdemo.KeyCommunity)
	if !r.IsError || r.text() != "Vulnetix request failed: the request timed out." {
		t.Errorf("text: %s", r.text())
	}
}

// TestMalformedUpstream: a 200 whose body is not JSON.
func TestMalformedUpstream(t *testing.T) {
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>hello</html>"))
	}))
	defer bad.Close()
	e := newEnv(t, func(c *Config) { c.APIURL = bad.URL })
	r := e.callTool(t, ToolVuln, `{"id":"CVE-2021-44228"}`, vdbdemo.KeyCommunity)
	if !r.IsError || !strings.HasPrefix(r.text(), "Vulnetix returned HTTP 200: the body is not the JSON this tool expects") {
		t.Errorf("text: %s", r.text())
	}
}

// TestDegraded: the composing tool returns what succeeded; one failed
// section is {"error": ...} and named in _meta["vulnetix/degraded"]; every
// section failed is a normal error result.
func TestDegraded(t *testing.T) {
	e := newEnv(t, nil)
	r := e.callTool(t, ToolOverview, `{"id":"`+vdbdemo.DegradedID+`"}`, vdbdemo.KeyCommunity)
	if r.IsError {
		t.Fatalf("one failed section made an error result: %s", r.text())
	}
	if diff := cmp.Diff([]string{SectionTrends}, r.Meta.Degraded); diff != "" {
		t.Errorf("degraded (-want +got):\n%s", diff)
	}
	var payload map[string]json.RawMessage
	if err := json.Unmarshal(r.Structured, &payload); err != nil {
		t.Fatal(err)
	}
	if got, want := string(payload[SectionTrends]), `{"error":"Vulnetix returned HTTP 500: Trend store unavailable."}`; got != want {
		t.Errorf("vendor-trends: %s, want %s", got, want)
	}
	if !strings.Contains(string(payload[SectionRecord]), `"id":"CVE-2024-3094"`) || !strings.Contains(string(payload[SectionExploits]), "openwall") {
		t.Errorf("sections that worked are missing: %s", r.Structured)
	}
	if r.Meta.Upstream.Calls != 4 { // record, exploits, trends twice (500 retried)
		t.Errorf("calls %d, want 4", r.Meta.Upstream.Calls)
	}
	var raw map[string]any
	json.Unmarshal([]byte(r.text()), &raw)
	if _, ok := raw[SectionTrends]; !ok {
		t.Errorf("the text block is not the payload's JSON: %s", r.text())
	}

	ok := e.callTool(t, ToolOverview, `{"id":"CVE-2021-44228"}`, vdbdemo.KeyCommunity)
	if ok.IsError || ok.Meta.Degraded != nil {
		t.Errorf("nothing failed: isError %v, degraded %v", ok.IsError, ok.Meta.Degraded)
	}

	all := e.callTool(t, ToolOverview, `{"id":"CVE-1999-0001"}`, vdbdemo.KeyCommunity)
	if !all.IsError || !strings.HasPrefix(all.text(), "Not found in the Vulnetix VDB: CVE-1999-0001") || all.Meta.Degraded != nil {
		t.Errorf("every section failed: isError %v, degraded %v, text %s", all.IsError, all.Meta.Degraded, all.text())
	}
}

// TestRetryGuidance checks the advice the server gives with each tool
// failure against the Vulnetix error contract's retry words, one row per
// tool error status.
func TestRetryGuidance(t *testing.T) {
	tests := []struct {
		row, got, want string
	}{
		{"Tool 401", shapeOf(CredentialRejected).Advice.Note, "No. Fix the credential."},
		{"Tool 403", shapeOf(AccessDenied).Advice.Note, "No. Fix the credential."},
		{"Tool 404", shapeOf(NotFound).Advice.Note, "No. Try an alias (a GHSA for a CVE, or the reverse)."},
		{"Tool daily-quota error", shapeOf(QuotaExhausted).Advice.Note, "No. Wait for the reset."},
		{"Tool timeout or network failure", shapeOf(NetworkFailure).Advice.Note, "Once. The server already retried GETs on 5xx and network errors."},
		{"One degraded section", DegradedAdvice, "Optionally, request that section alone."},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.row, tt.got, tt.want)
		}
	}
	tax := Taxonomy()
	for _, c := range []struct {
		k         errkind.Kind
		retryable bool
	}{{CredentialRejected, false}, {AccessDenied, false}, {NotFound, false}, {QuotaExhausted, false}, {NetworkFailure, true}} {
		if got := tax.Advise(c.k).Retryable; got != c.retryable {
			t.Errorf("%s: retryable %v, want %v", c.k, got, c.retryable)
		}
	}
}

// TestTaxonomy: the rules classify each upstream status as the seed's table
// does, and every kind has a message shape.
func TestTaxonomy(t *testing.T) {
	tax := Taxonomy()
	tests := []struct {
		code   string
		status int
		want   errkind.Kind
	}{
		{"", 401, CredentialRejected},
		{"organisation_inactive", 403, AccessDenied},
		{"vuln_not_found", 404, NotFound},
		{"daily_quota_exceeded", 429, QuotaExhausted},
		{maintenanceCode, 503, Maintenance},
		{"", 503, UpstreamStatus},
		{"", 500, UpstreamStatus},
		{"", 400, UpstreamStatus},
		{"", 418, UpstreamStatus},
	}
	for _, tt := range tests {
		if got := tax.Classify(tt.code, tt.status); got != tt.want {
			t.Errorf("Classify(%q, %d) = %s, want %s", tt.code, tt.status, got, tt.want)
		}
	}
	seen := map[errkind.Kind]bool{}
	for _, s := range Shapes() {
		if seen[s.Kind] {
			t.Errorf("kind %s has two shapes", s.Kind)
		}
		seen[s.Kind] = true
		if s.Advice.Note == "" || s.Advice.Move == "" {
			t.Errorf("kind %s has no advice", s.Kind)
		}
	}
}

// TestQuotaResetBounded: the daily-quota message never names a reset in
// the past or beyond a day and a margin (issue 13: "resets at
// 292277026596-12-04T15:30:07Z" for X-RateLimit-Reset 9223372036854775807,
// and a time in the past for 1000000000); it names the next UTC midnight
// instead, as when the header is absent.
func TestQuotaResetBounded(t *testing.T) {
	now := time.Date(2026, 11, 30, 15, 4, 5, 0, time.UTC)
	clock := func() time.Time { return now }
	const midnight = "2026-12-01T00:00:00Z"
	tests := []struct {
		reset string
		want  string
	}{
		{"9223372036854775807", midnight},
		{"1000000000", midnight},
		{"-5", midnight},
		{"", midnight},
		{"junk", midnight},
		{"999999999", midnight}, // seconds from now: 31 years
		{strconv.FormatInt(now.Unix()-1, 10), midnight},
		{strconv.FormatInt(now.Add(49*time.Hour).Unix(), 10), midnight},
		{strconv.FormatInt(now.Add(3*time.Hour).Unix(), 10), "2026-11-30T18:04:05Z"},
		{strconv.FormatInt(now.Unix(), 10), "2026-11-30T15:04:05Z"},
		{"90", "2026-11-30T15:05:35Z"},
		{"0", "2026-11-30T15:04:05Z"},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.reset != "" {
			h.Set("X-RateLimit-Reset", tt.reset)
		}
		f := statusFailure(http.StatusTooManyRequests, "", h, "/v1/vulns/CVE-1", clock)
		want := "Vulnetix daily rate limit exhausted for this organisation. The quota resets at " + tt.want + ". Do NOT retry this call."
		if f.Message != want {
			t.Errorf("X-RateLimit-Reset %q:\n got %s\nwant %s", tt.reset, f.Message, want)
		}
	}
}
