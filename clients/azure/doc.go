// Package azure reads the errors of the Azure SDK for Go
// (github.com/Azure/azure-sdk-for-go/sdk/azcore, *azcore.ResponseError)
// into envelope's rules, so that a tool handler can return the error an
// Azure call gave, unchanged or wrapped with %w, and the agent gets the
// kind object Azure's documentation calls for.
//
//	go get github.com/mcperr/mcperr/clients/azure
//
// Importing the package is all the setup a server does: its init registers
// Read with envelope.Register, so envelope.ErrorOf, and the adapters'
// Handle, which use it, find the failure in any Azure SDK error:
//
//	import _ "github.com/mcperr/mcperr/clients/azure"
//
// An *azcore.ResponseError keeps the response (RawResponse: the status, the
// header with x-ms-request-id, x-ms-error-code and Retry-After) and azcore
// keeps its body for reading again (runtime.Payload). Read reads that
// response as envelope.Reader does: Azure's {"error":{"code","message"}},
// a storage service's XML <Error><Code>, or the code of x-ms-error-code.
package azure
