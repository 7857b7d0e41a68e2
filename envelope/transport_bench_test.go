package envelope_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/internal/failures"
)

// BenchmarkTransport64KiB measures a 64 KiB JSON success call over
// loopback with a plain transport and with envelope.Transport under the
// client, in a tool call's context (where it watches the body). The
// bound (issue 27) is at most 5% added.
func BenchmarkTransport64KiB(b *testing.B) {
	body := `{"items":[` + strings.Repeat(`{"id":1234567,"name":"an item","tags":["a","b"]},`, 64<<10/50) + `{"id":0}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	defer srv.Close()
	run := func(b *testing.B, client *http.Client) {
		ctx, _ := failures.With(context.Background())
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
			resp, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	b.Run("plain", func(b *testing.B) { run(b, &http.Client{Transport: http.DefaultTransport}) })
	b.Run("envelope", func(b *testing.B) { run(b, &http.Client{Transport: &envelope.Transport{}}) })
	b.Run("envelope-graphql", func(b *testing.B) { run(b, &http.Client{Transport: &envelope.Transport{GraphQL: true}}) })
}

// BenchmarkTransportWatch64KiB measures the Transport's own work on a
// 64 KiB JSON success body, with no network: a base that answers from
// memory, read in the 32 KiB reads io.Copy makes, against that base alone.
func BenchmarkTransportWatch64KiB(b *testing.B) {
	body := []byte(`{"items":[` + strings.Repeat(`{"id":1234567,"name":"an item","tags":["a","b"]},`, 64<<10/50) + `{"id":0}]}`)
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(string(body))), Request: r}, nil
	})
	run := func(b *testing.B, rt http.RoundTripper) {
		ctx, _ := failures.With(context.Background())
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://api.example/x", nil)
		if t, ok := rt.(*envelope.Transport); ok && t.GraphQL {
			req.URL.Path = "/graphql"
		}
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			resp, _ := rt.RoundTrip(req)
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	b.Run("base", func(b *testing.B) { run(b, base) })
	b.Run("envelope", func(b *testing.B) { run(b, &envelope.Transport{Base: base}) })
	b.Run("envelope-graphql", func(b *testing.B) { run(b, &envelope.Transport{Base: base, GraphQL: true}) })
}
