package envelope

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcperr/mcperr/errkind"
	"github.com/mcperr/mcperr/internal/failures"
)

// ErrorOf returns the upstream failure err carries, read by the Reader's
// rules, and whether it carries one. In this order, the first that holds
// gives the error's own failure:
//
//   - an *Error anywhere in err's chain (as errors.As finds it);
//   - what a reader given to [Register] makes of err: the typed errors of
//     API clients (go-github's, client-go's, ...), each through what its
//     library exposes;
//   - an error in the chain that names a status through
//     interface{ HTTPStatusCode() int } (aws-sdk-go-v2's and smithy's
//     ResponseError), with the code and message of an
//     interface{ ErrorCode() string; ErrorMessage() string } in the chain
//     (smithy's APIError), classified by the standard taxonomy;
//   - a *url.Error, a net.Error or context.DeadlineExceeded: a request that
//     got no answer, network_error, whose message names the method and the
//     host of the request, never its path, query or userinfo; and, for a
//     POST or PATCH that failed after it could have been written, kind
//     conflict, as a failure that may have acted (see [Reader.Do]).
//
// A tool call's failures that a [Transport] kept (through the SDK
// adapters' Handle, which give each call a place for them) refine that:
// when the error's own failure is not an *Error (a typed error that kept
// only the status, a network error), the last failure kept of the same
// status stands for it, read from the whole answer; when the error carries
// none (a client that turned the answer into prose), the last failure the
// call kept is the failure. An *Error in the chain, read from the answer
// itself, is never replaced. Parallel calls of one tool call keep their
// failures apart, and the one a typed error names by its status is found
// among them.
//
// The operation that fmt.Errorf wrappings added in front of the failure
// ("failed to get issue: %w") stays visible to the agent: the Error
// returned is then a copy whose Message is "failed to get issue: " followed
// by the upstream's own message, with the secret values of any URL the
// wrapping names redacted (see [Reader.Read]). An error that carries no
// upstream failure gives nil, false, and ErrorOf allocates nothing to say
// so (a registered reader's own work aside).
func ErrorOf(err error) (*Error, bool) {
	if err == nil {
		return nil, false
	}
	var kept []failures.Kept
	if a, ok := err.(*failures.Attached); ok {
		err, kept = a.Err, a.Kept
	}
	var e *Error
	var at error // the node that carries the failure, where the operation stops
	switch {
	case findError(err, &e, &at):
		kept = nil // read from the answer itself: nothing kept says more
	case readRegistered(err, &e):
	case findStatus(err, &e, &at):
	case findNetwork(err, &e, &at):
	}
	if k := pick(kept, e); k != nil {
		e = k
	}
	if e == nil {
		return nil, false
	}
	if op := operation(err, at); op != "" {
		c := *e
		c.Message = joinOperation(op, e.Message)
		e = &c
	}
	return e, true
}

// pick chooses, among the failures a tool call's Transport kept (oldest
// first), the one that stands for own, what the handler's error says by
// itself (nil when it says nothing): the last kept of own's status (0 for
// a request that got no answer), read from the whole answer where the
// error kept only some of it; when own is nil, the last kept. nil when none
// stands for own, which then stands alone.
func pick(kept []failures.Kept, own *Error) *Error {
	for i := len(kept) - 1; i >= 0; i-- {
		e, ok := kept[i].Err.(*Error)
		if !ok {
			continue
		}
		if own == nil || kept[i].Status == own.HTTPStatus {
			return e
		}
	}
	return nil
}

// readers holds the functions given to Register, replaced whole by each
// Register call so that ErrorOf reads them without a lock.
var (
	readers   atomic.Pointer[[]func(error) (*Error, bool)]
	readersMu sync.Mutex
)

// Register adds read to the readers ErrorOf asks about an error that holds
// no *Error. A clients/NAME module calls it from its init function, so
// importing the module is all the setup a server does. read is given the
// whole error (it finds its library's types with errors.As) and returns the
// failure read by the same rules as a response (see [Reader.ReadBody]),
// or false when err is none of its library's; the first reader that answers
// wins, in the order they were registered. read must be safe for concurrent
// use, and must not call ErrorOf with err.
func Register(read func(err error) (*Error, bool)) {
	if read == nil {
		return
	}
	readersMu.Lock()
	defer readersMu.Unlock()
	var list []func(error) (*Error, bool)
	if p := readers.Load(); p != nil {
		list = append(list, *p...)
	}
	list = append(list, read)
	readers.Store(&list)
}

func readRegistered(err error, e **Error) bool {
	p := readers.Load()
	if p == nil {
		return false
	}
	for _, read := range *p {
		if f, ok := read(err); ok && f != nil {
			*e = f
			return true
		}
	}
	return false
}

// ReadBody returns the *Error [Reader.Read] would return for resp with body
// as its body and a nil v, and true; or nil, false when Read would return
// nil (the parts are data). It is for a response whose body an API client
// already read: resp.Body is neither read nor closed, and resp's status,
// header and request (for the credentials to redact and the method) are
// read as Read reads them, a 502 or 504 to a request that may have acted
// included (see [Reader.Do]). A clients/NAME module builds its errors with
// it from what its library kept of the answer, so that they read as a
// response does.
func (r *Reader) ReadBody(resp *http.Response, body []byte) (*Error, bool) {
	if resp == nil {
		return &Error{Kind: errkind.NetworkError, Message: "no response"}, true
	}
	c := *resp
	c.Body = io.NopCloser(bytes.NewReader(body))
	c.ContentLength = int64(len(body))
	err := r.acted(r.read(&c, nil, resp.Request, nil), resp.Request)
	if err == nil {
		return nil, false
	}
	return err.(*Error), true
}

