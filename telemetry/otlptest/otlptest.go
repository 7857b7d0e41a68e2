// Package otlptest is an OTLP/HTTP endpoint for tests: it decodes, with the
// OTLP protobuf definitions, the spans and metric points a program exports,
// so a test can check what a server really sends a collector.
//
//	rcv := otlptest.NewReceiver()
//	defer rcv.Close()
//	cmd.Env = append(os.Environ(), "OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL)
//	... run the program ...
//	for _, s := range rcv.Spans() { ... }
package otlptest

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"

	collmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	colltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/protobuf/proto"
)

// maxBody bounds one export request the Receiver reads.
const maxBody = 64 << 20

// A Receiver is an OTLP/HTTP endpoint (POST /v1/traces, /v1/metrics, in
// binary protobuf, gzip or not) on a loopback port.
type Receiver struct {
	// URL is the endpoint's base URL, the value for
	// OTEL_EXPORTER_OTLP_ENDPOINT.
	URL string

	srv     *httptest.Server
	mu      sync.Mutex
	spans   []Span
	metrics []Metric
}

// A Span is one exported span, its attributes as strings.
type Span struct {
	Service string // the resource's service.name
	Name    string
	Kind    string // SPAN_KIND_SERVER, SPAN_KIND_CLIENT, ...
	TraceID []byte
	SpanID  []byte
	Parent  []byte // the parent span's id; empty for a root span
	Attrs   map[string]string
	Error   bool // the span's status is ERROR
}

// A Metric is one exported data point, its attributes as strings.
type Metric struct {
	Name  string
	Attrs map[string]string
	Count uint64  // a histogram point's count
	Value float64 // a sum or gauge point's value
}

// NewReceiver starts a Receiver.
func NewReceiver() *Receiver {
	r := &Receiver{}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	r.URL = r.srv.URL
	return r
}

// Close stops the Receiver.
func (r *Receiver) Close() { r.srv.Close() }

// Spans returns the spans received so far, in the order they arrived.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Span(nil), r.spans...)
}

// Metrics returns the metric points received so far.
func (r *Receiver) Metrics() []Metric {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Metric(nil), r.metrics...)
}

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request) {
	var body io.Reader = http.MaxBytesReader(w, req.Body, maxBody)
	if req.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	b, err := io.ReadAll(io.LimitReader(body, maxBody))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var out proto.Message
	switch req.URL.Path {
	case "/v1/traces":
		var m colltrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(b, &m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.addSpans(&m)
		out = &colltrace.ExportTraceServiceResponse{}
	case "/v1/metrics":
		var m collmetrics.ExportMetricsServiceRequest
		if err := proto.Unmarshal(b, &m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.addMetrics(&m)
		out = &collmetrics.ExportMetricsServiceResponse{}
	default:
		http.NotFound(w, req)
		return
	}
	resp, _ := proto.Marshal(out)
	w.Header().Set("Content-Type", "application/x-protobuf")
	io.Copy(w, bytes.NewReader(resp))
}

func (r *Receiver) addSpans(m *colltrace.ExportTraceServiceRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range m.ResourceSpans {
		service := attrs(rs.GetResource().GetAttributes())["service.name"]
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				r.spans = append(r.spans, Span{
					Service: service, Name: s.Name, Kind: s.Kind.String(),
					TraceID: s.TraceId, SpanID: s.SpanId, Parent: s.ParentSpanId,
					Attrs: attrs(s.Attributes), Error: s.GetStatus().GetCode() == 2,
				})
			}
		}
	}
}

func (r *Receiver) addMetrics(m *collmetrics.ExportMetricsServiceRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rm := range m.ResourceMetrics {
		for _, sm := range rm.ScopeMetrics {
			for _, mt := range sm.Metrics {
				for _, p := range mt.GetHistogram().GetDataPoints() {
					r.metrics = append(r.metrics, Metric{Name: mt.Name, Attrs: attrs(p.Attributes), Count: p.Count})
				}
				for _, p := range mt.GetSum().GetDataPoints() {
					r.metrics = append(r.metrics, Metric{Name: mt.Name, Attrs: attrs(p.Attributes), Value: number(p.GetAsDouble(), p.GetAsInt())})
				}
				for _, p := range mt.GetGauge().GetDataPoints() {
					r.metrics = append(r.metrics, Metric{Name: mt.Name, Attrs: attrs(p.Attributes), Value: number(p.GetAsDouble(), p.GetAsInt())})
				}
			}
		}
	}
}

func number(d float64, i int64) float64 {
	if d != 0 {
		return d
	}
	return float64(i)
}

// attrs renders kvs as strings: a string as it is, other values as the
// protobuf text of their value.
func attrs(kvs []*commonpb.KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		v := kv.GetValue()
		switch x := v.GetValue().(type) {
		case *commonpb.AnyValue_StringValue:
			m[kv.Key] = x.StringValue
		case *commonpb.AnyValue_BoolValue:
			if x.BoolValue {
				m[kv.Key] = "true"
			} else {
				m[kv.Key] = "false"
			}
		case *commonpb.AnyValue_IntValue:
			m[kv.Key] = itoa(x.IntValue)
		case *commonpb.AnyValue_DoubleValue:
			m[kv.Key] = ftoa(x.DoubleValue)
		default:
			m[kv.Key] = v.String()
		}
	}
	return m
}

func itoa(i int64) string   { return strconv.FormatInt(i, 10) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
