// Package clienttest runs a tool handler on a go-sdk server and on an mcp-go
// server, through mcperr's adapters, and returns what an agent gets from each.
//
//	go get github.com/mcperr/mcperr/clients/clienttest
//
// It is how the clients/NAME modules check, against the real client
// libraries, that a handler which returns the library's error unchanged (or
// wrapped with %w) reaches the agent as the kind object the upstream's
// documentation calls for; a server's own tests can use it the same way.
// Each call connects a fresh client to a fresh server over the SDK's
// in-process transport: nothing leaves the process.
package clienttest
