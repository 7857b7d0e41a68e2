package envelope

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/mcperr/mcperr/internal/failures"
)

// Transport is an http.RoundTripper to put under any API client,
//
//	client := &http.Client{Transport: &envelope.Transport{}}
//
// that reads every upstream answer of a tool call with a Reader's rules and
// keeps the failure for that call, so that [ErrorOf] and the SDK adapters'
// Handle (gosdk, mcpgo) find it even when the client library dropped the
// body, the headers or the code: a GraphQL client that keeps only
// errors[0].message, a client that quotes the body into prose. A failure
// belongs to the tool call whose context the request carries: the adapters'
// Handle gives each call its own, so the calls a handler makes in parallel
// keep their failures apart. A request whose context belongs to no tool call
// goes through untouched.
//
// The answer reaches the client as Base gave it. A response of status 400
// or more has its body read, within the Reader's MaxBytes bound, and
// replaced by a reader of the same bytes (a body over the bound is passed on
// whole, its first bytes and then the rest). A 2xx body is never copied:
// it streams through, and a GraphQL endpoint's (see Transport.GraphQL) is
// watched on its way for an "errors" member, whose
// array alone (64 KiB at most) is kept and read when the body is closed or
// read to its end; the failure it gives is kept even when data is partly
// there, since only the handler knows whether the call failed. A request
// that got no answer is kept as network_error, and the error goes back as
// Base returned it. The failure of a request that may have acted (see
// [Reader.Writes]) says so, as [Reader.Do]'s does.
//
// Transport does not retry: to retry a grazed rate limit, put
// [github.com/mcperr/mcperr/retry]'s transport under it as Base, so that
// the answer read is the last one. The zero Transport is ready to use; it is
// safe for concurrent use as long as its fields are not changed.
type Transport struct {
	// Base sends the requests; nil means http.DefaultTransport.
	Base http.RoundTripper

	// Reader holds the rules the answers are read by (taxonomy, envelope,
	// bound, secrets, writes); nil means the zero Reader. Its Client is not
	// used.
	Reader *Reader

	// GraphQL, when set, watches every 2xx JSON body for GraphQL errors;
	// otherwise only the bodies of a GraphQL endpoint are watched: a
	// request whose path names graphql (GitHub's /graphql, GitLab's
	// /api/graphql, Shopify's graphql.json) or an answer of type
	// application/graphql-response+json. Set it for a GraphQL API served
	// at another path.
	GraphQL bool
}

// maxGraphQLErrors bounds the bytes of a GraphQL errors array a Transport
// keeps from a 2xx body.
const maxGraphQLErrors = 64 << 10

var zeroReader Reader

// RoundTrip sends req with Base and keeps the failure its answer, or its
// absence, holds for req's tool call (see [Transport]).
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	list := failures.From(req.Context())
	if list == nil {
		return base.RoundTrip(req)
	}
	r := t.Reader
	if r == nil {
		r = &zeroReader
	}
	sent := r.traceWrite(&req)
	resp, err := base.RoundTrip(req)
	if err != nil {
		list.Keep(failures.Kept{Err: r.noAnswer(req, err, sent)})
		return nil, err
	}
	if resp.Request == nil {
		resp.Request = req
	}
	switch {
	case resp.StatusCode >= 400:
		if e := r.readFailure(resp); e != nil {
			list.Keep(failures.Kept{Err: e, Status: e.HTTPStatus})
		}
	case resp.StatusCode/100 == 2 && resp.Body != nil && resp.Body != http.NoBody && isJSON(resp.Header) &&
		(t.GraphQL || isGraphQL(req, resp.Header)):
		resp.Body = &watched{body: resp.Body, r: r, resp: resp, list: list}
	}
	return resp, nil
}

// readFailure reads the error body of resp, within the bound, puts an
// equivalent reader in its place, and returns the failure the Reader reads.
func (r *Reader) readFailure(resp *http.Response) *Error {
	limit := r.MaxBytes
	if limit <= 0 {
		limit = defaultMaxBytes
	}
	orig := resp.Body
	if orig == nil || orig == http.NoBody {
		e, _ := r.ReadBody(resp, nil)
		return e
	}
	body, err := io.ReadAll(io.LimitReader(orig, limit+1))
	switch {
	case err != nil:
		// The client meets the same failure reading what is left.
		resp.Body = &readCloser{io.MultiReader(bytes.NewReader(body), errReader{err}), orig}
		e := bodyReadError(resp.StatusCode, err)
		redact(e, r.secrets(resp.Request))
		return e
	case int64(len(body)) > limit:
		resp.Body = &readCloser{io.MultiReader(bytes.NewReader(body), orig), orig}
		return tooLarge(resp.StatusCode, limit)
	}
	orig.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	e, _ := r.ReadBody(resp, body)
	return e
}

// isGraphQL reports whether req, answered with header h, is a GraphQL
// endpoint's (see Transport.GraphQL).
func isGraphQL(req *http.Request, h http.Header) bool {
	return containsFold(req.URL.Path, "graphql") || containsFold(h.Get("Content-Type"), "graphql")
}

