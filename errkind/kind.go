package errkind

// Kind is the stable name of a failure an agent branches on, such as
// "not_found" or "rate_limited". It travels as the "kind" member of the JSON
// kind object a tool result carries. Kinds are strings, not integers, so a
// server can declare its own (see [Taxonomy]) and an agent can read them
// without a table.
type Kind string

// The ten kinds of the standard taxonomy (see [Standard]). They name what
// happened in the terms of HTTP, so they fit any upstream API. Each
// constant's comment says what raises it, what the agent does next, and how
// to tell it from its nearest neighbour.
const (
	// InvalidArguments means the upstream understood the call and refused
	// it because of what it asked: an argument that is malformed, out of
	// range, or inconsistent with another, or a request the resource's
	// current state does not allow (HTTP 400, 422 and any 4xx without a
	// kind of its own; codes such as INVALID_ARGUMENT, FAILED_PRECONDITION,
	// OUT_OF_RANGE). The agent fixes the argument the message names and
	// calls again; the same call, unchanged, fails the same way.
	//
	// Litmus test against NotFound: an id that cannot be parsed is
	// InvalidArguments; a well-formed id that matches nothing is NotFound.
	// Against Conflict: if changing the arguments fixes it, it is
	// InvalidArguments; if only the resource's state changing would, it is
	// Conflict.
	InvalidArguments Kind = "invalid_arguments"

	// AuthenticationFailed means the upstream does not know who is calling:
	// the credential is missing, malformed, expired or revoked (HTTP 401;
	// codes such as UNAUTHENTICATED, invalid_api_key, invalid_token). The
	// agent stops; no call it can make fixes a credential. An operator
	// fixes the credential.
	//
	// Litmus test against PermissionDenied: the upstream does not know who
	// is calling (401), rather than knowing and refusing (403).
	AuthenticationFailed Kind = "authentication_failed"

	// PermissionDenied means the upstream knows who is calling and refuses
	// this caller this call: a role, a scope, a plan or an organisation
	// setting forbids it, or a payment a person must make (HTTP 403 and
	// 402; codes such as PERMISSION_DENIED, AccessDenied,
	// insufficient_credits). The agent stops, or makes a different call the caller
	// may make; retrying cannot change a permission.
	//
	// Litmus test against RateLimited: a 403 that carries Retry-After or an
	// exhausted rate-limit header is a limit, not a permission, and is
	// RateLimited. Against NotFound: many APIs answer 404 for a resource the
	// caller may not see, so a NotFound is never evidence of a permission.
	PermissionDenied Kind = "permission_denied"

	// NotFound means the id names nothing the caller can see (HTTP 404 and
	// 410; codes such as NOT_FOUND, anything ending in _not_found or
	// containing NotFound, resource_missing). The agent tries another id,
	// or accepts that it is not there.
	//
	// Litmus test: a NotFound says nothing about why. A resource that does
	// not exist and one the caller is not allowed to see often give the same
	// answer by design, so it must not be read as a permission problem. Use
	// InvalidArguments, not NotFound, when the id is malformed rather than
	// absent.
	NotFound Kind = "not_found"

	// Conflict means the call clashed with the resource's current state:
	// it already exists, or it changed since the caller last read it (HTTP
	// 409; codes such as ALREADY_EXISTS, ABORTED, Conflict). The agent
	// re-reads the resource and then either retries its whole
	// read-modify-write with what it learned, or stops because the state is
	// already what it wanted ([RereadThenRetry]). The same call, unchanged,
	// is not expected to succeed.
	//
	// Litmus test against InvalidArguments: the arguments were fine for the
	// state the caller believed in; the state moved.
	Conflict Kind = "conflict"

	// RateLimited means the caller sends faster, or more, than the upstream
	// allows for now (HTTP 429, or a 403 with Retry-After or an exhausted
	// rate-limit header; codes such as RESOURCE_EXHAUSTED, rate_limit...,
	// ...Throttl..., TooManyRequests). The agent waits the time the kind
	// object gives (retryAfterSeconds) and makes the same call again.
	//
	// Litmus test against Unavailable: the upstream is healthy and is
	// refusing this caller; another caller would be served.
	RateLimited Kind = "rate_limited"

	// Unavailable means the upstream, or something in front of it, is
	// temporarily unable to serve anyone: overloaded, restarting, in
	// maintenance, or a gateway timed out (HTTP 502, 503, 504, 529; codes
	// such as UNAVAILABLE, overloaded_error, ServiceUnavailable). The agent
	// waits (retryAfterSeconds when the upstream gave it, else a few
	// seconds, growing) and retries the same call.
	//
	// Litmus test against ServerError: a retry of the same call later is
	// expected to work. Against RateLimited: nobody is being served, not
	// just this caller.
	Unavailable Kind = "unavailable"

	// ServerError means the upstream failed while handling a call it
	// understood, and said so (HTTP 500, 501 and any 5xx without a kind of
	// its own; codes such as INTERNAL, UNKNOWN, DATA_LOSS, api_error). The
	// agent reports it; different arguments will not help, and a retry
	// helps only by luck.
	//
	// Litmus test against MalformedResponse: the upstream said it failed,
	// in a shape the client understood; a MalformedResponse is a body the
	// client could not understand at all.
	ServerError Kind = "server_error"

	// MalformedResponse means the upstream's answer is neither an error the
	// client can read nor the data it expected: a body that is not JSON, an
	// HTML error page, a shape the call does not return, or a body that
	// could not be read. Its message is the client's own sentence, not the
	// upstream's. The agent reports it; it is not argument-fixable.
	MalformedResponse Kind = "malformed_response"

	// NetworkError means no response exists: the connection was refused or
	// reset, DNS failed, TLS failed, or the call timed out. The agent may
	// retry; a call that changes state should be retried only when it is
	// idempotent, because the upstream may have acted on it.
	//
	// Litmus test against Unavailable: Unavailable is an answer (a 503);
	// NetworkError is the absence of one.
	NetworkError Kind = "network_error"
)

