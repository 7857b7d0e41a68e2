package gosdk_test

import (
	"net/http"
	"testing"

	"github.com/mcperr/mcperr/adapter"
	"github.com/mcperr/mcperr/adapter/adaptertest"
	"github.com/mcperr/mcperr/gosdk"
)

// TestLimitCodeByRevision: behind gosdk.HTTPHandler, a message refused by
// an all-message limit answers 429 with -32000 on revision 2025-11-25 and
// with the application code -31000 on 2026-07-28 (errkind.RPCCode.On),
// data carrying the rate_limited kind object on both.
func TestLimitCodeByRevision(t *testing.T) {
	adaptertest.LimitCodeByRevision(t, func(o adapter.HTTP) http.Handler {
		return gosdk.HTTPHandler(testServer(nil, nil, nil), &gosdk.HTTPOptions{HTTP: o})
	})
}
