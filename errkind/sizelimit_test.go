package errkind_test

import (
	"testing"

	"github.com/mcperr/mcperr/errkind"
)

// TestStandardSizeLimits: a code that names a limit on the size or the
// length of what the request carries is invalid_arguments (make it
// smaller), whatever its case style and the status beside it; a limit
// that names no size stays a rate to wait out.
func TestStandardSizeLimits(t *testing.T) {
	tests := []struct {
		name, code string
		status     int
		want       errkind.Kind
	}{
		{"a size limit exceeded", "AVATAR_SIZE_LIMIT_EXCEEDED", 400, errkind.InvalidArguments},
		{"a size limit reached, camel case", "uploadSizeLimitReached", 413, errkind.InvalidArguments},
		{"a length limit, kebab case", "comment-length-limit", 422, errkind.InvalidArguments},
		{"guard: a daily limit waits", "DAILY_LIMIT_EXCEEDED", 400, errkind.RateLimited},
		{"guard: a burst limit waits", "burst_limit_reached", 400, errkind.RateLimited},
	}
	for _, tt := range tests {
		if got := errkind.Standard().Classify(tt.code, tt.status); got != tt.want {
			t.Errorf("%s: Classify(%q, %d) = %s, want %s", tt.name, tt.code, tt.status, got, tt.want)
		}
	}
}
