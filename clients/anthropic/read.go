package anthropic

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/mcperr/mcperr/envelope"
)

func init() { envelope.Register(Read) }

// Read returns the upstream failure an Anthropic SDK error carries, read
// by envelope.Reader's rules from the response and the body an
// *anthropic.Error keeps (see the package doc), and whether err holds one.
func Read(err error) (*envelope.Error, bool) {
	var ae *anthropic.Error
	if !errors.As(err, &ae) || ae.StatusCode == 0 {
		return nil, false
	}
	h := make(http.Header)
	if ae.Response != nil {
		h = ae.Response.Header.Clone()
	}
	var body []byte
	if raw := ae.RawJSON(); raw != "" {
		body = []byte(raw)
		if json.Valid(body) {
			h.Set("Content-Type", "application/json")
		}
	}
	resp := &http.Response{StatusCode: ae.StatusCode, Header: h, Request: ae.Request}
	return (&envelope.Reader{}).ReadBody(resp, body)
}
