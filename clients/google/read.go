package google

import (
	"errors"
	"net/http"

	"google.golang.org/api/googleapi"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

func init() { envelope.Register(Read) }

// Read returns the upstream failure a google.golang.org/api error carries,
// read by envelope.Reader's rules from the answer a *googleapi.Error keeps
// (its status, header and body), and whether err holds one.
func Read(err error) (*envelope.Error, bool) {
	var ge *googleapi.Error
	if !errors.As(err, &ge) || ge.Code == 0 {
		return nil, false
	}
	resp := &http.Response{StatusCode: ge.Code, Header: ge.Header}
	if resp.Header == nil {
		resp.Header = make(http.Header)
	}
	return (&envelope.Reader{Taxonomy: taxonomy}).ReadBody(resp, []byte(ge.Body))
}

// taxonomy is errkind's standard taxonomy with the reasons of Google's v1
// error format ahead of it that the standard rules do not read by their
// words (cloud.google.com/storage/docs/json_api/v1/status-codes, and the
// same reasons across Google's v1 APIs): a precondition that did not hold
// is the resource's state, and a key that is not valid is the credential.
var taxonomy = errkind.Standard().With(
	errkind.Rule{Code: "conditionNotMet", Kind: errkind.Conflict},
	errkind.Rule{Code: "keyInvalid", Kind: errkind.AuthenticationFailed},
	errkind.Rule{Code: "keyExpired", Kind: errkind.AuthenticationFailed},
)
