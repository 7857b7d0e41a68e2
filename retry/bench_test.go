package retry_test

import (
	"net/http"
	"testing"

	"github.com/mcperr/mcperr/retry"
)

// okRT answers every request with the same 200, allocating nothing, so a
// benchmark through it measures only the wrapper around it.
type okRT struct{ resp *http.Response }

func (t okRT) RoundTrip(*http.Request) (*http.Response, error) { return t.resp, nil }

func newOK() okRT {
	return okRT{&http.Response{StatusCode: 200, Header: http.Header{}, Body: http.NoBody}}
}

func TestTransportNoRetryAllocs(t *testing.T) {
	req, _ := http.NewRequest("GET", "http://upstream.test/", nil)
	for name, rt := range map[string]http.RoundTripper{
		"Transport":    &retry.Transport{Base: newOK()},
		"GetTransport": &retry.GetTransport{Base: newOK()},
	} {
		if n := testing.AllocsPerRun(1000, func() { rt.RoundTrip(req) }); n != 0 {
			t.Errorf("%s: %v allocations for a 200, want 0", name, n)
		}
	}
}

// BenchmarkNoRetry measures what each policy adds to a request that needs
// no retry: compare Transport and GetTransport with Base, the stub alone.
func BenchmarkNoRetry(b *testing.B) {
	req, _ := http.NewRequest("GET", "http://upstream.test/", nil)
	for _, bc := range []struct {
		name string
		rt   http.RoundTripper
	}{
		{"Base", newOK()},
		{"Transport", &retry.Transport{Base: newOK()}},
		{"GetTransport", &retry.GetTransport{Base: newOK()}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bc.rt.RoundTrip(req)
			}
		})
	}
}
