package azure

import (
	"errors"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"

	"github.com/mcperr/mcperr/envelope"
)

func init() { envelope.Register(Read) }

// Read returns the upstream failure an Azure SDK error carries, read by
// envelope.Reader's rules from the response an *azcore.ResponseError keeps
// (see the package doc), and whether err holds one.
func Read(err error) (*envelope.Error, bool) {
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.RawResponse == nil || re.StatusCode == 0 {
		return nil, false
	}
	resp := re.RawResponse
	body, perr := runtime.Payload(resp) // the bytes azcore kept: reading them again reads nothing
	if perr != nil {
		body = nil
	}
	h := resp.Header
	if h == nil {
		h = make(http.Header)
	}
	return (&envelope.Reader{}).ReadBody(&http.Response{StatusCode: re.StatusCode, Header: h, Request: resp.Request}, body)
}
