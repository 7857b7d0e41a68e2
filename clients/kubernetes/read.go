package kubernetes

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/mcperr/mcperr/envelope"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
	// The Status as the API server writes it (kind and apiVersion are
	// what say it is one); client-go leaves them empty in a Status it
	// made itself.
	st.Kind, st.APIVersion = "Status", "v1"
	body, jerr := json.Marshal(st)
	if jerr != nil {
		return nil, false
	}
	h := http.Header{"Content-Type": {"application/json"}}
	if st.Details != nil && st.Details.RetryAfterSeconds > 0 {
		// The API server sends the wait both ways; client-go keeps the
		// body's.
		h.Set("Retry-After", strconv.Itoa(int(st.Details.RetryAfterSeconds)))
	}
	return (&envelope.Reader{}).ReadBody(&http.Response{StatusCode: int(st.Code), Header: h}, body)
}
