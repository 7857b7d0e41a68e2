package envelope_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

// leaks reports the secrets that e's kind object, its Error text or its
// Header shows.
func leaks(e *envelope.Error, secrets ...string) []string {
	var out []string
	text := string(e.AppendKindObject(nil)) + "\n" + e.Error() + "\n" + string(e.Body)
	for k, vs := range e.Header {
		text += "\n" + k + ": " + strings.Join(vs, ",")
	}
	for _, s := range secrets {
		if strings.Contains(text, s) {
			out = append(out, s)
		}
	}
	return out
}

// TestNetworkErrorNamesTheHost checks that a request that got no answer
// reads as network_error naming the method and the host: never the URL's
// query (where many APIs take their key), its path or its userinfo.
func TestNetworkErrorNamesTheHost(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(block)
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, u := range []string{
		srv.URL + "/internal/v2/slow?api_key=sk-live-4242abcd",
		"http://admin:hunter2pass@" + host + "/internal/v2/slow?token=tok-9876543",
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		err := reader().Do(req, nil)
		cancel()
		e := asError(t, err)
		if e.Kind != errkind.NetworkError {
			t.Fatalf("kind %s", e.Kind)
		}
		if got, want := e.Message, "GET "+host+": context deadline exceeded"; got != want {
			t.Errorf("message %q, want %q", got, want)
		}
		if l := leaks(e, "sk-live-4242abcd", "tok-9876543", "hunter2pass", "/internal/v2"); l != nil {
			t.Errorf("%s shows %q", e.AppendKindObject(nil), l)
		}
	}
}

// TestURLSecretsRedacted checks that a URL an upstream echoes has its
// userinfo and its secret query values redacted, by the parameter's name
// (api_key, token, X-Amz-Signature, client_secret, ...) or because the
// Reader was told the value is secret, while other query values stay.
func TestURLSecretsRedacted(t *testing.T) {
	var echo http.HandlerFunc = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		u := "https://api.example.com" + r.URL.RequestURI()
		io.WriteString(w, `{"error":{"code":"bad_request","message":"cannot GET `+u+`","details":{"next":"https://bob:pw-secret-77@cdn.example.com/x?X-Amz-Signature=abcdef0123&page=2"}}}`)
	}
	srv := httptest.NewServer(echo)
	defer srv.Close()
	tests := []struct {
		name, query string
		told        []string
		hidden      []string
		kept        []string
	}{
		{"api_key", "?api_key=sk-live-111111&q=golang", nil, []string{"sk-live-111111"}, []string{"q=golang"}},
		{"access_token", "?access_token=ya29.a0Af-222222", nil, []string{"ya29.a0Af-222222"}, nil},
		{"client_secret and sig", "?client_secret=cs-333333&sig=sig-444444&page=3", nil, []string{"cs-333333", "sig-444444"}, []string{"page=3"}},
		{"a parameter the Reader is told holds a secret", "?appid=owm-555555&units=metric", []string{"owm-555555"}, []string{"owm-555555"}, []string{"units=metric"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/search"+tt.query, nil)
			r := reader()
			r.Secrets = tt.told
			e := asError(t, r.Do(req, nil))
			if l := leaks(e, append(tt.hidden, "pw-secret-77", "abcdef0123")...); l != nil {
				t.Errorf("%s shows %q", e.AppendKindObject(nil), l)
			}
			for _, k := range append(tt.kept, "page=2", "cdn.example.com/x") {
				if !strings.Contains(string(e.AppendKindObject(nil)), k) {
					t.Errorf("%s lost %q", e.AppendKindObject(nil), k)
				}
			}
		})
	}
}

// TestCredentialHeadersByName checks that the value of a request field
// whose name says it holds a credential never shows, though the Reader's
// SecretHeaders do not list it: an upstream that echoes it back in its
// body or in a header of its answer.
func TestCredentialHeadersByName(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var vals []string
		for k, vs := range r.Header {
			if k != "User-Agent" && k != "Accept-Encoding" {
				vals = append(vals, k+"="+vs[0])
				w.Header().Set("X-Echo-"+k, vs[0])
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"code":"unauthenticated","message":"bad credentials: `+strings.Join(vals, " ")+`"}}`)
	}))
	defer srv.Close()
	for _, h := range []string{"X-Goog-Api-Key", "Api-Key", "Private-Token", "X-Auth-Token", "X-Amz-Security-Token", "Ocp-Apim-Subscription-Key", "X-Client-Secret", "Cookie"} {
		t.Run(h, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
			secret := "cred-" + strings.ToLower(h) + "-0987654321"
			if h == "Cookie" {
				req.Header.Set(h, "session="+secret)
			} else {
				req.Header.Set(h, secret)
			}
			req.Header.Set("Idempotency-Key", "idem-123456")
			e := asError(t, reader().Do(req, nil))
			if e.Kind != errkind.AuthenticationFailed {
				t.Errorf("kind %s", e.Kind)
			}
			if l := leaks(e, secret); l != nil {
				t.Errorf("%s shows %q", e.AppendKindObject(nil), l)
			}
			if !strings.Contains(e.Message, "idem-123456") {
				t.Errorf("an Idempotency-Key is no credential, yet %q lost it", e.Message)
			}
		})
	}
}

// TestErrorOfRedactsURLs checks that ErrorOf, on a *url.Error an API
// client returned, names the host only.
func TestErrorOfRedactsURLs(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(50 * time.Millisecond)
	}))
	defer srv.Close()
	c := &http.Client{Timeout: 5 * time.Millisecond}
	_, err := c.Get(srv.URL + "/slow?api_key=sk-live-ffffeeee")
	e, ok := envelope.ErrorOf(err)
	if !ok || e.Kind != errkind.NetworkError || strings.Contains(e.Message, "/slow") {
		t.Fatalf("ErrorOf(%v) = %v, %v", err, e, ok)
	}
	if l := leaks(e, "sk-live-ffffeeee"); l != nil {
		t.Errorf("%s shows %q", e.AppendKindObject(nil), l)
	}
}
