package mcpserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcperr/mcperr/errkind"
)

// The kinds of the Vulnetix taxonomy: one per row of the "Tool errors" table
// of the Vulnetix error contract (skill://vulnetix/errors.md) (and three the table leaves open: a login handle that was altered, a
// response too large for vdb_request, and a body the server cannot read).
// Kinds shared with the standard taxonomy keep its names.
const (
	// NoCredential: the MCP request carried no Authorization: Bearer header,
	// or one that does not parse. Fix the credential.
	NoCredential errkind.Kind = "no_credential"
	// CredentialRejected: vdb-api answered 401. Fix the credential.
	CredentialRejected = errkind.AuthenticationFailed
	// AccessDenied: vdb-api answered 403; the organisation may be inactive.
	// Fix the credential (or the organisation).
	AccessDenied errkind.Kind = "access_denied"
	// NotFound: vdb-api answered 404. Try an alias (a GHSA for a CVE, or the
	// reverse).
	NotFound = errkind.NotFound
	// QuotaExhausted: vdb-api answered 429, the organisation's daily quota.
	// Do not retry; wait for the reset.
	QuotaExhausted errkind.Kind = "daily_quota_exhausted"
	// Maintenance: vdb-api answered 503 with X-Maintenance-Mode: true.
	Maintenance errkind.Kind = "maintenance"
	// UpstreamStatus: vdb-api answered any other error status.
	UpstreamStatus errkind.Kind = "upstream_status"
	// NetworkFailure: no response at all (refused, reset, timeout), after the
	// server's own retry.
	NetworkFailure = errkind.NetworkError
	// Malformed: vdb-api answered 2xx with a body that is not the JSON the
	// tool expects.
	Malformed = errkind.MalformedResponse
	// RawTooLarge: vulnetix_vuln with raw, for a raw record over the limit.
	RawTooLarge errkind.Kind = "raw_too_large"
	// TooLarge: a vdb_request response over the limit.
	TooLarge errkind.Kind = "response_too_large"
	// NotAPURL: vulnetix_purl was given something that is not a Package URL.
	NotAPURL errkind.Kind = "not_a_purl"
	// PathNotAllowed: vdb_request was given a path off its allowlist.
	PathNotAllowed errkind.Kind = "path_not_allowed"
	// LoginUnavailable: a login tool, without MCP_AEAD_KEY.
	LoginUnavailable errkind.Kind = "login_unavailable"
	// LoginExpired: vulnetix_auth_poll with a handle older than five minutes.
	LoginExpired errkind.Kind = "login_expired"
	// LoginInvalid: vulnetix_auth_poll with a handle this server did not
	// seal, or one that was altered.
	LoginInvalid errkind.Kind = "login_invalid"
	// LoginUsed: vulnetix_auth_poll with a handle whose approval was
	// already handed over: a handle is single use once approved.
	LoginUsed errkind.Kind = "login_used"
	// InvalidArguments: the arguments fail the tool's input schema.
	InvalidArguments = errkind.InvalidArguments
)

// Shape is one tool-error shape: a kind, the text its message is made from,
// and what the agent should do.
type Shape struct {
	Kind errkind.Kind
	// Format is the message as a fmt format. Everything before its first
	// verb is the fixed start an agent can match on (see [Shape.Prefix]).
	Format string
	Advice errkind.Advice
}

// Prefix returns the fixed start of the shape's messages: its Format up to
// the first verb.
func (s Shape) Prefix() string {
	if i := strings.IndexByte(s.Format, '%'); i >= 0 {
		return s.Format[:i]
	}
	return s.Format
}

// MaxRaw is the largest response, in bytes, a tool returns.
const MaxRaw = 524288

const (
	fixCredential = "No. Fix the credential."
	fixRequest    = "No. Fix the arguments."
)

