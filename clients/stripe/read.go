package stripe

import (
	"errors"
	"net/http"

	"github.com/stripe/stripe-go/v82"

	"github.com/mcperr/mcperr/envelope"
)

func init() { envelope.Register(Read) }

// Read returns the upstream failure a stripe-go error carries, read by
// envelope.Reader's rules from the answer a *stripe.Error keeps (see the
// package doc), and whether err holds one.
func Read(err error) (*envelope.Error, bool) {
	var se *stripe.Error
	if !errors.As(err, &se) || se.HTTPStatusCode == 0 {
		return nil, false
	}
	resp := &http.Response{StatusCode: se.HTTPStatusCode, Header: make(http.Header)}
	var body []byte
	if lr := se.LastResponse; lr != nil {
		if lr.Header != nil {
			resp.Header = lr.Header
		}
		body = lr.RawJSON
	}
	return (&envelope.Reader{}).ReadBody(resp, body)
}
