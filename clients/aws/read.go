package aws

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/mcperr/mcperr/envelope"
	"github.com/mcperr/mcperr/errkind"
)

func init() { envelope.Register(Read) }

// Read returns the upstream failure an aws-sdk-go-v2 error carries, read
// by envelope.Reader's rules from the answer the SDK kept (see the package
// doc), and whether err holds one: a *smithyhttp.ResponseError (which
// *awshttp.ResponseError embeds) with the response that came.
func Read(err error) (*envelope.Error, bool) {
	var re *smithyhttp.ResponseError
	if !errors.As(err, &re) || re.Response == nil || re.Response.Response == nil || re.Response.StatusCode == 0 {
		return nil, false // no answer came: envelope.ErrorOf's network_error
	}
	resp := re.Response.Response
	h := resp.Header.Clone()
	if h == nil {
		h = make(http.Header)
	}
	var body []byte
	var api smithy.APIError
	if errors.As(err, &api) && (api.ErrorCode() != "" || api.ErrorMessage() != "") {
		// The SDK read the body into its code and message; this is that
		// body as AWS's JSON protocols write it.
		b, jerr := json.Marshal(struct {
			Type    string `json:"__type,omitempty"`
			Message string `json:"message,omitempty"`
		}{api.ErrorCode(), api.ErrorMessage()})
		if jerr != nil {
			return nil, false
		}
		body = b
		h.Set("Content-Type", "application/json")
	}
	r := envelope.Reader{Taxonomy: taxonomy, Secrets: keyIDs(resp.Request)}
	if reads(resp.Request) {
		r.Writes = []string{} // the POST is a read: it cannot have acted
	}
	return r.ReadBody(&http.Response{StatusCode: resp.StatusCode, Header: h, Request: resp.Request}, body)
}

// keyIDs returns the access key id a SigV4 request signed with, from its
// Authorization field ("AWS4-HMAC-SHA256 Credential=AKIA.../20261201/..."),
// so that a message that echoes it back (InvalidAccessKeyId's) does not
// give it away: the Reader redacts the field's whole value, not the parts
// a service quotes.
func keyIDs(req *http.Request) []string {
	if req == nil {
		return nil
	}
	_, cred, ok := strings.Cut(req.Header.Get("Authorization"), "Credential=")
	if !ok {
		return nil
	}
	id, _, _ := strings.Cut(cred, "/")
	if id == "" {
		return nil
	}
	return []string{id}
}

// reads reports whether req, a request of one of AWS's RPC protocols,
// which POST every operation, is an operation that only reads, by the
// name its X-Amz-Target field gives it ("DynamoDB_20120810.GetItem"):
// AWS names its reads Get, List, Describe, Query, Scan and BatchGet. A
// gateway's 502 or 504 to any other POST may come after the service acted.
func reads(req *http.Request) bool {
	if req == nil {
		return false
	}
	target := req.Header.Get("X-Amz-Target")
	op := target[strings.LastIndexByte(target, '.')+1:]
	for _, verb := range [...]string{"Get", "List", "Describe", "Query", "Scan", "BatchGet"} {
		if rest, ok := strings.CutPrefix(op, verb); ok && (rest == "" || rest[0] >= 'A' && rest[0] <= 'Z') {
			return true
		}
	}
	return false
}

// taxonomy is errkind's standard taxonomy with AWS's own codes ahead of
// it: the codes the SDK itself retries as throttling
// (retry.DefaultThrottleErrorCodes), and the errors common to all AWS
// services (docs.aws.amazon.com, each service's API Reference, "Common
// Errors") and to the DynamoDB, S3 and STS references that the standard
// rules do not read by their words. AWS sends most of them with a 400,
// whatever they mean, so the code decides.
var taxonomy = func() *errkind.Taxonomy {
	var rules []errkind.Rule
	for _, c := range [...]struct {
		kind  errkind.Kind
		codes []string
	}{
		{errkind.AuthenticationFailed, []string{
			"IncompleteSignature*", "InvalidClientTokenId", "MissingAuthenticationToken*",
			"UnrecognizedClient*", "InvalidSignature*", "SignatureDoesNotMatch",
			"ExpiredToken*", "RequestExpired", "InvalidAccessKeyId", "AuthFailure",
		}},
		{errkind.PermissionDenied, []string{"AccessDenied*", "NotAuthorized*", "UnauthorizedOperation", "OptInRequired"}},
		{errkind.Conflict, []string{"ConditionalCheckFailed*", "ResourceInUse*", "TransactionConflict*", "ConcurrentModification*"}},
	} {
		for _, code := range c.codes {
			rules = append(rules, errkind.Rule{Code: code, Kind: c.kind})
		}
	}
	throttles := make([]string, 0, len(retry.DefaultThrottleErrorCodes))
	for code := range retry.DefaultThrottleErrorCodes {
		throttles = append(throttles, code)
	}
	slices.Sort(throttles)
	for _, code := range throttles {
		rules = append(rules, errkind.Rule{Code: code, Kind: errkind.RateLimited})
	}
	return errkind.Standard().With(rules...)
}()
