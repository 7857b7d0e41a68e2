package envelope_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// mayHaveActed reports whether e reads as the failure of a request that
// may have acted: kind conflict, whose move reads the resource back, and
// details that say so.
func mayHaveActed(e *envelope.Error) bool {
	var d struct {
		MayHaveActed bool `json:"mayHaveActed"`
	}
	json.Unmarshal(e.Details, &d)
	return e.Kind == errkind.Conflict && d.MayHaveActed && strings.Contains(e.Message, "may have acted")
}

// TestWritesThatMayHaveActed checks, through Reader.Do, that a request
// that may act (POST or PATCH without an Idempotency-Key, or a method the
// Reader's Writes name) and failed after it was sent (a timeout, a reset,
// a gateway's 502 or 504) reads as a failure that may have acted, whose
// move is not retry_safe; and that a read, an idempotent write, and a
// write that never left (a refused connection) do not.
func TestWritesThatMayHaveActed(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		switch r.URL.Path {
		case "/hang":
			select {
			case <-block:
			case <-r.Context().Done():
			}
		case "/reset":
			c, _, _ := w.(http.Hijacker).Hijack()
			c.(*net.TCPConn).SetLinger(0)
			c.Close()
		case "/504":
			w.WriteHeader(http.StatusGatewayTimeout)
		case "/502":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			io.WriteString(w, "<html>bad gateway</html>")
		case "/503":
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + ln.Addr().String()
	ln.Close()

	tests := []struct {
		name, method, url string
		header            string // an Idempotency-Key when set
		writes            []string
		acted             bool
		kind              errkind.Kind // when not acted
	}{
		{"a POST that timed out", "POST", srv.URL + "/hang", "", nil, true, ""},
		{"a PATCH whose connection was reset", "PATCH", srv.URL + "/reset", "", nil, true, ""},
		{"a POST answered 504", "POST", srv.URL + "/504", "", nil, true, ""},
		{"a POST answered a 502 page", "POST", srv.URL + "/502", "", nil, true, ""},
		{"a POST answered 503 was not acted on", "POST", srv.URL + "/503", "", nil, false, errkind.Unavailable},
		{"a GET that timed out is safe", "GET", srv.URL + "/hang", "", nil, false, errkind.NetworkError},
		{"a PUT answered 504 is idempotent", "PUT", srv.URL + "/504", "", nil, false, errkind.Unavailable},
		{"a PUT the Reader's Writes name", "PUT", srv.URL + "/504", "", []string{"PUT", "POST"}, true, ""},
		{"a POST with an Idempotency-Key is safe", "POST", srv.URL + "/hang", "k-1", nil, false, errkind.NetworkError},
		{"a POST that was refused never left", "POST", refused + "/x", "", nil, false, errkind.NetworkError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, tt.method, tt.url, strings.NewReader(`{"amount":100}`))
			if tt.header != "" {
				req.Header.Set("Idempotency-Key", tt.header)
			}
			r := reader()
			r.Writes = tt.writes
			e := asError(t, r.Do(req, nil))
			if got := mayHaveActed(e); got != tt.acted {
				t.Fatalf("may have acted = %v, want %v: %s", got, tt.acted, e.AppendKindObject(nil))
			}
			if !tt.acted && e.Kind != tt.kind {
				t.Errorf("kind %s, want %s", e.Kind, tt.kind)
			}
			if move := (*errkind.Taxonomy)(nil).Advise(e.Kind).Move; tt.acted && move == errkind.RetrySafe {
				t.Errorf("move %s for a write that may have acted", move)
			}
			if tt.acted && strings.Contains(tt.url, "hang") && !errors.Is(e, context.DeadlineExceeded) {
				t.Errorf("errors.Is(context.DeadlineExceeded) = false for %v", e)
			}
		})
	}
}

// TestErrorOfWrites checks that ErrorOf reads a *url.Error of a POST that
// failed after it could have been written as one that may have acted, and
// one of a dial that failed as a plain network_error.
func TestErrorOfWrites(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so that the server sees the client go
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	c := &http.Client{Timeout: 20 * time.Millisecond}
	_, err := c.Post(srv.URL+"/loans", "application/json", strings.NewReader(`{}`))
	if e, ok := envelope.ErrorOf(err); !ok || !mayHaveActed(e) {
		t.Errorf("POST timed out: ErrorOf = %v, %v", e, ok)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + ln.Addr().String()
	ln.Close()
	// Not c: a loaded machine may not finish even a refused dial within
	// c's 20 ms, and a timeout cannot tell that nothing was sent.
	_, err = (&http.Client{Timeout: 10 * time.Second}).Post(refused+"/loans", "application/json", strings.NewReader(`{}`))
	if e, ok := envelope.ErrorOf(err); !ok || e.Kind != errkind.NetworkError {
		t.Errorf("POST refused: ErrorOf = %v, %v", e, ok)
	}
}
