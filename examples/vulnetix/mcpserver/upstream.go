package mcpserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/ratelimit/header"
	"github.com/mcperr/mcperr/retry"
	"github.com/mcperr/mcperr/wire"
)

// Upstream is what _meta["vulnetix/upstream"] reports about the vdb-api
// calls one tool call made.
type Upstream struct {
	Calls  int   `json:"calls"`  // HTTP requests sent, retries included
	MS     int64 `json:"ms"`     // wall time spent waiting for vdb-api
	Bytes  int64 `json:"bytes"`  // data bytes received: bodies of successful responses (an error's body is not data)
	Cached bool  `json:"cached"` // served from a cache (this server keeps none)
}

// account collects the upstream figures and the plan of one tool call. It
// travels in the context so the transport under the retry can count every
// attempt.
type account struct {
	mu   sync.Mutex
	up   Upstream
	plan string
}

type accountKey struct{}

func withAccount(ctx context.Context, a *account) context.Context {
	return context.WithValue(ctx, accountKey{}, a)
}

func accountOf(ctx context.Context) *account {
	a, _ := ctx.Value(accountKey{}).(*account)
	return a
}

func (a *account) snapshot() (Upstream, string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	plan := a.plan
	if plan == "" {
		plan = "unknown"
	}
	return a.up, plan
}

// counting is the transport under the GET retry: it counts every attempt
// in the call's account.
type counting struct{ base http.RoundTripper }

func (c counting) RoundTrip(req *http.Request) (*http.Response, error) {
	if a := accountOf(req.Context()); a != nil {
		a.mu.Lock()
		a.up.Calls++
		a.mu.Unlock()
	}
	return c.base.RoundTrip(req)
}

// planRE is what a plan name looks like; anything else is not reported.
var planRE = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// vdb is the vdb-api client.
type vdb struct {
	base   *url.URL
	client *http.Client
	reader envelope.Reader
}

func newVDB(base *url.URL, rt http.RoundTripper, timeout time.Duration, now func() time.Time) *vdb {
	if rt == nil {
		rt = upstreamTransport()
	}
	return &vdb{
		base: base,
		client: &http.Client{
			Transport: &retry.GetTransport{Base: counting{rt}},
			Timeout:   timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse // never carry the key to another host
			},
		},
		reader: envelope.Reader{Taxonomy: Taxonomy(), MaxBytes: MaxRaw, Now: now},
	}
}

// upstreamTransport is http.DefaultTransport with enough idle connections
// kept per host for every call in flight to reuse one. The default keeps 2:
// under 64 concurrent tool calls the other 62 connections were closed after
// each answer and dialled again for the next, which left thousands of
// sockets in TIME-WAIT and put a TCP handshake in most calls' latency.
func upstreamTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 256
	t.MaxIdleConnsPerHost = 256
	return t
}

