// Package stripe reads the errors of stripe-go (github.com/stripe/stripe-go,
// *stripe.Error) into envelope's rules, so that a tool handler can return
// the error a Stripe call gave, unchanged or wrapped with %w, and the agent
// gets the kind object Stripe's documentation calls for.
//
//	go get github.com/mcperr/mcperr/clients/stripe
//
// Importing the package is all the setup a server does: its init registers
// Read with envelope.Register, so envelope.ErrorOf, and the adapters'
// Handle, which use it, find the failure in any stripe-go error:
//
//	import _ "github.com/mcperr/mcperr/clients/stripe"
//
// A *stripe.Error keeps the answer whole (LastResponse: the status, the
// header with Request-Id, the body as sent), which Read reads as the
// response it is: {"error":{"type","code","message","param"}}, the code
// (resource_missing, rate_limit, ...) giving the kind where it names one.
//
// stripe-go keeps nothing of a body that is not JSON (a gateway's page):
// put envelope.Transport under its HTTP client and the adapters find the
// answer all the same.
package stripe
