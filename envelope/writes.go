package envelope

import (
	"crypto/tls"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/mcperr/mcperr/errkind"
)

// defaultWrites are the methods whose requests may act when a Reader's
// Writes is nil: the methods HTTP does not define as idempotent.
var defaultWrites = []string{http.MethodPost, http.MethodPatch}

// mayAct reports whether a failure of req after it was sent may leave the
// upstream having acted on it: its method is one of the Reader's Writes
// and it carries no Idempotency-Key (nor X-Idempotency-Key), which would
// make a retry safe.
func (r *Reader) mayAct(req *http.Request) bool {
	if req == nil || req.Header.Get("Idempotency-Key") != "" || req.Header.Get("X-Idempotency-Key") != "" {
		return false
	}
	return isWrite(req.Method, r.Writes)
}

func isWrite(method string, writes []string) bool {
	if method == "" {
		method = http.MethodGet
	}
	if writes == nil {
		writes = defaultWrites
	}
	for _, w := range writes {
		if strings.EqualFold(method, w) {
			return true
		}
	}
	return false
}

// traceWrite, for a request that may act, replaces *req by a copy whose
// context reports when the request was written, and returns the flag it
// sets; nil for any other request, which it leaves as it is.
func (r *Reader) traceWrite(req **http.Request) *atomic.Bool {
	if !r.mayAct(*req) {
		return nil
	}
	sent := new(atomic.Bool)
	trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { sent.Store(true) }}
	*req = (*req).WithContext(httptrace.WithClientTrace((*req).Context(), trace))
	return sent
}

// actedAfter reports whether a response of this status, to a request that
// was sent, leaves it unknown whether the upstream acted: a gateway's 502
// or 504 (or a Cloudflare 524), which may come after the origin got the
// request.
func actedAfter(status int) bool {
	return status == http.StatusBadGateway || status == http.StatusGatewayTimeout || status == 524
}

// acted is err, or, when err is the failure of a response to req that may
// have acted (see actedAfter), that failure marked so (see mayHaveActed).
func (r *Reader) acted(err error, req *http.Request) error {
	if e, ok := err.(*Error); ok && e != nil && actedAfter(e.HTTPStatus) {
		return r.actedAfterSend(e, req)
	}
	return err // the common case, inlined into the read path
}

func (r *Reader) actedAfterSend(e *Error, req *http.Request) error {
	if !r.mayAct(req) {
		return e
	}
	return mayHaveActed(e, req.Method)
}

// mayHaveActed returns a copy of e, the failure of a request with this
// method that was sent and got no answer, or a gateway's, marked as one
// that may have acted: kind conflict, whose move is to read the resource
// back before any retry (errkind.RereadThenRetry), never retry_safe; the
// message saying so after e's own; and, when the upstream sent no details,
// the details {"mayHaveActed":true,"method":"POST","failure":"network_error"}
// naming the method and the kind the failure would otherwise have. HTTPStatus
// and Err stay e's, so errors.Is still finds context.DeadlineExceeded.
func mayHaveActed(e *Error, method string) *Error {
	c := *e
	method = strings.ToUpper(method)
	if method == "" {
		method = http.MethodGet
	}
	c.Kind = errkind.Conflict
	note := "the " + method + " request was sent and may have acted: read the resource back before retrying"
	if c.Message == "" {
		c.Message = note
	} else {
		c.Message += "; " + note
	}
	if len(c.Details) == 0 {
		d, _ := json.Marshal(struct {
			MayHaveActed bool         `json:"mayHaveActed"`
			Method       string       `json:"method"`
			Failure      errkind.Kind `json:"failure"`
		}{true, method, e.kind()})
		c.Details = d
	}
	return &c
}

// unsent reports whether err, a request's failure, happened before the
// request could be written: a DNS failure, a refused dial, a proxy or TLS
// handshake that failed. Any other failure may have come after the
// upstream got the request.
func unsent(err error) bool {
	var dns *net.DNSError
	var op *net.OpError
	var cert *tls.CertificateVerificationError
	var rec tls.RecordHeaderError
	switch {
	case errors.As(err, &dns), errors.As(err, &cert), errors.As(err, &rec):
		return true
	case errors.As(err, &op):
		return op.Op == "dial" || op.Op == "proxyconnect"
	}
	return false
}

// noAnswer is the network_error of req, whose send failed with err (an
// http.Client's error, or a RoundTripper's); sent, when not nil, says
// whether req was written, which makes it a failure that may have acted.
func (r *Reader) noAnswer(req *http.Request, err error, sent *atomic.Bool) *Error {
	cause := err
	var ue *url.Error
	if errors.As(err, &ue) {
		cause = ue.Err
	}
	raw := ""
	if req.URL != nil {
		raw = req.URL.String()
	}
	e := networkError(req.Method, raw, cause, err, r.secrets(req))
	if sent != nil && sent.Load() {
		e = mayHaveActed(e, req.Method)
	}
	return e
}
