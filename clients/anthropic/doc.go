// Package anthropic reads the errors of the Anthropic Go SDK
// (github.com/anthropics/anthropic-sdk-go, *anthropic.Error) into
// envelope's rules, so that a tool handler can return the error a Claude
// API call gave, unchanged or wrapped with %w, and the agent gets the kind
// object Anthropic's documentation calls for.
//
//	go get github.com/mcperr/mcperr/clients/anthropic
//
// Importing the package is all the setup a server does: its init registers
// Read with envelope.Register, so envelope.ErrorOf, and the adapters'
// Handle, which use it, find the failure in any Anthropic SDK error:
//
//	import _ "github.com/mcperr/mcperr/clients/anthropic"
//
// An *anthropic.Error keeps the response (its status and its header:
// request-id, retry-after, the anthropic-ratelimit-* fields) and the body
// as sent, {"type":"error","error":{"type","message"},"request_id"}. Read
// reads them as the response they are: the error's type is its code
// (rate_limit_error, overloaded_error, ...), and the wait is retry-after's.
package anthropic
