// Package kubernetes reads the Kubernetes API's errors, as client-go
// (k8s.io/client-go) returns them, into envelope's rules, so that a tool
// handler can return the error a client-go call gave, unchanged or wrapped
// with %w, and the agent gets the kind object the API's conventions call for.
//
//	go get github.com/mcperr/mcperr/clients/kubernetes
//
// Importing the package is all the setup a server does: its init registers
// Read with envelope.Register, so envelope.ErrorOf, and the adapters'
// Handle, which use it, find the failure in any client-go error:
//
//	import _ "github.com/mcperr/mcperr/clients/kubernetes"
//
// client-go gives every answer of the API server that failed as an error
// that carries a metav1.Status (k8s.io/apimachinery's errors.APIStatus,
// such as *errors.StatusError), the Status the server sent or, for a body
// that was not one (a proxy's page, a plain-text 429), the one client-go
// made of the status code. Read reads that Status as the response it
// stands for: its code is the status; its reason (NotFound, AlreadyExists,
// Conflict, Invalid, Forbidden, TooManyRequests, ...) the code; its message
// the message; its details, with the causes that name each field at fault
// (spec.containers[0].image), the details; and its retryAfterSeconds the
// wait, as the server's Retry-After field says it.
//
// The package needs only k8s.io/apimachinery: client-go's typed, dynamic
// and REST clients all give a failed answer as an *errors.StatusError.
package kubernetes