// get sends GET base+path (path may carry a query) with the caller's key and
// decodes the JSON body into v (v nil: only check it is JSON). It returns the
// raw body. tooLarge words the failure of a body over MaxRaw; nil means
// TooLarge for path.
func (c *vdb) get(ctx context.Context, key, path string, v any, tooLarge func(n string) *Failure) ([]byte, *Failure) {
	if c.base == nil {
		return nil, fail(NetworkFailure, "VULNETIX_API_URL is not configured on this server.")
	}
	u, err := c.resolve(path)
	if err != nil {
		return nil, fail(NetworkFailure, "the path does not parse as a URL.")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fail(NetworkFailure, "the request could not be built.")
	}
	req.Header.Set("Accept", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	acct := accountOf(ctx)
	start := time.Now()
	resp, err := c.client.Do(req)
	if acct != nil {
		defer func() {
			acct.mu.Lock()
			acct.up.MS += time.Since(start).Milliseconds()
			acct.mu.Unlock()
		}()
	}
	if err != nil {
		f := fail(NetworkFailure, networkText(err, key))
		f.Err = errors.New(f.Message)
		return nil, f
	}
	defer resp.Body.Close()
	if acct != nil {
		if p := resp.Header.Get("X-Vulnetix-Plan"); planRE.MatchString(p) && (key == "" || !strings.Contains(p, key)) {
			acct.mu.Lock()
			acct.plan = p
			acct.mu.Unlock()
		}
	}
	if tooLarge == nil {
		tooLarge = func(n string) *Failure { return fail(TooLarge, wire.Printable(path), n, MaxRaw) }
	}
	// The reader reads at most MaxRaw bytes (none when Content-Length says
	// more) and returns the body as sent, for the tool to pass on.
	body, err := c.reader.ReadRaw(resp, v)
	switch {
	case errors.Is(err, envelope.ErrBodyRead):
		var e *envelope.Error
		errors.As(err, &e)
		return nil, fail(NetworkFailure, "reading the response: "+networkText(e.Err, key))
	case errors.Is(err, envelope.ErrBodyTooLarge) && resp.StatusCode < 300:
		if resp.ContentLength > MaxRaw {
			return nil, tooLarge(strconv.FormatInt(resp.ContentLength, 10))
		}
		return nil, tooLarge("more than " + strconv.Itoa(MaxRaw))
	case err != nil:
		// An error page over the bound says nothing useful: its status
		// decides, as for any error body that is not the envelope.
		return nil, c.failure(err, resp, path, key)
	}
	if resp.StatusCode >= 300 { // a non-envelope error body that happened to be JSON
		return nil, statusFailure(resp.StatusCode, http.StatusText(resp.StatusCode), resp.Header, path, c.reader.Now)
	}
	if acct != nil {
		acct.mu.Lock()
		acct.up.Bytes += int64(len(body))
		acct.mu.Unlock()
	}
	return body, nil
}

// resolve appends path (with its query) to the base URL, keeping the base's
// own path prefix.
func (c *vdb) resolve(path string) (*url.URL, error) {
	ref, err := url.Parse(path)
	if err != nil {
		return nil, err
	}
	if ref.Scheme != "" || ref.Host != "" || ref.User != nil {
		return nil, errors.New("not a path")
	}
	u := *c.base
	u.Path = c.base.Path + ref.Path
	u.RawPath = c.base.EscapedPath() + ref.EscapedPath()
	u.RawQuery = ref.RawQuery
	u.Fragment, u.RawFragment = "", ""
	return &u, nil
}

// failure turns what envelope.Reader reported into the server's Failure.
func (c *vdb) failure(err error, resp *http.Response, path, key string) *Failure {
	var e *envelope.Error
	if !errors.As(err, &e) {
		return fail(UpstreamStatus, resp.StatusCode, "the response could not be read.")
	}
	// e.Header is the response's header (X-Maintenance-Mode, Retry-After,
	// X-RateLimit-Reset), less any field that carried a credential.
	if e.Body == nil { // no error envelope: not JSON, or not the expected shape
		if e.HTTPStatus >= 300 {
			return statusFailure(e.HTTPStatus, "", e.Header, path, c.reader.Now)
		}
		f := fail(Malformed, e.HTTPStatus, wire.Printable(strings.ReplaceAll(e.Message, key, "[redacted]")))
		f.Status = e.HTTPStatus
		return f
	}
	return statusFailure(e.HTTPStatus, strings.ReplaceAll(e.Message, key, "[redacted]"), e.Header, path, c.reader.Now)
}

// statusFailure words an upstream error status through the taxonomy.
func statusFailure(status int, msg string, h http.Header, path string, now func() time.Time) *Failure {
	code := ""
	if status == http.StatusServiceUnavailable && strings.EqualFold(strings.TrimSpace(h.Get("X-Maintenance-Mode")), "true") {
		code = maintenanceCode
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	msg = wire.Printable(msg)
	var f *Failure
	switch k := Taxonomy().Classify(code, status); k {
	case CredentialRejected:
		f = fail(k)
	case AccessDenied:
		f = fail(k, sentence(msg))
	case NotFound:
		f = fail(k, subject(path))
	case QuotaExhausted:
		f = fail(k, resetTime(h, now).Format(time.RFC3339))
	case Maintenance:
		f = fail(k, maintenanceWait(h, now))
	default:
		f = fail(UpstreamStatus, status, sentence(msg))
	}
	f.Status = status
	return f
}

// subject is what a 404 was about: the id of a /v1/vulns/ path, else the
// path.
func subject(path string) string {
	if rest, ok := strings.CutPrefix(path, "/v1/vulns/"); ok {
		id, _, _ := strings.Cut(rest, "/")
		if s, err := url.PathUnescape(id); err == nil {
			return wire.Printable(s)
		}
	}
	return wire.Printable(path)
}

// maxQuotaReset is the furthest ahead a daily quota's reset is believed:
// a day, and a margin for clocks and time zones.
const maxQuotaReset = 48 * time.Hour

// resetTime is the daily quota's reset: X-RateLimit-Reset in epoch seconds
// (or seconds from now when small), else the next UTC midnight. A reset in
// the past, more than maxQuotaReset ahead, or too large to count is no daily
// quota's: it is not printed, and the next UTC midnight is named instead.
func resetTime(h http.Header, now func() time.Time) time.Time {
	t := time.Now()
	if now != nil {
		t = now()
	}
	if d, ok := header.ParseReset(h.Get("X-RateLimit-Reset"), t); ok && d <= maxQuotaReset {
		return t.Add(d).UTC().Truncate(time.Second)
	}
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, time.UTC)
}

// maintenanceWait words how long maintenance may last, from Retry-After.
func maintenanceWait(h http.Header, now func() time.Time) string {
	if v, err := strconv.Atoi(strings.TrimSpace(h.Get("Retry-After"))); err == nil && v > 0 && v < 86400 {
		if v >= 120 {
			return strconv.Itoa((v+59)/60) + " minutes"
		}
		return strconv.Itoa(v) + " seconds"
	}
	return "a few minutes"
}

// networkText words a failure to get a response, without the request URL's
// query or the key.
func networkText(err error, key string) string {
	var text string
	var ue *url.Error
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		text = "the request timed out"
	case errors.Is(err, context.Canceled):
		text = "the request was cancelled"
	case errors.As(err, &ue):
		text = ue.Err.Error()
	default:
		text = err.Error()
	}
	if key != "" {
		text = strings.ReplaceAll(text, key, "[redacted]")
	}
	return sentence(wire.Printable(text))
}
