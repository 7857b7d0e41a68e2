// Package telemetry records every request an MCP server answers as
// OpenTelemetry spans and metrics, per OpenTelemetry's semantic conventions
// for MCP, with mcperr's reading of each failure beside them, so the people
// who run a server see what failed, what kind of failure it was, and
// whether it should wake anyone.
//
// One line instruments a server of either Go SDK:
//
//	telemetry.GoSDK(s, nil)                                      // go-sdk: after every other receiving middleware
//	s := server.NewMCPServer("traces", "1.0.0", telemetry.MCPGo(nil)) // mcp-go: before any tool middleware
//
// and one more traces the upstream calls, each attempt a span of its own:
//
//	&http.Client{Transport: &retry.Transport{Base: &telemetry.Transport{}}}
//
// With nil options both record through OpenTelemetry's global providers,
// which record nothing until the program installs an SDK; package
// [github.com/mcperr/mcperr/telemetry/otlpenv] installs one that exports
// over OTLP when the standard OTEL_EXPORTER_OTLP_* variables are set. A
// server that does not call GoSDK or MCPGo pays nothing.
//
// # What is recorded
//
// Every request and notification is a SERVER span named
// "{mcp.method.name} {target}" ("tools/call get_trace", "prompts/get
// review", "initialize"), a child of the trace context the client put in
// params._meta (traceparent, tracestate; SEP-414), linked to the ambient
// span if there is one; but a tools/call refused before any handler runs,
// of an expected kind (its arguments, a tool the server does not have),
// is its metric points alone, unless the client is tracing it (a sampled
// parent in its _meta) or Options.RefusalSpans is set. A tools/call's span
// starts when its handler is entered, which gosdk.Validate, mcpgo.Validate
// and both adapters' Handle and Raw tell it (adapter.Enter); one whose
// handler none of them wraps gets its span when it ends, so the handler's
// own spans are not its children. Its attributes are the conventions': mcp.method.name,
// gen_ai.tool.name and gen_ai.operation.name = execute_tool for a tool call,
// gen_ai.prompt.name, mcp.resource.uri, jsonrpc.request.id (where the SDK
// or the transport says it: every request an mcp-go server's hooks see, and
// the tool calls mcpgo.ServeStdio reads; on the go-sdk, which tells
// middleware no id, the tool calls gosdk.StdioTransport's direct path
// serves), mcp.protocol.version,
// mcp.session.id, network.transport (pipe for stdio, tcp for HTTP), and on
// a failure error.type: the JSON-RPC code ("-32602"), or tool_error for an
// isError result, and rpc.response.status_code for a JSON-RPC error.
//
// A failure also carries mcperr's reading of the answer, as the agent got
// it (errkind.Read of the result or the error):
//
//	mcperr.kind             the kind: not_found, rate_limited, server_error, ...
//	mcperr.move             the agent's next move: fix_argument, wait_then_retry, ...
//	mcperr.expected         whether the kind is expected (adapter.Expected)
//	mcperr.upstream.status  the upstream's HTTP status, when the kind object names it
//	mcperr.upstream.code    the upstream's own code, when it sent one
//	mcperr.wait             seconds to wait before a retry, when the answer names it
//
// No argument value, message text or secret is recorded: a kind object's
// message and details, a JSON-RPC error's message and an upstream URL's
// query stay out of every attribute. An upstream span carries the method,
// server.address, server.port, url.path and http.response.status_code.
//
// The metrics are the conventions' two histograms, in seconds,
// mcp.server.operation.duration (by method, tool, protocol version,
// transport, error.type and mcperr.kind) and mcp.server.session.duration,
// and a counter of failures, mcperr.server.failures, by method, tool,
// error.type, mcperr.kind and mcperr.expected.
//
// # Alerting on what matters
//
// An error-rate alert on every failure pages someone each time an agent
// misspells an argument. Alert on the unexpected ones only: a server_error,
// an upstream that is down, answers that do not parse, a panic, the server's
// own credentials refused. In PromQL, with the OpenTelemetry Collector's
// Prometheus naming:
//
//	sum by (gen_ai_tool_name) (rate(mcperr_server_failures_total{mcperr_expected="false"}[5m]))
//	  / sum by (gen_ai_tool_name) (rate(mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call"}[5m]))
//	  > 0.05
//
// pages when more than 5% of a tool's calls fail unexpectedly for five
// minutes; the expected ones (mcperr_expected="true") belong on a
// dashboard, where a rise in rate_limited or not_found says something about
// the agents, not about the server. The expected refusals made before any
// handler runs are counted, and have no span unless Options.RefusalSpans
// is set or the client traces the call.
//
// # Cost
//
// What a request shares with the others of its method, tool, protocol
// revision, transport and failure (its span's name and fixed attributes, a
// failure's attributes, the attribute sets of its metric points) is made
// once; per request come only its id, session and the reading of its
// answer, and a request's params._meta is handed to the propagator only
// when it holds a field the propagator reads (traceparent). A failure is
// one point of the failure counter, with its cached attribute set. What
// remains is mostly OpenTelemetry's SDK: a span through its
// batch processor costs about 4 us of CPU with a success's 7 attributes and
// 6-7 us with a failure's 13 (BenchmarkSpan, every span exported), and a
// point of the duration histogram about 0.5 us, the SDK checking its
// attribute set at every measurement. Exporting a span over OTLP/HTTP adds
// 4-8 us more, the SDK's exporter converting and encoding it
// (BenchmarkExport in otlpenv).
// So a refusal without a span costs about 2 us more than uninstrumented
// (6 us over a go-sdk's stdio, in-process), and a success what its span and
// point cost, and their export: BENCHMARKS.md has the figures, in-process
// and as processes exporting over OTLP.
//
// # Install
//
//	go get github.com/mcperr/mcperr/telemetry
package telemetry
