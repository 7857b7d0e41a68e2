// Package google reads the errors of Google's REST clients
// (google.golang.org/api, whose services fail with a *googleapi.Error) into
// envelope's rules, so that a tool handler can return the error a Google
// API call gave, unchanged or wrapped with %w, and the agent gets the kind
// object the API's documentation calls for.
//
//	go get github.com/mcperr/mcperr/clients/google
//
// Importing the package is all the setup a server does: its init registers
// Read with envelope.Register, so envelope.ErrorOf, and the adapters'
// Handle, which use it, find the failure in any googleapi error:
//
//	import _ "github.com/mcperr/mcperr/clients/google"
//
// A *googleapi.Error keeps the whole answer: its status (Code), its header
// and its body as sent. Read reads that answer as envelope.Reader reads a
// response, so both of Google's error formats give their code, message and
// wait: the v1 format's errors[].reason (notFound, conditionNotMet,
// rateLimitExceeded, ...), and AIP-193's status name with its details,
// google.rpc.ErrorInfo's reason and google.rpc.RetryInfo's retryDelay
// among them.
package google
