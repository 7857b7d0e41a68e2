package envelope

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcperr/mcperr/internal/failures"
)

// chunked reads its bytes n at a time.
type chunked struct {
	b []byte
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	k := min(len(p), c.n, len(c.b))
	copy(p, c.b[:k])
	c.b = c.b[k:]
	return k, nil
}

// keptOf streams body through a Transport's watch in reads of n bytes and
// returns the failure it kept, if any.
func keptOf(t *testing.T, body []byte, n int) (string, bool) {
	base := roundTrip(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(&chunked{append([]byte(nil), body...), n}), Request: r}, nil
	})
	ctx, list := failures.With(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://api.example/graphql", nil)
	resp, err := (&Transport{Base: base}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(got) != string(body) {
		t.Fatalf("the body changed on its way: %q, %v", got, err)
	}
	kept := list.Kept()
	if len(kept) == 0 {
		return "", false
	}
	return string(kept[0].Err.(*Error).AppendKindObject(nil)), true
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// FuzzTransportWatch checks that a 2xx body passes through the Transport
// unchanged, and that what it keeps of a GraphQL errors member does not
// depend on the sizes of the reads the body comes in.
func FuzzTransportWatch(f *testing.F) {
	f.Add([]byte(`{"data":null,"errors":[{"type":"NOT_FOUND","message":"gone"}]}`), 3)
	f.Add([]byte(`{"errors" : [{"message":"x","extensions":{"code":"RATE_LIMITED"}}], "data":{"a":1}}`), 1)
	f.Add([]byte(`{"data":{"errors":[]}}`), 7)
	f.Add([]byte(`{"errors":`), 2)
	f.Fuzz(func(t *testing.T, body []byte, n int) {
		if n <= 0 || n > 1<<16 || len(body) > 1<<16 {
			return
		}
		whole, okWhole := keptOf(t, body, len(body)+1)
		split, okSplit := keptOf(t, body, n)
		if okWhole != okSplit || whole != split {
			t.Errorf("reads of %d bytes keep %q (%v), whole reads %q (%v)", n, split, okSplit, whole, okWhole)
		}
	})
}

// FuzzScrubURLs checks that no URL keeps a secret query value or its
// userinfo, whatever text surrounds it, and that text with no URL is left
// as it is.
func FuzzScrubURLs(f *testing.F) {
	f.Add("Get \"", "/v1/x", "\": context deadline exceeded")
	f.Add("see <", "", ">")
	f.Add("", "/a?b=c&", "#frag")
	f.Add("WS://", "0", "0")  // a URL inside another's authority
	f.Add("", "/r?next=", "") // a URL inside another's query
	f.Fuzz(func(t *testing.T, before, path, after string) {
		const secret = "SECRETVALUE42"
		if strings.Contains(before+path+after, "SECRET") {
			return
		}
		if !strings.Contains(before+path+after, "://") {
			if got := scrubURLs(before+path+after, nil, false); got != before+path+after {
				t.Errorf("text with no URL changed: %q", got)
			}
		}
		if strings.ContainsAny(path, " \t\r\n\"'<>`\\{}|^#\x7f") || strings.ContainsFunc(path, func(r rune) bool { return r < 0x20 }) {
			return // the URL would end inside path
		}
		s := before + "https://user:" + secret + "@api.example.com" + path + "?x=1&api_key=" + secret + "&token=" + secret + after
		for _, hostOnly := range []bool{false, true} {
			if got := scrubURLs(s, nil, hostOnly); strings.Contains(got, secret) {
				t.Errorf("scrubURLs(%q, %v) = %q", s, hostOnly, got)
			}
		}
	})
}

// TestErrorOfAllocatesNothing checks that an error that carries no
// upstream failure costs ErrorOf no allocation.
func TestErrorOfAllocatesNothing(t *testing.T) {
	// The readers an Example registered do their own work.
	p := readers.Load()
	readers.Store(nil)
	defer readers.Store(p)
	for _, err := range []error{errors.New("boom"), fmt.Errorf("x: %w", io.EOF), errors.Join(io.EOF, context.Canceled)} {
		if n := testing.AllocsPerRun(100, func() { ErrorOf(err) }); n != 0 {
			t.Errorf("ErrorOf(%v) allocates %v times", err, n)
		}
	}
}

// TestNestedURLSecretsRedacted checks that a URL written inside another
// one (in its query, or right after its scheme) has its own userinfo
// redacted: a URL ends where the next one's scheme starts.
func TestNestedURLSecretsRedacted(t *testing.T) {
	for _, s := range []string{
		"WS://https://user:pw-nested-1@api.example.com/x",
		"see https://a.example.com/login?next=https://bob:pw-nested-1@b.example.com/ for more",
		"http://h.example.com/p/wss://eve:pw-nested-1@c.example.com",
	} {
		for _, hostOnly := range []bool{false, true} {
			if got := scrubURLs(s, nil, hostOnly); strings.Contains(got, "pw-nested-1") {
				t.Errorf("scrubURLs(%q, %v) = %q", s, hostOnly, got)
			}
		}
	}
}
