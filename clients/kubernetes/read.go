package kubernetes

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcperr/mcperr/envelope"
)

func init() { envelope.Register(Read) }

// Read returns the upstream failure a client-go error carries, read by
// envelope.Reader's rules from the metav1.Status it holds (see the package
// doc), and whether err holds one (an errors.APIStatus with a code).
func Read(err error) (*envelope.Error, bool) {
	var as apierrors.APIStatus
	if !errors.As(err, &as) {
		return nil, false
	}
	st := as.Status()
	if st.Code == 0 {
		return nil, false
	}
	h := make(http.Header)
	if st.Details != nil && st.Details.RetryAfterSeconds > 0 {
		// The API server sends the wait both ways; client-go keeps the
		// body's, or makes it of the header.
		h.Set("Retry-After", strconv.Itoa(int(st.Details.RetryAfterSeconds)))
	}
	resp := &http.Response{StatusCode: int(st.Code), Header: h}
	if text, ok := unexpected(st); ok {
		// A body that was no Status (a proxy's page, a plain-text 429):
		// the reason and message are client-go's guesses from the status
		// code, and the body it kept is the answer's own words, of a type
		// client-go did not keep: sniffed, so a page is read as one.
		h.Set("Content-Type", http.DetectContentType([]byte(text)))
		return (&envelope.Reader{}).ReadBody(resp, []byte(text))
	}
	// The Status as the API server writes it (kind and apiVersion are
	// what say it is one).
	st.Kind, st.APIVersion = "Status", "v1"
	body, err := json.Marshal(st)
	if err != nil {
		return nil, false
	}
	h.Set("Content-Type", "application/json")
	return (&envelope.Reader{}).ReadBody(resp, body)
}

// unexpected returns the body client-go kept of an answer that was no
// Status, from the cause it records it in, and whether st is such a Status
// of client-go's making. The body is "" when it was not text (client-go
// keeps only text, as "unknown" otherwise).
func unexpected(st metav1.Status) (string, bool) {
	if st.Details == nil {
		return "", false
	}
	for _, c := range st.Details.Causes {
		if c.Type == metav1.CauseTypeUnexpectedServerResponse {
			if c.Message == "unknown" {
				return "", true
			}
			return c.Message, true
		}
	}
	return "", false
}