// shapes is the message table: the only place a tool-error text is worded.
// It is read only.
var shapes = []Shape{
	{NoCredential, "Vulnetix request failed: No Vulnetix credential was supplied. Send your Vulnetix API key as \"Authorization: Bearer <key>\" on the MCP request, or start a login with vulnetix_auth_start.",
		errkind.Advice{Move: errkind.Stop, Note: fixCredential}},
	{CredentialRejected, "Vulnetix rejected the credential (HTTP 401). The API key sent as \"Authorization: Bearer\" is wrong or revoked.",
		errkind.Advice{Move: errkind.Stop, Note: fixCredential}},
	{AccessDenied, "Vulnetix denied access (HTTP 403): %s The organisation may be inactive.",
		errkind.Advice{Move: errkind.Stop, Note: fixCredential}},
	{NotFound, "Not found in the Vulnetix VDB: %s. Try an alias (a GHSA id for a CVE, or the reverse).",
		errkind.Advice{Move: errkind.TryAnotherID, Note: "No. Try an alias (a GHSA for a CVE, or the reverse)."}},
	{QuotaExhausted, "Vulnetix daily rate limit exhausted for this organisation. The quota resets at %s. Do NOT retry this call.",
		errkind.Advice{Move: errkind.Stop, Note: "No. Wait for the reset."}},
	{Maintenance, "Vulnetix is in maintenance mode and is refusing writes right now. Try again in %s.",
		errkind.Advice{Move: errkind.WaitThenRetry, Retryable: true, Note: "Later, when the maintenance window is over."}},
	{UpstreamStatus, "Vulnetix returned HTTP %d: %s",
		errkind.Advice{Move: errkind.Report, Note: "No. The server already retried GETs on 5xx; report it."}},
	{NetworkFailure, "Vulnetix request failed: %s",
		errkind.Advice{Move: errkind.RetrySafe, Retryable: true, Note: "Once. The server already retried GETs on 5xx and network errors."}},
	{Malformed, "Vulnetix returned HTTP %d: the body is not the JSON this tool expects (%s).",
		errkind.Advice{Move: errkind.Report, Note: "No. Report it."}},
	{RawTooLarge, "The raw record for %s is %s bytes, over the %d-byte limit of this tool. Call vulnetix_vuln without raw for the parsed record.",
		errkind.Advice{Move: errkind.FixArgument, Note: "No. Call again without raw."}},
	{TooLarge, "The response for %s is %s bytes, over the %d-byte limit of this tool. Ask for something narrower.",
		errkind.Advice{Move: errkind.FixArgument, Note: fixRequest}},
	{NotAPURL, "Not a Package URL: %s. A purl looks like pkg:<type>/<namespace>/<name>@<version>, for example pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1.",
		errkind.Advice{Move: errkind.FixArgument, Note: fixRequest}},
	{PathNotAllowed, "Path '%s' is not on the allowlist for this tool. Allowed prefixes: /v1/vulns/, /v1/purl, /v1/vendors/.",
		errkind.Advice{Move: errkind.FixArgument, Note: fixRequest}},
	{LoginUnavailable, "This Vulnetix MCP server cannot run a login because MCP_AEAD_KEY is not configured. Send an API key as \"Authorization: Bearer <key>\" instead, or ask the operator to set MCP_AEAD_KEY (32 bytes, hex).",
		errkind.Advice{Move: errkind.Stop, Note: "No. The operator must configure MCP_AEAD_KEY."}},
	{LoginExpired, "That login handle has expired: it was issued at %s and is valid for 5 minutes. Start a new login with vulnetix_auth_start.",
		errkind.Advice{Move: errkind.FixArgument, Note: "No. Start a new login."}},
	{LoginInvalid, "That login handle is not valid: this server did not issue it, or it was altered. Start a new login with vulnetix_auth_start.",
		errkind.Advice{Move: errkind.FixArgument, Note: "No. Start a new login."}},
	{LoginUsed, "That login handle was already used: its approval was handed over once, to the first poll that saw it. Start a new login with vulnetix_auth_start.",
		errkind.Advice{Move: errkind.FixArgument, Note: "No. Start a new login."}},
	{InvalidArguments, "%s",
		errkind.Advice{Move: errkind.FixArgument, Note: "No. Fix the argument the message names."}},
}

