package telemetry

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/errkind"
)

// scope is the instrumentation scope the spans and metrics are recorded
// under: this module's path.
const scope = "github.com/mcperr/mcperr/telemetry"

// Options configures the instrumentation. The zero value (or nil) records
// with OpenTelemetry's global providers and propagator, which record
// nothing until a program installs an SDK (otel.SetTracerProvider,
// otel.SetMeterProvider).
type Options struct {
	// TracerProvider makes the server spans; nil means
	// otel.GetTracerProvider().
	TracerProvider trace.TracerProvider

	// MeterProvider makes the histograms and the failure counter; nil means
	// otel.GetMeterProvider().
	MeterProvider metric.MeterProvider

	// Propagator reads the trace context a client put in a request's
	// params._meta (traceparent, tracestate, baggage); nil means
	// otel.GetTextMapPropagator().
	Propagator propagation.TextMapPropagator

	// RefusalSpans records a span for every refusal the middleware sees
	// too. By default a tools/call refused before any handler runs, of an
	// expected kind (its arguments, a tool the server does not have),
	// records its metric points alone, unless its _meta carries a sampled
	// parent: the caller is tracing it. (The refusals of a transport or a
	// limit, which Failures counts, never have a span.)
	RefusalSpans bool
}

// Names of the attributes this package records beyond OpenTelemetry's
// MCP conventions: mcperr's reading of a failure, as the agent got it.
const (
	attrKind     = "mcperr.kind"            // the kind object's kind
	attrMove     = "mcperr.move"            // the agent's next move
	attrExpected = "mcperr.expected"        // whether the failure is an expected one (adapter.Expected)
	attrStage    = "mcperr.stage"           // where a refusal outside the SDK was decided (adapter.Stage)
	attrStatus   = "mcperr.upstream.status" // the upstream response's HTTP status
	attrCode     = "mcperr.upstream.code"   // the upstream's own code
	attrWait     = "mcperr.wait"            // seconds to wait before a retry, when the failure names one
)

// Conventions' attribute names (OpenTelemetry semantic conventions for MCP
// and GenAI, development status).
const (
	attrMethod       = "mcp.method.name"
	attrTool         = "gen_ai.tool.name"
	attrPrompt       = "gen_ai.prompt.name"
	attrOperation    = "gen_ai.operation.name"
	attrResource     = "mcp.resource.uri"
	attrRequestID    = "jsonrpc.request.id"
	attrProtocol     = "mcp.protocol.version"
	attrSession      = "mcp.session.id"
	attrTransport    = "network.transport"
	attrErrorType    = "error.type"
	attrRPCStatus    = "rpc.response.status_code"
	toolError        = "tool_error" // error.type of an isError result
	otherError       = "_OTHER"     // error.type of a failure with no JSON-RPC code
	executeTool      = "execute_tool"
	transportPipe    = "pipe" // network.transport of stdio
	transportTCP     = "tcp"  // network.transport of Streamable HTTP
	operationMetric  = "mcp.server.operation.duration"
	sessionMetric    = "mcp.server.session.duration"
	failureMetric    = "mcperr.server.failures"
	upstreamSpanName = "upstream"
)

// durationBuckets are the conventions' advised bucket boundaries, in
// seconds, for both duration histograms.
var durationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// recorder holds the instruments one instrumented server records with.
type recorder struct {
	*meters
	tracer       trace.Tracer
	prop         propagation.TextMapPropagator
	fields       []string // the _meta fields prop reads: no Extract unless a request has one
	live         sync.Map // the go-sdk sessions whose end is awaited: *mcp.ServerSession -> struct{}
	refusalSpans bool     // Options.RefusalSpans
}

// meters are a recorder's instruments, and what the requests it has seen
// so far share. Each recorder has its own: the SDK hands every recorder of
// a MeterProvider the same instruments, and no state outlives the server
// that made it (no callback registered with the provider, no map of
// providers in the package).
type meters struct {
	opDur    metric.Float64Histogram
	sessDur  metric.Float64Histogram
	failures metric.Int64Counter

	// shapes and fails hold what the requests seen so far share, at most
	// maxShapes of each: a span's name and fixed attributes, a failure's
	// attributes, and the attribute set of their metric points, sorted and
	// hashed once, not at every request.
	mu     sync.RWMutex
	shapes map[shapeKey]*shape
	fails  map[failKey]*failShape
	stages map[stageKey][]metric.AddOption // Failures' points: their attribute sets
	texts  map[textKey]*failShape          // the failure an isError text of at most maxText bytes is, by shape
	rpcs   map[rpcKey]*failShape           // the failure a JSON-RPC error of at most maxText bytes is, by shape
}

