package errkind

// Kind is the stable name of a failure an agent branches on, such as
// "not_found" or "rate_limited". It travels as the "kind" member of the JSON
// kind object a tool result carries. Kinds are strings, not integers, so a
// server can declare its own (see [Taxonomy]) and an agent can read them
// without a table.
type Kind string

// The nine kinds of the standard taxonomy (see [Standard]). Each constant's
// comment says what raises it, what the agent does next, and how to tell it
// from its nearest neighbour.
const (
	// AuthenticationFailed is raised by a 401 (code "unauthenticated"): the
	// credential the server holds was refused, for example a token revoked
	// after startup. The agent stops; nothing a call can change fixes it. The
	// operator fixes the credential and restarts the process.
	//
	// Litmus test against WrongRole: the upstream does not know who is
	// calling (401), rather than knowing and refusing (403).
	AuthenticationFailed Kind = "authentication_failed"

	// WrongRole is raised by a 403 "forbidden_role": the credential is valid
	// but its role may not make this call. The agent stops. Retrying, or
	// changing arguments, cannot change a role.
	WrongRole Kind = "wrong_role"

	// NotFound is raised by any "*_not_found" code, or any other 404: the id
	// names nothing the caller can see. The agent tries another id, or
	// accepts that it is not there.
	//
	// Litmus test: a 404 is never evidence about visibility. A thing that
	// does not exist and a thing on a team-set the token cannot see give the
	// same answer by design, so "not found" must not be read as "the token
	// lacks access"; ask a coverage tool that question instead. Use
	// InvalidArguments, not NotFound, when the id is malformed rather than
	// absent.
	NotFound Kind = "not_found"

	// InvalidArguments is raised by "invalid_request", "invalid_cursor", or
	// any other 4xx the upstream raises: the call was understood and refused
	// because of an argument. The agent fixes the argument the message names
	// and calls again.
	//
	// Litmus test against NotFound: a well-formed id that matches nothing is
	// NotFound; an id that cannot be parsed is InvalidArguments.
	InvalidArguments Kind = "invalid_arguments"

	// TooManyValuesRequested is raised by a 422 "too_many_paths": the call
	// asked for more values than one request may carry. The agent asks for
	// fewer. It is a specific InvalidArguments whose fix is always to split
	// or shrink the request.
	TooManyValuesRequested Kind = "too_many_values_requested"

	// RateLimited is raised by a 429: the caller is sending faster than the
	// upstream allows. The agent waits RetryAfter (retryAfterSeconds on the
	// wire; 60 when the upstream gave none) and retries the same call.
	//
	// Litmus test against ServerError: the upstream is healthy and the same
	// call will succeed later; nothing about it needs reporting.
	RateLimited Kind = "rate_limited"

	// ServerError is raised by "internal_error" or any status of 500 and
	// above: the upstream failed. The agent reports it; different arguments
	// will not help.
	//
	// Litmus test against MalformedResponse: the upstream said it failed, in
	// its own envelope; a MalformedResponse is a body the client could not
	// understand at all.
	ServerError Kind = "server_error"

	// MalformedResponse is raised by a body that is neither the error
	// envelope nor the expected shape, or cannot be read. The message is the
	// client's own sentence, not the server's. The agent reports it; it is
	// not argument-fixable.
	MalformedResponse Kind = "malformed_response"

	// NetworkError is raised when the request threw before any response
	// existed: a refused connection, a DNS failure, a timeout. The agent may
	// safely retry a read (a GET); every call of the standard taxonomy is one.
	NetworkError Kind = "network_error"
)

// Kinds returns the nine kinds of the standard taxonomy in the order of
// its table (see the package documentation).
func Kinds() []Kind {
	return []Kind{
		AuthenticationFailed, WrongRole, NotFound, InvalidArguments,
		TooManyValuesRequested, RateLimited, ServerError, MalformedResponse,
		NetworkError,
	}
}

// String returns the kind's wire name.
func (k Kind) String() string { return string(k) }

// Move is the agent's next move after a failure of some kind.
type Move string

// The moves an agent can make. They are what an agent's branch on Kind
// does; [Taxonomy.Advise] maps each kind to one.
const (
	// Stop: nothing a call can change; a human must act (a credential, a
	// role, a plan).
	Stop Move = "stop"
	// FixArgument: change the argument the message names and call again.
	FixArgument Move = "fix_argument"
	// TryAnotherID: the id names nothing; try another, or accept absence.
	TryAnotherID Move = "try_another_id"
	// WaitThenRetry: wait RetryAfter, then make the same call again.
	WaitThenRetry Move = "wait_then_retry"
	// RetrySafe: the call never reached the upstream; retrying is safe.
	RetrySafe Move = "retry_safe"
	// Report: the failure is the upstream's or the client's; report it.
	Report Move = "report"
)

// Advice is what a kind tells the agent: its next move, whether a retry of
// the same call can help, and the sentence that says so.
type Advice struct {
	Move      Move
	Retryable bool   // a retry of the same call, unchanged, can succeed
	Note      string // the guidance, as a sentence for a human or an agent
}
