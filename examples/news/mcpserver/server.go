package mcpserver

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcperr/mcperr/examples/news/newsindex"
	"github.com/mcperr/mcperr/redisstore"
)

// Config configures a Server. The zero value serves the sample index with
// the demo keys on the real clock.
type Config struct {
	// Index is the index served; nil means the sample index (newsindex.New(4)).
	Index *newsindex.Index
	// Keys are the API keys of the hosted server; nil means DemoKeys().
	Keys []Key
	// Now is the clock; nil means time.Now. Tests inject their own.
	Now func() time.Time
	// FailShards makes this many shards stop answering from the start (the
	// most recent ones first), as -fail-shards does.
	FailShards int
	// Shared keeps the hosted server's limits and budgets (messages and
	// credits a minute, credits a month) and its watches, with their cap,
	// in Redis, so that every replica given a store of the same Redis and
	// prefix shares them exactly. Nil keeps them in process memory. When
	// Redis fails, messages and calls pass unlimited (the store logs it)
	// and the watch tools answer upstream_unavailable.
	Shared *redisstore.Store
	// AllowedHosts lists the host names the hosted endpoint accepts in the
	// Host and Origin headers of /mcp (DNS-rebinding protection); nil means
	// the loopback names. "*" accepts any.
	AllowedHosts []string
	// Telemetry records every MCP request as OpenTelemetry spans and
	// metrics (package github.com/mcperr/mcperr/telemetry), through the
	// global providers. Off, the server records nothing.
	Telemetry bool
}

// Server is the news index server: the eight tools over an index, the
// accounts of the hosted server and their watches. One Server backs the
// local stdio server (see MCP) and the hosted endpoint (see Handler)
// alike. It is safe for concurrent use.
type Server struct {
	index     *newsindex.Index
	clock     func() time.Time
	tools     []*tool
	local     *account
	hosts     []string
	telemetry bool // each go-sdk server built is instrumented (Config.Telemetry)
	nextWatch atomic.Int64

	budget budget         // messages and credits, per account id
	shared *sharedWatches // the watches, when they are kept in Redis

	mu       sync.Mutex
	accounts map[string]*account
	down     [newsindex.Shards]bool
}

// New returns a Server configured by c, or an error when c.Keys holds a key
// without its "key" or one that repeats an earlier key.
func New(c Config) (*Server, error) {
	s := &Server{index: c.Index, clock: c.Now, tools: tools(), accounts: map[string]*account{}, hosts: c.AllowedHosts, telemetry: c.Telemetry}
	if s.index == nil {
		s.index = newsindex.New(4)
	}
	if s.clock == nil {
		s.clock = time.Now
	}
	keys := c.Keys
	if keys == nil {
		keys = DemoKeys()
	}
	for i, k := range keys {
		switch {
		case k.Key == "":
			return nil, fmt.Errorf("key %d has no \"key\"", i)
		case s.accounts[k.Key] != nil:
			return nil, fmt.Errorf("key %d repeats an earlier key", i)
		}
		s.accounts[k.Key] = &account{id: fmt.Sprintf("account-%d", i+1), key: k}
	}
	if c.Shared != nil {
		s.budget.Store = c.Shared
		s.shared = &sharedWatches{client: c.Shared.Client(), prefix: c.Shared.Prefix(), timeout: c.Shared.Timeout()}
	}
	s.local = &account{local: true, key: Key{Plan: Plan{Name: "local"}}}
	s.FailShards(c.FailShards)
	return s, nil
}

func (s *Server) now() time.Time { return s.clock() }

// Index returns the index the server serves.
func (s *Server) Index() *newsindex.Index { return s.index }

// FailShards makes the n most recent shards stop answering and the others
// answer (n is clamped to [0, newsindex.Shards]). FailShards(0) heals all.
func (s *Server) FailShards(n int) {
	n = min(max(n, 0), newsindex.Shards)
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.down {
		s.down[i] = i >= newsindex.Shards-n
	}
}

// FailingShards returns the shards that do not answer now.
func (s *Server) FailingShards() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []int{}
	for i, d := range s.down {
		if d {
			out = append(out, i)
		}
	}
	return out
}

func (s *Server) isDown(shard int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return shard >= 0 && shard < len(s.down) && s.down[shard]
}

// account returns the account of an API key, or nil.
func (s *Server) account(key string) *account {
	if key == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.accounts[key]
}

func (s *Server) tool(name string) *tool {
	for _, t := range s.tools {
		if t.name == name {
			return t
		}
	}
	return nil
}
