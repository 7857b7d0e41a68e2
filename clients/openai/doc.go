// Package openai reads the errors of the OpenAI Go SDK
// (github.com/openai/openai-go, *openai.Error) into envelope's rules, so
// that a tool handler can return the error an OpenAI call gave, unchanged
// or wrapped with %w, and the agent gets the kind object OpenAI's
// documentation calls for.
//
//	go get github.com/mcperr/mcperr/clients/openai
//
// Importing the package is all the setup a server does: its init registers
// Read with envelope.Register, so envelope.ErrorOf, and the adapters'
// Handle, which use it, find the failure in any OpenAI SDK error:
//
//	import _ "github.com/mcperr/mcperr/clients/openai"
//
// An *openai.Error keeps the response (its status and its header:
// x-request-id, Retry-After, the x-ratelimit-* fields) and the body's error
// object (type, code, message, and param, the argument at fault). Read
// reads them as the response they stand for, {"error":{...}} as OpenAI
// sends it, so insufficient_quota and invalid_api_key give their kinds by
// their codes and a 429 its wait.
//
// The SDK keeps nothing of a body that is not JSON (a gateway's page): it
// returns its decoding error, with no status. Put envelope.Transport under
// its HTTP client (option.WithHTTPClient) and the adapters find the answer
// all the same.
package openai
