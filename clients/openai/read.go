package openai

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/openai/openai-go/v3"

	"github.com/mcperr/mcperr/envelope"
)

func init() { envelope.Register(Read) }

// Read returns the upstream failure an OpenAI SDK error carries, read by
// envelope.Reader's rules from the response and the error object an
// *openai.Error keeps (see the package doc), and whether err holds one.
func Read(err error) (*envelope.Error, bool) {
	var oe *openai.Error
	if !errors.As(err, &oe) || oe.StatusCode == 0 {
		return nil, false
	}
	h := make(http.Header)
	if oe.Response != nil {
		h = oe.Response.Header.Clone()
	}
	var body []byte
	if raw := oe.RawJSON(); json.Valid([]byte(raw)) {
		body = append(append([]byte(`{"error":`), raw...), '}')
		h.Set("Content-Type", "application/json")
	}
	resp := &http.Response{StatusCode: oe.StatusCode, Header: h, Request: oe.Request}
	return (&envelope.Reader{}).ReadBody(resp, body)
}