// containsFold reports whether s holds sub, a lowercase ASCII word, in any
// case; it allocates nothing.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// isJSON reports whether h says its body is JSON (application/json, or
// any +json type such as application/graphql-response+json).
func isJSON(h http.Header) bool {
	ct := h.Get("Content-Type")
	return strings.Contains(ct, "json")
}

type readCloser struct {
	io.Reader
	io.Closer
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// errorsKey is the member a GraphQL response holds its errors in.
var errorsKey = []byte(`"errors"`)

// lookBack is how many bytes before a '[' the watch keeps to find the key
// in front of it: `"errors"`, a colon, and some white space.
const lookBack = 24

// watched is a 2xx JSON body passed on untouched while it is watched for
// a GraphQL errors member: the bytes from that member's array on are kept,
// up to maxGraphQLErrors, and read once the body ends or is closed. The
// watch looks at each '[' (rare in JSON beside quotes and colons, and
// found by a vector search) and at the few bytes before it.
type watched struct {
	body io.ReadCloser
	r    *Reader
	resp *http.Response
	list *failures.List

	mu    sync.Mutex
	tail  [lookBack]byte // the last bytes read, for a key split across reads
	ntail int
	found bool
	kept  []byte
	done  bool
}

func (w *watched) Read(p []byte) (int, error) {
	n, err := w.body.Read(p)
	if n > 0 {
		w.mu.Lock()
		w.watch(p[:n])
		w.mu.Unlock()
	}
	if err == io.EOF {
		w.finish()
	}
	return n, err
}

func (w *watched) Close() error {
	w.finish()
	return w.body.Close()
}

// watch looks for the errors array in b, and keeps it from there on.
func (w *watched) watch(b []byte) {
	if w.done {
		return
	}
	if w.found {
		if room := maxGraphQLErrors - len(w.kept); room > 0 {
			w.kept = append(w.kept, b[:min(len(b), room)]...)
		}
		return
	}
	for off := 0; ; {
		j := bytes.IndexByte(b[off:], '[')
		if j < 0 {
			break
		}
		i := off + j
		if w.keyBefore(b[:i]) {
			w.found = true
			w.kept = append(append(w.kept, errorsKey...), ':')
			w.kept = append(w.kept, b[i:min(len(b), i+maxGraphQLErrors)]...)
			return
		}
		off = i + 1
	}
	// The tail: the last lookBack bytes of what was read so far.
	if len(b) >= lookBack {
		w.ntail = copy(w.tail[:], b[len(b)-lookBack:])
		return
	}
	var joint [2 * lookBack]byte
	m := copy(joint[:], w.tail[:w.ntail])
	m += copy(joint[m:], b)
	w.ntail = copy(w.tail[:], joint[max(0, m-lookBack):m])
}

// keyBefore reports whether the bytes before a '[', prefix after the
// tail of the earlier reads, end with the errors key and a colon.
func (w *watched) keyBefore(prefix []byte) bool {
	if len(prefix) >= lookBack {
		return endsWithKey(prefix[len(prefix)-lookBack:])
	}
	var buf [lookBack]byte
	k := copy(buf[:], w.tail[max(0, w.ntail-(lookBack-len(prefix))):w.ntail])
	k += copy(buf[k:], prefix)
	return endsWithKey(buf[:k])
}

// endsWithKey reports whether s ends with the errors key, a colon, and
// white space around the colon.
func endsWithKey(s []byte) bool {
	i := len(s) - 1
	for i >= 0 && isJSONSpace(s[i]) {
		i--
	}
	if i < 0 || s[i] != ':' {
		return false
	}
	for i--; i >= 0 && isJSONSpace(s[i]); i-- {
	}
	return i+1 >= len(errorsKey) && string(s[i+1-len(errorsKey):i+1]) == `"errors"`
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// finish reads the errors kept, once, and keeps the failure they give.
func (w *watched) finish() {
	w.mu.Lock()
	if w.done {
		w.mu.Unlock()
		return
	}
	w.done = true
	kept := w.kept
	w.kept = nil
	w.mu.Unlock()
	if len(kept) == 0 {
		return
	}
	// The key, a colon, then the array, and what follows it.
	rest := bytes.TrimLeft(kept[len(errorsKey):], " \t\r\n")
	if len(rest) == 0 || rest[0] != ':' {
		return
	}
	d := json.NewDecoder(bytes.NewReader(rest[1:]))
	var errs json.RawMessage
	if d.Decode(&errs) != nil {
		return
	}
	errs = bytes.TrimSpace(errs)
	if len(errs) < 2 || errs[0] != '[' || bytes.Equal(errs, []byte("[]")) {
		return
	}
	body := make([]byte, 0, len(errs)+12)
	body = append(append(append(body, `{"errors":`...), errs...), '}')
	if e, ok := w.r.ReadBody(w.resp, body); ok {
		w.list.Keep(failures.Kept{Err: e, Status: e.HTTPStatus})
	}
}