// walk calls visit on err and every error beneath it, depth first, as
// errors.As goes, until visit returns true; it reports whether one did.
// It allocates nothing.
func walk(err error, visit func(error) bool) bool {
	for err != nil {
		if visit(err) {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
		case interface{ Unwrap() []error }:
			for _, c := range x.Unwrap() {
				if walk(c, visit) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// findError finds the first *Error in err's chain, as errors.As does
// (an error's own As method included).
func findError(err error, e **Error, at *error) bool {
	return walk(err, func(n error) bool {
		switch x := n.(type) {
		case *Error:
			if x == nil {
				return false
			}
			*e, *at = x, n
			return true
		case interface{ As(any) bool }:
			var t *Error
			if x.As(&t) && t != nil {
				*e, *at = t, n
				return true
			}
		}
		return false
	})
}

type statusError interface{ HTTPStatusCode() int }

type apiError interface {
	ErrorCode() string
	ErrorMessage() string
}

// findStatus reads an error that names its HTTP status, with the code
// and message of an apiError in the chain.
func findStatus(err error, e **Error, at *error) bool {
	var status int
	var node error
	walk(err, func(n error) bool {
		if s, ok := n.(statusError); ok {
			if c := s.HTTPStatusCode(); c >= 100 && c <= 999 {
				status, node = c, n
				return true
			}
		}
		return false
	})
	if node == nil {
		return false
	}
	f := &Error{HTTPStatus: status}
	found := walk(err, func(n error) bool {
		if a, ok := n.(apiError); ok {
			f.Code, f.Message = a.ErrorCode(), a.ErrorMessage()
			return true
		}
		return false
	})
	if !found || f.Code == "" && f.Message == "" {
		f.Message = node.Error()
	}
	if status < 400 && f.Code == "" {
		return false // a success the error only mentions
	}
	var zero Reader
	f.Kind = zero.kindOf(f.Code, status)
	f.Message = scrubURLs(f.Message, nil, false)
	f.Err = node
	*e, *at = f, node
	return true
}

// findNetwork reads a request that got no answer. A *url.Error of a
// request whose method may act (POST, PATCH) that failed for any reason but
// one that stops a request before it is written (see unsent) may have acted
// (see Reader.Do): the error does not say whether it carried an
// Idempotency-Key, so ErrorOf assumes not.
func findNetwork(err error, e **Error, at *error) bool {
	var ue *url.Error
	var ne net.Error
	walk(err, func(n error) bool {
		switch x := n.(type) {
		case *url.Error:
			ue = x
			return true
		case net.Error:
			if ne == nil {
				ne = x
			}
		}
		return false
	})
	switch {
	case ue != nil:
		f := networkError(ue.Op, ue.URL, ue.Err, ue, nil)
		if isWrite(ue.Op, nil) && !unsent(ue.Err) {
			f = mayHaveActed(f, ue.Op)
		}
		*e, *at = f, ue
	case ne != nil:
		*e, *at = networkError("", "", ne, ne, nil), ne
	case errors.Is(err, context.DeadlineExceeded):
		*e, *at = networkError("", "", context.DeadlineExceeded, context.DeadlineExceeded, nil), context.DeadlineExceeded
	default:
		return false
	}
	return true
}

// networkError is the network_error of a request (method, URL) that got
// no answer because of cause: its message names the method and the host,
// "POST api.example.com: context deadline exceeded", then the cause's text
// with the URLs it holds reduced to their hosts and secrets removed. Err
// is that text, and answers errors.Is for keep's chain.
func networkError(method, rawURL string, cause, keep error, secrets []string) *Error {
	text := "no response"
	if cause != nil {
		text = scrubURLs(redactString(cause.Error(), secrets), secrets, true)
	}
	msg := text
	if host := hostOf(rawURL); host != "" {
		m := strings.ToUpper(method)
		if m != "" {
			m += " "
		}
		msg = m + host + ": " + text
	}
	e := &Error{Kind: errkind.NetworkError, Message: msg}
	if keep != nil {
		e.Err = &redactedError{text: text, cause: keep}
	}
	return e
}

// hostOf is the host (and port) of a URL, "" when it names none.
func hostOf(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}

// operation is the text fmt.Errorf wrappings put in front of at, the node
// that carries the failure: for "failed to get issue: <at's text>", the
// words "failed to get issue". It walks down from err while each error is
// a plain wrapping, one that unwraps to one error and whose text is its own
// words, ": ", and that error's text, and stops at at, at an error of the
// network or URL types (whose text names a URL), and at the first error
// that is not such a wrapping. "" when there is none.
func operation(err, at error) string {
	var last error // the deepest node the wrapping words end before
	n := err
walk:
	for n != nil && n != at {
		switch n.(type) {
		case *url.Error, net.Error, *Error:
			break walk
		}
		u, ok := n.(interface{ Unwrap() error })
		if !ok {
			break
		}
		c := u.Unwrap()
		if c == nil {
			break
		}
		nt, ct := n.Error(), c.Error()
		if len(nt) < len(ct)+3 || !strings.HasSuffix(nt, ct) || nt[len(nt)-len(ct)-2:len(nt)-len(ct)] != ": " {
			break
		}
		last, n = c, c
	}
	if last == nil {
		return ""
	}
	top, lt := err.Error(), last.Error()
	return scrubURLs(top[:len(top)-len(lt)-2], nil, false)
}

// joinOperation puts the operation in front of the upstream's message.
func joinOperation(op, msg string) string {
	if msg == "" {
		return op
	}
	return op + ": " + msg
}
