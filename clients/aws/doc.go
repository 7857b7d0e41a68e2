// Package aws reads the errors of aws-sdk-go-v2 (github.com/aws/aws-sdk-go-v2)
// into envelope's rules, so that a tool handler can return the error an AWS
// call gave, unchanged or wrapped with %w, and the agent gets the kind
// object AWS's documentation calls for.
//
//	go get github.com/mcperr/mcperr/clients/aws
//
// Importing the package is all the setup a server does: its init registers
// Read with envelope.Register, so envelope.ErrorOf, and the adapters'
// Handle, which use it, find the failure in any aws-sdk-go-v2 error:
//
//	import _ "github.com/mcperr/mcperr/clients/aws"
//
// An AWS call that got an answer fails with an *awshttp.ResponseError that
// keeps the HTTP response (its status and its header: the request id in
// x-amzn-RequestId, a Retry-After) around the smithy.APIError the SDK read
// the body into (its ErrorCode and ErrorMessage). Read reads them as the
// response they stand for: the status and the header as sent, and the body
// as AWS's JSON protocols write it, {"__type":code,"message":...}.
//
// AWS answers most failures with a 400 whatever they mean, so the code
// decides: ThrottlingException, ProvisionedThroughputExceededException,
// RequestLimitExceeded and the other codes the SDK itself retries as
// throttling (retry.DefaultThrottleErrorCodes) are rate_limited; the common
// errors of AWS's API references (UnrecognizedClientException,
// InvalidClientTokenId, AccessDeniedException, ConditionalCheckFailedException,
// ResourceInUseException, ...) their kinds; any other code is read by the
// standard taxonomy, ResourceNotFoundException as not_found and
// ValidationException as invalid_arguments.
//
// The SDK retries throttling and 5xx answers itself and then fails with
// the last answer's error wrapped (*retry.MaxAttemptsError), or joined with
// its own when its retry quota is spent (ratelimit.QuotaExceededError): the
// agent gets the last answer. A call that got no answer (a timeout, a
// refused connection) is network_error, as envelope.ErrorOf reads it.
package aws