// maxShapes bounds the shapes and failures a recorder keeps: past it (a
// client sending ever new method names), a request's are made for it.
const maxShapes = 1024

// shapeKey is what the requests of one span name and one metric point of
// success share.
type shapeKey struct {
	method, target, protocol, transport string
}

// shape is what the requests of one shapeKey share: the span name
// "{mcp.method.name} {target}", the span's fixed attributes, the options a
// span with no others starts with (its kind and those attributes), and the
// point a success records. All of it is read-only, shared by every request
// of the shape: the options are passed as they are, so that neither the
// SDK's variadic parameters nor a copy cost an allocation per request.
type shape struct {
	key   shapeKey
	name  string
	attrs []attribute.KeyValue
	start []trace.SpanStartOption
	ok    []metric.RecordOption
}

// newShape makes the shape of k.
func newShape(k shapeKey) *shape {
	sh := &shape{key: k, name: k.method, attrs: k.attrs(true)}
	if k.target != "" {
		sh.name += " " + k.target
	}
	sh.start = []trace.SpanStartOption{serverKind, trace.WithAttributes(sh.attrs...)}
	sh.ok = []metric.RecordOption{metric.WithAttributeSet(attribute.NewSet(k.attrs(false)...))}
	return sh
}

// attrs are the attributes of k: the method, a tool call's tool and
// operation or a prompt's name, the protocol and transport; for a span,
// a tool call's operation even without its tool's name, for a metric
// point only with it.
func (k shapeKey) attrs(span bool) []attribute.KeyValue {
	a := make([]attribute.KeyValue, 0, 9)
	a = append(a, attribute.String(attrMethod, k.method))
	switch {
	case k.method == "tools/call" && k.target != "":
		a = append(a, attribute.String(attrTool, k.target), attribute.String(attrOperation, executeTool))
	case k.method == "tools/call" && span:
		a = append(a, attribute.String(attrOperation, executeTool))
	case k.method == "prompts/get" && k.target != "":
		a = append(a, attribute.String(attrPrompt, k.target))
	}
	if k.protocol != "" {
		a = append(a, attribute.String(attrProtocol, k.protocol))
	}
	if k.transport != "" {
		a = append(a, attribute.String(attrTransport, k.transport))
	}
	return a
}

// failKey is what the failures of one set of span attributes share.
type failKey struct {
	shapeKey
	failure
}

// failShape is what the failures of one failKey share: mcperr's
// attributes for the span, and the point recorded for the duration and
// the failure counter, as the options of Record and of Add (read-only, as
// a shape's).
type failShape struct {
	attrs    []attribute.KeyValue
	rec      []metric.RecordOption
	add      []metric.AddOption
	expected bool // the failure is of an expected kind
}

// newFailShape makes the attributes of k: on the span, f's; on the point,
// k's shape's, and error.type, the JSON-RPC code, mcperr.kind and
// mcperr.expected.
func newFailShape(k failKey) *failShape {
	f := &k.failure
	p := append(k.shapeKey.attrs(false), attribute.String(attrErrorType, f.errorType()))
	if f.rpc {
		p = append(p, attribute.String(attrRPCStatus, strconv.FormatInt(f.rpcCode, 10)))
	}
	p = append(p, attribute.String(attrKind, string(f.kind)), attribute.Bool(attrExpected, f.expected))
	point := metric.WithAttributeSet(attribute.NewSet(p...))
	return &failShape{attrs: f.attrs(), rec: []metric.RecordOption{point}, add: []metric.AddOption{point}, expected: f.expected}
}

// failShape returns the shape of k, kept while fewer than maxShapes are.
func (r *recorder) failShape(k failKey) *failShape {
	return cached(r.meters, &r.fails, k, newFailShape)
}

// cached returns m[k], made by mk the first time, and kept while m holds
// fewer than maxShapes (past it, one is made for each call).
func cached[K comparable, V any](r *meters, m *map[K]V, k K, mk func(K) V) V {
	r.mu.RLock()
	v, ok := (*m)[k]
	r.mu.RUnlock()
	if ok {
		return v
	}
	v = mk(k)
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := (*m)[k]; ok { // made meanwhile
		return old
	}
	if *m == nil {
		*m = map[K]V{}
	}
	if len(*m) < maxShapes {
		(*m)[k] = v
	}
	return v
}

