package errkind

// Field names a member of the JSON kind object besides "kind". A kind's
// [Advice] lists the fields its object carries, in order.
type Field string

// The members of the kind object, in the order [Fields] returns them.
const (
	FieldCode       Field = "code"              // the upstream's own code
	FieldMessage    Field = "message"           // the upstream's message, or the client's sentence
	FieldDetails    Field = "details"           // the upstream's details, as sent
	FieldHTTPStatus Field = "httpStatus"        // the upstream response's status
	FieldRetryAfter Field = "retryAfterSeconds" // how long to wait before retrying, in whole seconds
	FieldLimit      Field = "limit"             // the rate limit's size
	FieldRemaining  Field = "remaining"         // what is left of the rate limit
	FieldReset      Field = "resetSeconds"      // seconds until the rate limit resets
)

// Fields returns every member of the kind object besides "kind", in the
// order an object whose kind declares no fields writes them.
func Fields() []Field {
	return []Field{FieldCode, FieldMessage, FieldDetails, FieldHTTPStatus, FieldRetryAfter, FieldLimit, FieldRemaining, FieldReset}
}
