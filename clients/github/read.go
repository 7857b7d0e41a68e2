package github

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/google/go-github/v84/github"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

func init() { envelope.Register(Read) }

// Read returns the upstream failure a go-github error carries, read by
// envelope.Reader's rules from the parts go-github keeps of the answer, and
// whether err holds one of go-github's error types (see the package doc).
// It does not change err, nor read the response's body, which go-github has
// read already: it can be called any number of times on the same error.
func Read(err error) (*envelope.Error, bool) {
	var (
		rl *github.RateLimitError
		ab *github.AbuseRateLimitError
		tf *github.TwoFactorAuthError
		er *github.ErrorResponse
		ac *github.AcceptedError
	)
	switch {
	case errors.As(err, &rl) && rl.Response != nil:
		return read(rl.Response, rateHeader(rl.Response.Header, rl.Rate), body{Message: rl.Message})
	case errors.As(err, &ab) && ab.Response != nil:
		return read(ab.Response, waitHeader(ab.Response.Header, ab.RetryAfter), body{Message: ab.Message})
	case errors.As(err, &tf) && tf.Response != nil:
		return read(tf.Response, tf.Response.Header, bodyOf((*github.ErrorResponse)(tf)))
	case errors.As(err, &er) && er.Response != nil:
		return read(er.Response, er.Response.Header, bodyOf(er))
	case errors.As(err, &ac):
		// 202 Accepted: "the statistics are being compiled ... give the
		// job a few moments to complete, and then submit the request
		// again" (docs.github.com/en/rest/metrics/statistics). No status
		// of the Reader's says it, so the kind is given here; GitHub
		// gives no wait, and none is made up.
		return &envelope.Error{Kind: errkind.Unavailable, Code: "accepted", Message: ac.Error(), HTTPStatus: http.StatusAccepted}, true
	}
	return nil, false
}

// body is GitHub's error body (docs.github.com/en/rest/using-the-rest-api/
// troubleshooting-the-rest-api), rebuilt from what go-github kept of it.
type body struct {
	Message          string `json:"message,omitempty"`
	Errors           []any  `json:"errors,omitempty"`
	Block            *block `json:"block,omitempty"`
	DocumentationURL string `json:"documentation_url,omitempty"`
}

// fault is one entry of the errors list: the resource and the field at
// fault, and GitHub's code for what is wrong with it.
type fault struct {
	Resource string `json:"resource,omitempty"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code,omitempty"`
	Message  string `json:"message,omitempty"`
}

type block struct {
	Reason    string `json:"reason,omitempty"`
	CreatedAt string `json:"created_at,omitempty"`
}

// bodyOf rebuilds GitHub's body from e. An entry GitHub sent as a bare
// string (go-github keeps it as the Message of an Error) is a string again.
func bodyOf(e *github.ErrorResponse) body {
	b := body{Message: e.Message, DocumentationURL: e.DocumentationURL}
	for _, f := range e.Errors {
		if f.Resource == "" && f.Field == "" && f.Code == "" {
			b.Errors = append(b.Errors, f.Message)
			continue
		}
		b.Errors = append(b.Errors, fault(f))
	}
	if e.Block != nil {
		b.Block = &block{Reason: e.Block.Reason}
		if e.Block.CreatedAt != nil {
			b.Block.CreatedAt = e.Block.CreatedAt.Format(time.RFC3339)
		}
	}
	return b
}

// rateHeader returns h with the X-RateLimit-* fields of rate when h has
// none: the answer go-github made up from memory has an empty header, and
// the rate it remembers is what says the limit is exhausted, and until when.
func rateHeader(h http.Header, rate github.Rate) http.Header {
	if h.Get("X-RateLimit-Remaining") != "" || rate.Reset.IsZero() {
		return h
	}
	h = h.Clone()
	if h == nil {
		h = make(http.Header)
	}
	h.Set("X-RateLimit-Limit", strconv.Itoa(rate.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(rate.Remaining))
	h.Set("X-RateLimit-Used", strconv.Itoa(rate.Used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(rate.Reset.Unix(), 10))
	return h
}

// waitHeader returns h with a Retry-After of wait when h has none: the
// answer go-github made up has an empty header, and the wait it remembers
// is what it keeps of the limit. With no wait known, it is GitHub's own
// rule for a secondary rate limit: "wait for at least one minute before
// retrying" (docs.github.com/en/rest/using-the-rest-api/
// rate-limits-for-the-rest-api#exceeding-the-rate-limit).
func waitHeader(h http.Header, wait *time.Duration) http.Header {
	if h.Get("Retry-After") != "" {
		return h
	}
	secs := int64(60)
	if wait != nil && *wait > 0 {
		secs = int64(math.Ceil(wait.Seconds()))
	}
	h = h.Clone()
	if h == nil {
		h = make(http.Header)
	}
	h.Set("Retry-After", strconv.FormatInt(secs, 10))
	return h
}

// read reads the answer of resp's status with header h and body b, by the
// Reader's rules (envelope.Reader.ReadBody): the request resp answered is
// kept, so no credential it carried appears in the Error.
func read(resp *http.Response, h http.Header, b body) (*envelope.Error, bool) {
	data, err := json.Marshal(b)
	if err != nil {
		return nil, false
	}
	h = h.Clone()
	if h == nil {
		h = make(http.Header)
	}
	h.Set("Content-Type", "application/json")
	return (&envelope.Reader{}).ReadBody(&http.Response{StatusCode: resp.StatusCode, Header: h, Request: resp.Request}, data)
}
