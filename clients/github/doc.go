// Package github reads the typed errors of go-github
// (github.com/google/go-github) into envelope's rules, so that a tool handler
// can return the error a go-github call gave, unchanged or wrapped with %w,
// and the agent gets the kind object GitHub's documentation calls for.
//
//	go get github.com/mcperr/mcperr/clients/github
//
// Importing the package is all the setup a server does: its init registers
// Read with envelope.Register, so envelope.ErrorOf, and the adapters'
// Handle, which use it, find the failure in any go-github error:
//
//	import _ "github.com/mcperr/mcperr/clients/github"
//
// Each error is read from what go-github keeps of GitHub's answer (the
// status, the header, the message, the errors list, the rate), by the same
// rules envelope.Reader reads a response with:
//
//   - *github.ErrorResponse: its status and GitHub's body, so a 422
//     "Validation Failed" is invalid_arguments with the first error's code
//     (missing_field, invalid, already_exists, ...) and the errors list,
//     each naming the resource and the field at fault, as its details;
//   - *github.TwoFactorAuthError: a 401, authentication_failed;
//   - *github.RateLimitError: the primary rate limit, rate_limited with the
//     wait until Rate.Reset, the limit and what remains of it;
//   - *github.AbuseRateLimitError: a secondary rate limit, rate_limited with
//     its RetryAfter, or one minute when GitHub gave no wait (GitHub's
//     documentation: "wait for at least one minute before retrying");
//   - *github.AcceptedError: a 202, GitHub compiling what was asked for in
//     the background, which is unavailable: the same call, made again a
//     little later, gets the data.
//
// While a primary or secondary limit it has seen lasts, go-github does not
// send the request: it answers from memory with an error whose response it
// made up, a 403 with no header and no body. Read reads such an error from
// the rate go-github remembers, so it is rate_limited with the wait until
// the reset, like the answer that set the limit, never permission_denied.
//
// A request that got no answer (a timeout, a cancelled context, a refused
// connection) is not go-github's: envelope.ErrorOf reads it as
// network_error. A *github.RedirectionError (only with redirects turned
// off) is not a failure of the upstream, and Read leaves it alone.
package github