// kinds returns the ten kinds of the standard taxonomy in the order of its
// table (see [Standard]).
func kinds() []Kind {
	return []Kind{
		InvalidArguments, AuthenticationFailed, PermissionDenied, NotFound,
		Conflict, RateLimited, Unavailable, ServerError, MalformedResponse,
		NetworkError,
	}
}

// Move is the agent's next move after a failure of some kind, such as
// "fix_argument" or "wait_then_retry".
type Move string

// The moves an agent can make. They are what an agent's branch on a Kind
// does; [Taxonomy.Advise] maps each kind to one.
const (
	// Stop: nothing a call can change; a human must act (a credential, a
	// permission, a plan). Retrying, or changing arguments, will not help.
	Stop Move = "stop"
	// FixArgument: change the argument the message names and call again.
	// The same call, unchanged, fails the same way.
	FixArgument Move = "fix_argument"
	// TryAnotherID: the id names nothing the caller can see; try another,
	// or accept that it is not there.
	TryAnotherID Move = "try_another_id"
	// RereadThenRetry: the resource's state is not what the call assumed.
	// Read it again, then redo the read-modify-write with what was read, or
	// stop if the state is already what was wanted.
	RereadThenRetry Move = "reread_then_retry"
	// WaitThenRetry: wait the time the failure gives (retryAfterSeconds),
	// then make the same call again.
	WaitThenRetry Move = "wait_then_retry"
	// RetrySafe: no answer came back; retrying the same call is safe for a
	// read, and for a write that is idempotent.
	RetrySafe Move = "retry_safe"
	// Report: the failure is the upstream's or the client's, and no move of
	// the agent's fixes it; report it.
	Report Move = "report"
)

// Advice is what a kind tells the agent: its next move, whether a retry of
// the same call can help, the sentence that says so, and which members the
// kind's JSON object carries.
type Advice struct {
	Move      Move
	Retryable bool   // a retry of the same call, unchanged, can succeed
	Note      string // the guidance, as a sentence for a human or an agent

	// Fields are the members the kind's JSON object carries besides "kind",
	// by their JSON names, in the order they are written (see
	// [Object.AppendJSON]): "code", "message", "details", "httpStatus",
	// "retryAfterSeconds", "limit", "remaining" and "resetSeconds". A name
	// outside that list is ignored. nil means every member that is set, in
	// that order.
	Fields []string
}
