package errkind

const (
	// modern is the first revision with the 2026-07-28 code rules.
	// Revisions are dates, so a later one compares greater as a string.
	modern = "2026-07-28"

	// appRefused is the application code (outside the JSON-RPC reserved
	// range) the library's legacy-range refusals answer from revision
	// 2026-07-28 on.
	appRefused RPCCode = -31000
)

// On returns the code a refusal the library answers with c sends under
// protocol revision version (the table below): ImplementationDefined
// (-32000) becomes the application code -31000 from revision 2026-07-28
// on, and every other code stays as it is. An empty version is an earlier
// revision.
//
// The code table, the one place a code is chosen by revision:
//
//	refusal (constant)                   2025-06-18  2025-11-25  2026-07-28
//	not JSON (ParseError)                -32700      -32700      -32700
//	not JSON-RPC (InvalidRequest)        -32600      -32600      -32600
//	unknown method (MethodNotFound)      -32601      -32601      -32601
//	bad params (InvalidParams)           -32602      -32602      -32602
//	server failure (InternalError)       -32603      -32603      -32603
//	over an all-message limit, or past   -32000      -32000      -31000
//	  a stdio transport's bound on
//	  requests in flight
//	  (ImplementationDefined)
//	header mismatch (HeaderMismatch)     -32020      -32020      -32020
//	capability (MissingCapability)       -32021      -32021      -32021
//	version (UnsupportedVersion)         -32022      -32022      -32022
//
// Revision 2026-07-28 (basic, "Error codes") says implementations SHOULD
// NOT use -32000 to -32019 (legacy), MUST NOT emit a code of -32020 to
// -32099 that the specification does not define, and SHOULD allocate
// application codes outside the JSON-RPC reserved range (-32768 to
// -32000). The library's one code of the legacy range, that of the refusal
// of a client over an all-message limit (its data carrying the rate_limited
// kind object: a client reads the kind, not the number) and of a stdio
// transport's refusal of a request past its bound on requests in flight
// (adapter/stdio's Busy), therefore answers the application code (-31000)
// from that revision on. Every error line the stdio transports write
// themselves takes its code from this table, for the revision the request
// names or the session negotiated. The codes
// -32020 to -32022 are the ones 2026-07-28 defines; the library sends them
// only for what that revision introduced (its headers and per-request
// version), so they stand in every column. Earlier revisions keep the
// codes they always had.
//
// A server's own contract is not the library's default: a sender that
// documents -32000 (an edge guard's refusal, say) writes it itself and
// keeps it.
func (c RPCCode) On(version string) RPCCode {
	if c == ImplementationDefined && version >= modern {
		return appRefused
	}
	return c
}