// Shapes returns the message table, one Shape per kind, in the order of
// the contract's "Tool errors" table.
func Shapes() []Shape { return append([]Shape(nil), shapes...) }

func shapeOf(k errkind.Kind) Shape {
	for _, s := range shapes {
		if s.Kind == k {
			return s
		}
	}
	return Shape{Kind: k, Format: "Vulnetix request failed: %s", Advice: errkind.Advice{Move: errkind.Report}}
}

// maintenanceCode is the code the server gives a 503 that carried
// X-Maintenance-Mode: true, so the taxonomy's rules can tell it apart.
const maintenanceCode = "x-maintenance-mode"

// Taxonomy returns the server's taxonomy: rules from an upstream (code,
// status) to a kind, and each kind's advice. A 503 with X-Maintenance-Mode:
// true is classified with the code "x-maintenance-mode". For clients, it
// also names the tool errors' prose: a Text rule per shape of the message
// table (each verb a "*"), the longest first, so errkind's Read gives a
// tool error's text its kind.
func Taxonomy() *errkind.Taxonomy {
	t := &errkind.Taxonomy{
		Rules: []errkind.Rule{
			{Code: maintenanceCode, Status: 503, Kind: Maintenance},
			{Status: 401, Kind: CredentialRejected},
			{Status: 403, Kind: AccessDenied},
			{Status: 404, Kind: NotFound},
			{Status: 429, Kind: QuotaExhausted},
			{StatusMin: 300, Kind: UpstreamStatus},
		},
		Advice:   make(map[errkind.Kind]errkind.Advice, len(shapes)),
		Fallback: UpstreamStatus,
	}
	for _, s := range shapes {
		t.Advice[s.Kind] = s.Advice
	}
	var prose []errkind.Rule
	for _, s := range shapes {
		if s.Kind != InvalidArguments { // "%s": the MCP layer's text, which Read knows
			prose = append(prose, errkind.Rule{Text: textPattern(s.Format), Kind: s.Kind})
		}
	}
	slices.SortStableFunc(prose, func(a, b errkind.Rule) int { return len(b.Text) - len(a.Text) })
	t.Rules = append(prose, t.Rules...)
	return t
}

// textPattern is a message format as a Text rule: each verb becomes "*".
func textPattern(format string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(format, '%')
		if i < 0 || i == len(format)-1 {
			b.WriteString(format)
			return b.String()
		}
		b.WriteString(format[:i])
		b.WriteByte('*')
		format = format[i+2:]
	}
}

// Failure is a tool error: a kind of the server's taxonomy and the message
// the agent reads. errors.As finds it.
type Failure struct {
	Kind    errkind.Kind
	Message string
	Status  int   // the upstream's HTTP status; 0 when there was none
	Err     error // the cause, when there is one; never holds a credential
}

// Error returns the message.
func (f *Failure) Error() string { return f.Message }

// Unwrap returns the cause.
func (f *Failure) Unwrap() error { return f.Err }

// fail builds a Failure of kind k, its message worded by the table.
func fail(k errkind.Kind, args ...any) *Failure {
	return &Failure{Kind: k, Message: fmt.Sprintf(shapeOf(k).Format, args...)}
}

// sentence returns s ending with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

// DegradedAdvice is the contract's guidance for a result with a degraded
// section: it is not an error, and the section can be asked for alone.
const DegradedAdvice = "Optionally, request that section alone."

// KindOf reads a tool error's text as an agent would, with errkind's Read
// and the server's taxonomy (whose Text rules are the message table's
// openings), and returns the kind of the shape that words it: the most
// specific one when several do. The MCP layer's -32602 texts are
// InvalidArguments. It reports false for a text no shape words.
func KindOf(text string) (errkind.Kind, bool) {
	r := Taxonomy().Read(errkind.Outcome{IsError: true, Text: text})
	switch r.Form {
	case errkind.FormProse, errkind.FormInvalidArguments, errkind.FormUnknownTool:
		return r.Kind, true
	case errkind.FormMCPError:
		return r.Kind, r.RPCCode == errkind.InvalidParams
	}
	return "", false
}
