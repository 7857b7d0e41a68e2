package gosdk

import (
	"sync"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The servers AddTool added a tool to, which a StdioTransport whose Server
// is unset looks among for the server it serves (see StdioTransport.Server).
// They are held weakly: a server no longer used (one built per HTTP
// request) is collected as if it were not listed.
var known struct {
	mu      sync.Mutex
	servers map[weak.Pointer[mcp.Server]]struct{}
	pruned  int // len(servers) after the last pruning
}

// remember lists s among the known servers.
func remember(s *mcp.Server) {
	p := weak.Make(s)
	known.mu.Lock()
	defer known.mu.Unlock()
	if known.servers == nil {
		known.servers = make(map[weak.Pointer[mcp.Server]]struct{})
	}
	if _, ok := known.servers[p]; ok {
		return
	}
	known.servers[p] = struct{}{}
	if len(known.servers) > 2*known.pruned+64 { // amortized: the map stays within twice the live servers
		for q := range known.servers {
			if q.Value() == nil {
				delete(known.servers, q)
			}
		}
		known.pruned = len(known.servers)
	}
}

// knownServers returns the known servers still in use.
func knownServers() []*mcp.Server {
	known.mu.Lock()
	defer known.mu.Unlock()
	out := make([]*mcp.Server, 0, len(known.servers))
	for p := range known.servers {
		if s := p.Value(); s != nil {
			out = append(out, s)
		}
	}
	return out
}