func newRecorder(o *Options) *recorder {
	var opts Options
	if o != nil {
		opts = *o
	}
	tp, mp, prop := opts.TracerProvider, opts.MeterProvider, opts.Propagator
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	if prop == nil {
		prop = otel.GetTextMapPropagator()
	}
	return &recorder{meters: newMeters(mp), tracer: tp.Tracer(scope), prop: prop, fields: prop.Fields(), refusalSpans: opts.RefusalSpans}
}

// newMeters makes the instruments of mp.
func newMeters(mp metric.MeterProvider) *meters {
	m := mp.Meter(scope)
	r := &meters{}
	// An instrument that cannot be made is a no-op one: the meter returns
	// a usable instrument beside the error, and telemetry never stops a
	// server.
	r.opDur, _ = m.Float64Histogram(operationMetric, metric.WithUnit("s"),
		metric.WithDescription("MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	r.sessDur, _ = m.Float64Histogram(sessionMetric, metric.WithUnit("s"),
		metric.WithDescription("The duration of the MCP session as observed on the MCP server."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	r.failures, _ = m.Int64Counter(failureMetric, metric.WithUnit("{failure}"),
		metric.WithDescription("Failed MCP requests, by mcperr's kind and whether the failure is expected."))
	return r
}

// call is one request as the recorder sees it, from its start to its
// answer.
type call struct {
	method    string
	target    string // the tool or prompt name; "" when the method has none
	resource  string // the resource URI of a resources/* request
	id        string // the JSON-RPC id, when the SDK tells it
	protocol  string
	session   string
	transport string
	meta      map[string]any // the request's params._meta
	start     time.Time      // when the request was read; begin sets it if unset

	// Set by begin.
	r     *recorder
	shape *shape
	stamp bool        // the span starts later than the request: it takes start as its timestamp
	link  *trace.Link // the ambient span, when the span's parent is the one in _meta (else nil)
	span  trace.Span  // nil until the span starts (Enter)

	// opts is the room Enter makes a span's start options in: a call is
	// on the heap already, and the SDK keeps none of them. (A refusal
	// recorded without a span is the cheapest call: the call stays small.)
	opts [4]trace.SpanStartOption
}

// serverKind is the start option of every server span.
var serverKind = trace.WithSpanKind(trace.SpanKindServer)

// begin begins c. Its span is a child of the trace context in the
// request's _meta when there is one (linked to the ambient span, if any),
// else of ctx's span. A tools/call's span starts only when its handler is
// entered (adapter.Enter, which the returned context carries c for): a
// call refused before any handler runs, of an expected kind, records its
// metric points and no span (see end), unless the _meta's parent is
// sampled or Options.RefusalSpans is set, when it starts now as every other
// request's does. A call whose start is unset starts now.
func (r *recorder) begin(ctx context.Context, c *call) context.Context {
	k := shapeKey{method: c.method, target: c.target, protocol: c.protocol, transport: c.transport}
	c.r = r
	c.shape = cached(r.meters, &r.shapes, k, newShape)
	c.stamp = !c.start.IsZero()
	if !c.stamp {
		c.start = time.Now()
	}
	sampled := false
	if r.carries(c.meta) {
		remote := r.prop.Extract(context.Background(), metaCarrier(c.meta))
		if sc := trace.SpanContextFromContext(remote); sc.IsValid() {
			if ambient := trace.SpanContextFromContext(ctx); ambient.IsValid() {
				c.link = &trace.Link{SpanContext: ambient}
			}
			ctx = trace.ContextWithRemoteSpanContext(ctx, sc)
			sampled = sc.IsSampled()
		}
	}
	if c.method == "tools/call" && !sampled && !r.refusalSpans {
		c.stamp = true // a span started later keeps the request's start
		return adapter.WithEntry(ctx, c)
	}
	return c.Enter(ctx)
}

// Enter starts c's span, a child of ctx's, once; it returns ctx with the
// span. The adapters call it (adapter.Enter) when the handler of a call
// begun with an entry is about to run, before the call's end.
func (c *call) Enter(ctx context.Context) context.Context {
	if c.span != nil {
		return ctx
	}
	opts := c.shape.start
	if kv := c.attrs(); len(kv) > len(c.shape.attrs) || c.stamp || c.link != nil {
		// One option for all the attributes: the SDK grows its copy of
		// them at every option that adds some.
		opts = append(c.opts[:0], serverKind, trace.WithAttributes(kv...))
		if c.stamp {
			opts = append(opts, trace.WithTimestamp(c.start))
		}
		if c.link != nil {
			opts = append(opts, trace.WithLinks(*c.link))
		}
	}
	ctx, c.span = c.r.tracer.Start(ctx, c.shape.name, opts...)
	return ctx
}

// carries reports whether meta has a field the propagator reads
// (traceparent, with the default one): a request without one has no trace
// context to extract.
func (r *recorder) carries(meta map[string]any) bool {
	if len(meta) == 0 {
		return false
	}
	for _, f := range r.fields {
		if _, ok := meta[f]; ok {
			return true
		}
	}
	return false
}

// attrs are the conventions' attributes c's span starts with: its shape's,
// then the resource, the id and the session, when c has them; the shape's
// own slice when c has none of them.
func (c *call) attrs() []attribute.KeyValue {
	n := 0
	for _, v := range [...]string{c.resource, c.id, c.session} {
		if v != "" {
			n++
		}
	}
	if n == 0 {
		return c.shape.attrs
	}
	a := make([]attribute.KeyValue, 0, len(c.shape.attrs)+n)
	a = append(a, c.shape.attrs...)
	if c.resource != "" {
		a = append(a, attribute.String(attrResource, c.resource))
	}
	if c.id != "" {
		a = append(a, attribute.String(attrRequestID, c.id))
	}
	if c.session != "" {
		a = append(a, attribute.String(attrSession, c.session))
	}
	return a
}

// answer is how a request ended: a tool result's isError and text, or a
// JSON-RPC error, or a panic.
type answer struct {
	isError bool
	text    string // the result's text blocks, when isError
	rpc     bool   // a JSON-RPC error was sent
	code    int64
	message string
	data    json.RawMessage
	panic   bool // the handler panicked
}

// end records c's answer on its metrics and its span, and ends the span;
// ctx is the one begin returned. A call whose span has not started (its
// handler was not entered) gets one now, from its start, unless its
// answer is a refusal of an expected kind: that is recorded in the
// metrics alone.
func (r *recorder) end(ctx context.Context, c *call, a answer) {
	d := time.Since(c.start).Seconds()
	fs := r.read(c.shape, a)
	if fs == nil {
		r.opDur.Record(ctx, d, c.shape.ok...)
		if c.span == nil {
			c.Enter(ctx)
		}
		c.span.End()
		return
	}
	r.failures.Add(ctx, 1, fs.add...)
	r.opDur.Record(ctx, d, fs.rec...)
	if c.span == nil {
		if fs.expected {
			return
		}
		c.Enter(ctx)
	}
	c.span.SetAttributes(fs.attrs...)
	c.span.SetStatus(codes.Error, "")
	c.span.End()
}

// session records the end of a session that began at start.
func (r *recorder) session(ctx context.Context, start time.Time, protocol, transport string, err error) {
	a := make([]attribute.KeyValue, 0, 3)
	if protocol != "" {
		a = append(a, attribute.String(attrProtocol, protocol))
	}
	if transport != "" {
		a = append(a, attribute.String(attrTransport, transport))
	}
	if err != nil {
		a = append(a, attribute.String(attrErrorType, otherError))
	}
	r.sessDur.Record(ctx, time.Since(start).Seconds(), metric.WithAttributes(a...))
}

// failure is mcperr's reading of a failed answer.
type failure struct {
	panic    bool  // the handler panicked
	rpc      bool  // a JSON-RPC error was sent
	rpcCode  int64 // its code
	kind     errkind.Kind
	move     errkind.Move
	expected bool
	status   int
	code     string
	wait     time.Duration
	hasWait  bool
}

// maxText bounds the isError texts, and the JSON-RPC errors' message and
// data, whose reading is kept.
const maxText = 512

// textKey is what the isError answers of one shape and one text share.
type textKey struct {
	shape *shape
	text  string
}

// rpcKey is what the JSON-RPC error answers of one shape, code, message
// and data share.
type rpcKey struct {
	shape         *shape
	code          int64
	message, data string
}

// read returns the failShape of a, an answer of a call of shape sh, as
// readFailure reads it; nil for a success. An isError result's text and a
// JSON-RPC error's code, message and data (a refusal's, a handler error's:
// the same few answers again and again) are read once, and their failShape
// found with them in one look-up, for a text, or a message and data, of at
// most maxText bytes.
func (r *recorder) read(sh *shape, a answer) *failShape {
	switch {
	case a.panic:
	case a.rpc && len(a.message)+len(a.data) <= maxText:
		// The look-up is written out here, not left to cached: indexing a
		// map with string(a.data) in the key's literal is the form the
		// compiler looks up without copying the data (a kept answer costs
		// no allocation); the copy is made only to keep a new one.
		r.mu.RLock()
		fs, ok := r.rpcs[rpcKey{sh, a.code, a.message, string(a.data)}]
		r.mu.RUnlock()
		if ok {
			return fs
		}
		return cached(r.meters, &r.rpcs, rpcKey{sh, a.code, a.message, string(a.data)}, newRPCShape)
	case a.isError && !a.rpc && len(a.text) <= maxText:
		return cached(r.meters, &r.texts, textKey{sh, a.text}, newTextShape)
	}
	f, failed := readFailure(a)
	if !failed {
		return nil
	}
	return r.failShape(failKey{sh.key, f})
}

// newTextShape is the failShape of an isError result of k's shape whose
// text is k's.
func newTextShape(k textKey) *failShape {
	f, _ := readFailure(answer{isError: true, text: k.text})
	return newFailShape(failKey{k.shape.key, f})
}

// newRPCShape is the failShape of a JSON-RPC error of k's shape with k's
// code, message and data.
func newRPCShape(k rpcKey) *failShape {
	a := answer{rpc: true, code: k.code, message: k.message}
	if k.data != "" {
		a.data = json.RawMessage(k.data)
	}
	f, _ := readFailure(a)
	return newFailShape(failKey{k.shape.key, f})
}

// readFailure reads a; it reports false for a success.
func readFailure(a answer) (failure, bool) {
	switch {
	case a.panic:
		return failure{panic: true, kind: errkind.ServerError, move: errkind.Report}, true
	case a.rpc:
		f := failure{rpc: true, rpcCode: a.code}
		f.fill(errkind.Read(errkind.Outcome{RPCCode: errkind.RPCCode(a.code), Message: a.message, Data: a.data}))
		return f, true
	case a.isError:
		var f failure
		f.fill(errkind.Read(errkind.Outcome{IsError: true, Text: a.text}))
		return f, true
	}
	return failure{}, false
}

func (f *failure) fill(r errkind.Reading) {
	f.kind, f.move, f.wait, f.hasWait = r.Kind, r.Move, r.Wait, r.HasWait
	if f.kind == "" {
		f.kind = errkind.ServerError // a failure in no shape mcperr knows: the server's own
	}
	if r.Object != nil {
		f.status, f.code = r.Object.HTTPStatus, r.Object.Code
	}
	f.expected = adapter.Expected(f.kind)
}

// errorType is the conventions' error.type of f: the JSON-RPC code, or
// tool_error for an isError result, or _OTHER for a panic or an error
// without a code.
func (f *failure) errorType() string {
	switch {
	case f.panic || f.rpc && f.rpcCode == 0:
		return otherError
	case f.rpc:
		return strconv.FormatInt(f.rpcCode, 10)
	}
	return toolError
}

// attrs are mcperr's attributes of f, for its span.
func (f *failure) attrs() []attribute.KeyValue {
	a := make([]attribute.KeyValue, 0, 8)
	a = append(a,
		attribute.String(attrErrorType, f.errorType()),
		attribute.String(attrKind, string(f.kind)),
		attribute.Bool(attrExpected, f.expected),
	)
	if f.rpc {
		a = append(a, attribute.String(attrRPCStatus, strconv.FormatInt(f.rpcCode, 10)))
	}
	if f.move != "" {
		a = append(a, attribute.String(attrMove, string(f.move)))
	}
	if f.status != 0 {
		a = append(a, attribute.Int(attrStatus, f.status))
	}
	if f.code != "" {
		a = append(a, attribute.String(attrCode, f.code))
	}
	if f.hasWait {
		a = append(a, attribute.Float64(attrWait, f.wait.Seconds()))
	}
	return a
}

// metaCarrier reads the trace context fields of a request's params._meta,
// where SEP-414 puts them unprefixed (traceparent, tracestate, baggage).
type metaCarrier map[string]any

func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

func (m metaCarrier) Set(key, value string) { m[key] = value }

func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// idString is a JSON-RPC id's value as jsonrpc.request.id records it: a
// string id as itself, a number in its digits (7, not "int64:7" or 7.0).
func idString(id any) string {
	switch v := id.(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case interface{ Value() any }: // mcp-go's mcp.RequestId
		return idString(v.Value())
	}
	return fmt.Sprint(id)
}
