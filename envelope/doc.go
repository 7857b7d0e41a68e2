// Package envelope reads an upstream HTTP response into the caller's data or
// a kind-tagged [*Error].
//
// Error or data is decided by the body's shape, never by the status alone.
// A [Reader] reads one response top to bottom: the body, once, within a
// size bound; what the headers say; the body's format (JSON, XML, or text,
// HTML or nothing); for JSON, a table of the dialects public APIs write
// their errors in; then an [errkind.Taxonomy], which gives the kind.
//
// The upstream's error envelope ({"error":{...}} by default), JSON-RPC
// error responses (through errkind's JSON-RPC catalogue), bodies whose
// error flag is up ({"ok":false}, {"success":false}, JSend's
// {"status":"error"}) and GraphQL responses that failed are errors at any
// status; at 4xx and 5xx any other JSON body is an error too, read in the
// dialects public APIs use (RFC 9457 problem details, {"message"},
// {"errors":[...]}, OAuth 2, Kubernetes Status, Google's errors, ...),
// unless the caller's type accepts it as its shape (see [Shaper]), so a
// 503 health body {"status":"degraded"} can be data. An XML error body
// (<Error><Code>NoSuchKey</Code>...) gives its code and message; a code
// field of the header (x-ms-error-code, x-amzn-ErrorType, the error of a
// WWW-Authenticate challenge) gives the code a body does not. A body that says only its status (text, HTML, nothing)
// is the kind the taxonomy gives that status, so a gateway's 502, 503 or
// 504 page, or a Cloudflare 52x, is unavailable whatever its format, and
// a plain-text 401 is authentication_failed; a status the taxonomy makes
// server_error leaves it malformed_response. An empty 2xx is data, unless
// its header carries a gRPC status other than OK.
// Headers decide when the body cannot: a 429, or a 403 with Retry-After
// or no requests remaining, is rate_limited, and a 503 with Retry-After is
// unavailable. A body that is none of these is malformed_response with
// the client's own sentence, and a request that threw is network_error.
//
// An error carries the wait whenever one is known, the longest the
// response speaks of (Retry-After in any of its forms, Retry-After-Ms,
// x-ms-retry-after-ms, the body's own such as google.rpc.RetryInfo, the
// reset of an exhausted window), and at least header.DefaultRetryAfter for a
// rate_limited one that asked for no delay, so an agent never comes back
// early; it carries the X-RateLimit-* figures, and every error read from a
// response carries that response's header, so a caller can refine the
// kind on a field such as X-Maintenance-Mode.
//
// A tool handler that wraps one upstream call is then three lines:
//
//	var page SearchPage
//	if err := reader.Do(req, &page); err != nil {
//		return wire.ErrorResult(err), nil // the kind object, isError
//	}
//	return wire.Success(page)
//
// An *Error is a wire.KindError: package wire renders it as the JSON kind
// object inside an isError tool result, the same object its MarshalJSON
// writes, in the layout errkind's standard taxonomy declares for its kind.
// [Error.Object] gives that object as an errkind.Object, for a server whose
// own taxonomy declares another layout. Results and JSON-RPC errors
// themselves are package wire's job.
//
// A server whose handlers call APIs through typed clients reads their
// errors with [ErrorOf]: an *Error in the chain, a client's typed error (a
// clients/NAME module registers its reader with [Register]; importing it is
// all the setup), an error that names its status, or a request that got no
// answer; the operation a wrapping added ("failed to get issue: %w") goes
// in front of the upstream's message. A [Transport] under the API client
// keeps each tool call's upstream failures, read by the same rules, for
// the SDK adapters' Handle, so that a failure a client dropped (a GraphQL
// client's NOT_FOUND, the headers of a 429) still reaches the agent.
//
// A credential the request carried never appears in an *Error, whatever the
// upstream echoes back: the values of its Authorization header (and the
// Reader's SecretHeaders), of every field whose name says it holds one
// (Cookie, Api-Key, X-Goog-Api-Key, Private-Token, X-Auth-Token, ...), of
// its URL's userinfo and of its secret query parameters, and the Reader's
// Secrets. Every URL an Error shows has its userinfo and the values of its
// secret query parameters redacted, by name: key, api_key, apikey,
// access_token and any name ending in token, secret, password, signature,
// credential or api-key (X-Amz-Signature, client_secret), sig, auth, jwt,
// pwd, passwd, pass and sessionid, in any case, with '-', '_' and '.'
// ignored. A network_error names the method and the host, never the URL.
//
// A request that may have acted (a POST or PATCH without an
// Idempotency-Key, or a method of the Reader's Writes) and failed after it
// was sent (no answer came back, or a gateway's 502 or 504) is not safe to
// retry: its *Error is of kind conflict, whose move is
// errkind.RereadThenRetry (read the resource back, then redo the change or
// stop), its message says so, and its details are
// {"mayHaveActed":true,"method":"POST","failure":"network_error"} when the
// upstream sent none.
//
// # Which code
//
// Where a body holds several codes, the one a program would switch on is
// kept, decided once for every API: a code word wins over a number
// beside it ({"code": 101, "type": "invalid_access_key"} gives
// invalid_access_key; the number only says which entry of a catalogue),
// and a status name of Google's AIP-193 ("PERMISSION_DENIED") wins over
// the reason of an ErrorInfo or of errors[0] beside it, unless that
// reason names a kind the agent must stop or wait for (API_KEY_INVALID
// under INVALID_ARGUMENT). A numeric code 0 in an error body is kept as
// written (Discord's {"message": "401: Unauthorized", "code": 0}). An
// innererror whose own code is a word (the Microsoft REST API guidelines'
// more specific error) is the error read.
//
// # Which message
//
// The message is the upstream's own sentence, decided once for every
// API: the member named for a message ("message", "error" as a
// sentence, "description", ...) gives it even when it is a headline
// ("Validation failed") beside field errors, as GitHub, GoCardless,
// Paddle and most documented APIs expect; the first field error is the
// message only where no such member gives a sentence (a body of nothing
// but field errors, a label, a catalogue's key). A message read from an
// error object that names the field at fault is written "field:
// message", unless it opens with the field; JSON:API's source (a
// pointer, a parameter) stays in the details, and the detail is the
// message as sent.
//
// # The kind
//
// The kind is the taxonomy's for the code, read by its words in any case
// style; a code that names a kind wins over a status that says no more
// than a refusal (400, or a code below 400), and a code that says no more
// than the request failed never overrides a status that tells (401, 403,
// 404, 429, 502 to 504). Where the code says nothing of its own (none, a
// number, a catalogue's entry, a reason phrase), the message's words
// decide over such a status: a credential refused, a limit or a quota
// spent, a permission or credits lacking, a thing sent twice or a state
// that moved, and a thing that matches nothing. These conventions hold
// across the corpora:
//
//   - A thing a 400 says matches nothing ("Model does not exist") is
//     not_found, as errkind's litmus test reads a well-formed id that
//     matches nothing; a part of the request or of what it queries (a
//     parameter, a field, a column, a table, an index, a type) that does
//     not exist is invalid_arguments, and so is a message that offers
//     another cause ("not found or not approved").
//   - A 402 is permission_denied whatever the message says; a payment
//     card declined or wrong is invalid_arguments by its code.
//   - A text, HTML or empty 5xx body the taxonomy reads as server_error
//     is malformed_response, whatever its one line says.
//
// # Upstream text
//
// An error's text is a path into the agent's prompt, so the code, message
// and details an *Error carries from a response are cleaned before any
// caller sees them (Body, Header and Err keep what was sent, for the
// server's own code):
//
//   - HTML is reduced to its text: tags of HTML elements, comments and
//     declarations are dropped, with the content of script and style
//     elements, entities are decoded and runs of spaces become one; angle
//     brackets that open no HTML element ("expected <string>", "a < b")
//     stay.
//   - Control characters (C0, DEL, C1) are removed; a tab or line break
//     becomes a space.
//   - Characters a reader does not see are removed: bidirectional
//     embeddings, overrides, isolates and marks (U+202A-U+202E,
//     U+2066-U+2069, U+200E, U+200F, U+061C), zero-width and invisible
//     formatting characters (U+200B-U+200D, U+2060-U+2064, U+206A-U+206F,
//     U+FEFF), U+2028, U+2029, interlinear annotations and tag characters
//     (U+E0000-U+E007F); invalid UTF-8 becomes U+FFFD.
//   - The code and the message keep at most 4 KiB, each string of the
//     details at most 4 KiB, cut at a character and ended with "…"; details
//     longer than 16 KiB once cleaned are dropped (Body still has them).
//
// The same holds for every string and member name inside the details,
// which are written again, compact and in their order, only when one of
// them changed. Text that needs none of it is kept byte for byte.
package envelope
