package adapter_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/wire"
)

// TestAddrKey: an IPv4 address is its own key, an IPv6 address is keyed by
// its /64 prefix (an IPv4-mapped one as IPv4, a zone dropped), and a string
// that is no address is kept as it is.
func TestAddrKey(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::ffff", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"::1", "::/64"},
		{"::ffff:192.0.2.7", "192.0.2.7"},
		{"fe80::1%eth0", "fe80::/64"},
		{"", ""},
		{"proxy-subject-42", "proxy-subject-42"},
	} {
		if got := adapter.AddrKey(c.addr); got != c.want {
			t.Errorf("AddrKey(%q) = %q, want %q", c.addr, got, c.want)
		}
	}
}

// TestSourceKey: the key of a request is its source address by AddrKey,
// without the port.
func TestSourceKey(t *testing.T) {
	var got []string
	for _, remote := range []string{"192.0.2.7:443", "[2001:db8:1:2::9]:5000", "[2001:db8:1:2::a]:5000", "no-port"} {
		r := httptest.NewRequest("POST", "http://localhost/mcp", nil)
		r.RemoteAddr = remote
		got = append(got, adapter.SourceKey(r))
	}
	if diff := cmp.Diff([]string{"192.0.2.7", "2001:db8:1:2::/64", "2001:db8:1:2::/64", "no-port"}, got); diff != "" {
		t.Errorf("SourceKey (-want +got):\n%s", diff)
	}
}

// TestSessionKey: the sessions' bound counts per key: by default every
// address of one IPv6 /64 is one client, another /64 another; a Key of the
// server's own is the only key used, whatever the address.
func TestSessionKey(t *testing.T) {
	byHeader := func(r *http.Request) string { return r.Header.Get("X-Subject") }
	for _, c := range []struct {
		name string
		key  func(*http.Request) string
		from [][2]string // the source address and the X-Subject of each initialize
		want []int
	}{
		{"one /64 is one client", nil,
			[][2]string{{"[2001:db8:1:2::1]:1", ""}, {"[2001:db8:1:2::2]:1", ""}, {"[2001:db8:1:2:ffff::3]:1", ""}, {"[2001:db8:1:3::1]:1", ""}},
			[]int{200, 200, 429, 200}},
		{"IPv4 addresses are clients of their own", nil,
			[][2]string{{"192.0.2.1:1", ""}, {"192.0.2.1:2", ""}, {"192.0.2.1:3", ""}, {"192.0.2.2:1", ""}},
			[]int{200, 200, 429, 200}},
		{"the server's Key, not the address", byHeader,
			[][2]string{{"192.0.2.1:1", "alice"}, {"192.0.2.2:1", "alice"}, {"192.0.2.3:1", "alice"}, {"192.0.2.1:1", "bob"}},
			[]int{200, 200, 429, 200}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := &adapter.HTTP{MaxSessions: 2, Key: c.key}
			h := o.Handler(adapter.Backend{SDK: &sessionSDK{}, Sessions: o.Sessions(0)})
			var got []int
			for _, f := range c.from {
				r := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
				r.RemoteAddr = f[0]
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("X-Subject", f[1])
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				got = append(got, w.Code)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("initialize statuses (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLimitKey: a Limit without a Key keys its buckets as SourceKey does:
// two addresses of one IPv6 /64 share one bucket, another /64 has its own.
func TestLimitKey(t *testing.T) {
	l := &adapter.Limit{Limiter: ratelimit.NewLimiter(0.001, 1), Count: adapter.Messages}
	var got []bool
	for _, remote := range []string{"[2001:db8:1:2::1]:1", "[2001:db8:1:2::2]:1", "[2001:db8:1:3::1]:1"} {
		r := httptest.NewRequest("POST", "http://localhost/mcp", nil)
		r.RemoteAddr = remote
		got = append(got, l.Admit(httptest.NewRecorder(), r, &wire.Message{Type: wire.RequestMessage, ID: json.RawMessage("1"), Method: "ping"}))
	}
	if diff := cmp.Diff([]bool{true, false, true}, got); diff != "" {
		t.Errorf("admitted (-want +got):\n%s", diff)
	}
}

// sessionSDK opens a session for each initialize.
type sessionSDK struct{ n int }

func (s *sessionSDK) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.n++
	w.Header().Set("Mcp-Session-Id", fmt.Sprint("s", s.n))
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
}

// A server behind a proxy it trusts keys its clients on the address the
// proxy reports, with the rule the default key applies to the source
// address: IPv6 by its /64 prefix.
func ExampleAddrKey() {
	key := func(r *http.Request) string {
		if ip := r.Header.Get("X-Real-IP"); ip != "" { // set by the proxy, never passed on from a client
			return adapter.AddrKey(ip)
		}
		return adapter.SourceKey(r)
	}
	_ = adapter.HTTP{Key: key}

	r := httptest.NewRequest("POST", "http://localhost/mcp", nil)
	r.RemoteAddr = "10.0.0.2:41000" // the proxy
	for _, ip := range []string{"203.0.113.9", "2001:db8:7:8:1:2:3:4", ""} {
		r.Header.Set("X-Real-IP", ip)
		fmt.Println(key(r))
	}
	// Output:
	// 203.0.113.9
	// 2001:db8:7:8::/64
	// 10.0.0.2
}
