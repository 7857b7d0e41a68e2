// Package grpc reads the status a gRPC call failed with
// (google.golang.org/grpc/status) into envelope's rules, so that a tool
// handler can return the error a gRPC client gave, unchanged or wrapped
// with %w, and the agent gets the kind object the status calls for.
//
//	go get github.com/mcperr/mcperr/clients/grpc
//
// Importing the package is all the setup a server does: its init registers
// Read with envelope.Register, so envelope.ErrorOf, and the adapters'
// Handle, which use it, find the status in any gRPC error:
//
//	import _ "github.com/mcperr/mcperr/clients/grpc"
//
// A status is read as the HTTP answer Google's APIs give for it
// (AIP-193): the HTTP status that google/rpc/code.proto maps its code to
// (NOT_FOUND 404, RESOURCE_EXHAUSTED 429, UNAVAILABLE 503, ...) and the
// body {"error":{"code","message","status","details"}}, its details in
// their JSON form. So the code's name is the code, google.rpc.RetryInfo's
// retryDelay the wait, google.rpc.BadRequest's field violations the
// fields at fault and google.rpc.ErrorInfo's reason the reason, as
// envelope reads them in any AIP-193 answer. A detail whose message type
// the program does not link in is left out.
package grpc
