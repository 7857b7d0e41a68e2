package adapter

import (
	"net/http"

	"github.com/mcperr/mcperr/wire"
)

// httpRevision returns the protocol revision a request speaks, for the code
// table (errkind.RPCCode.On): the one its params' _meta says (revision
// 2026-07-28 and later carry it in every request), else its
// MCP-Protocol-Version header, else "" (an earlier revision).
func httpRevision(r *http.Request, m *wire.Message) string {
	if v := Revision(m.Params); v != "" {
		return v
	}
	return r.Header.Get("MCP-Protocol-Version")
}
