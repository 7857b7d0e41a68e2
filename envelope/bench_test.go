package envelope_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/wire"
)

// A success body shaped like a search result: a few top-level fields and a
// list of items.
type benchItem struct {
	ID       string            `json:"id"`
	Title    string            `json:"title"`
	Score    float64           `json:"score"`
	Tags     []string          `json:"tags"`
	Attrs    map[string]string `json:"attrs"`
	Children []int             `json:"children"`
}

type benchPage struct {
	Total   int         `json:"total"`
	HasMore bool        `json:"has_more"`
	Cursor  string      `json:"cursor"`
	Items   []benchItem `json:"items"`
}

// benchBody returns a JSON success body of about size bytes.
func benchBody(size int) []byte {
	var p benchPage
	p.Cursor = "c_0123456789abcdef"
	for i := 0; ; i++ {
		p.Items = append(p.Items, benchItem{
			ID:       fmt.Sprintf("it_%08x", i),
			Title:    fmt.Sprintf("Item number %d with a title of moderate length", i),
			Score:    float64(i) * 0.75,
			Tags:     []string{"alpha", "beta", "gamma"},
			Attrs:    map[string]string{"owner": "team-a", "region": "eu-west"},
			Children: []int{i, i + 1, i + 2},
		})
		p.Total = len(p.Items)
		b, _ := json.Marshal(p)
		if len(b) >= size {
			return b
		}
	}
}

var benchEnvelope = []byte(`{"error":{"code":"trace_not_found","message":"no trace with id deadbeefdeadbeefdeadbeefdeadbeef","details":{"trace_id":"deadbeefdeadbeefdeadbeefdeadbeef"}}}`)

// envelopeType is what a caller would unmarshal the envelope into by hand.
type envelopeType struct {
	Error struct {
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Details json.RawMessage `json:"details"`
	} `json:"error"`
}

type resettable struct{ bytes.Reader }

func (*resettable) Close() error { return nil }

func benchRead(b *testing.B, status int, body []byte, v func() any) {
	var r envelope.Reader
	rc := &resettable{}
	resp := &http.Response{StatusCode: status, ContentLength: int64(len(body)), Header: http.Header{
		"Content-Type":   {"application/json"},
		"Date":           {"Mon, 30 Nov 2026 08:00:00 GMT"},
		"Content-Length": {fmt.Sprint(len(body))},
	}}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		rc.Reset(body)
		resp.Body = rc
		err := r.Read(resp, v())
		if (status < 400) != (err == nil) {
			b.Fatal(err)
		}
	}
}

func benchUnmarshal(b *testing.B, body []byte, v func() any) {
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if err := json.Unmarshal(body, v()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRead measures Reader.Read; BenchmarkUnmarshal is its anchor, a
// plain json.Unmarshal of the same body into the same type.
func BenchmarkRead(b *testing.B) {
	b.Run("success-1KiB", func(b *testing.B) { benchRead(b, 200, benchBody(1<<10), func() any { return new(benchPage) }) })
	b.Run("success-64KiB", func(b *testing.B) { benchRead(b, 200, benchBody(64<<10), func() any { return new(benchPage) }) })
	b.Run("success-1KiB-mentions-error", func(b *testing.B) {
		benchRead(b, 200, mentionError(benchBody(1<<10)), func() any { return new(benchPage) })
	})
	b.Run("success-64KiB-mentions-error", func(b *testing.B) {
		benchRead(b, 200, mentionError(benchBody(64<<10)), func() any { return new(benchPage) })
	})
	sink := new(benchPage) // an error read leaves the success value unused
	b.Run("error", func(b *testing.B) { benchRead(b, 404, benchEnvelope, func() any { return sink }) })
	b.Run("error-dialect", func(b *testing.B) { benchRead(b, 404, benchDialect, func() any { return sink }) })
}

// benchDialect is an error body in a dialect other than the envelope:
// GitHub's {"message"} with a documentation link.
var benchDialect = []byte(`{"message":"Not Found","documentation_url":"https://docs.github.com/rest/repos/repos#get-a-repository","status":"404"}`)

// dialectType is what a caller would unmarshal benchDialect into by hand.
type dialectType struct {
	Message          string `json:"message"`
	DocumentationURL string `json:"documentation_url"`
	Status           string `json:"status"`
}

func BenchmarkUnmarshal(b *testing.B) {
	b.Run("success-1KiB", func(b *testing.B) { benchUnmarshal(b, benchBody(1<<10), func() any { return new(benchPage) }) })
	b.Run("success-64KiB", func(b *testing.B) { benchUnmarshal(b, benchBody(64<<10), func() any { return new(benchPage) }) })
	b.Run("success-1KiB-mentions-error", func(b *testing.B) {
		benchUnmarshal(b, mentionError(benchBody(1<<10)), func() any { return new(benchPage) })
	})
	b.Run("success-64KiB-mentions-error", func(b *testing.B) {
		benchUnmarshal(b, mentionError(benchBody(64<<10)), func() any { return new(benchPage) })
	})
	b.Run("error", func(b *testing.B) { benchUnmarshal(b, benchEnvelope, func() any { return new(envelopeType) }) })
	b.Run("error-dialect", func(b *testing.B) { benchUnmarshal(b, benchDialect, func() any { return new(dialectType) }) })
}

// mentionError puts "error" in the body's last item, so Read must scan the
// top level to see that it is not the envelope.
func mentionError(body []byte) []byte {
	return []byte(strings.Replace(string(body), `"owner"`, `"error"`, 1))
}

func BenchmarkErrorResult(b *testing.B) {
	var r envelope.Reader
	err := r.Read(&http.Response{StatusCode: 404, Body: io.NopCloser(bytes.NewReader(benchEnvelope))}, nil)
	b.ReportAllocs()
	for b.Loop() {
		wire.ErrorResult(err)
	}
}
