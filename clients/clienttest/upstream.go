package clienttest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// An Answer is one documented answer of an upstream API. In a header
// value, "{reset+N}" stands for the epoch second N seconds after the time
// of the answer, for the reset fields of a rate limit.
type Answer struct {
	Status int
	Header map[string]string
	Body   string // sent as application/json unless Header says its type
}

// An Upstream is a local fake of an API, on loopback, that gives its
// answer to every request and counts the requests it got.
type Upstream struct {
	*httptest.Server
	hits  atomic.Int32
	delay atomic.Int64
	stop  chan struct{} // closed when the test ends, to end stalled requests
}

// Serve starts an Upstream that gives a to every request, closed when the
// test ends.
func Serve(t testing.TB, a Answer) *Upstream {
	u := &Upstream{stop: make(chan struct{})}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.hits.Add(1)
		if d := time.Duration(u.delay.Load()); d > 0 {
			select {
			case <-time.After(d):
			case <-r.Context().Done():
				return
			case <-u.stop:
				return
			}
		}
		for k, v := range a.Header {
			if n, ok := strings.CutPrefix(v, "{reset+"); ok {
				secs, _ := strconv.Atoi(strings.TrimSuffix(n, "}"))
				v = strconv.FormatInt(time.Now().Add(time.Duration(secs)*time.Second).Unix(), 10)
			}
			w.Header().Set(k, v)
		}
		if a.Body != "" && w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(a.Status)
		fmt.Fprint(w, a.Body)
	}))
	t.Cleanup(func() { close(u.stop); u.Close() })
	return u
}

// Hits returns how many requests u got.
func (u *Upstream) Hits() int { return int(u.hits.Load()) }

// Stall makes u hold each later request for d before it answers (or until
// the client gives up), for the timeout of a client.
func (u *Upstream) Stall(d time.Duration) { u.delay.Store(int64(d)) }
