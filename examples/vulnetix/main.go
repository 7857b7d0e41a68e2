// Command vulnetix is the Vulnetix MCP server: vulnerability lookups from the
// Vulnetix VDB over MCP Streamable HTTP (protocol revision 2026-07-28,
// stateless), with every error of the Vulnetix error contract in the shape
// the contract gives it (see README.md).
//
// Usage:
//
//	go run ./vulnetix -demo                 # with the embedded vdb-api
//	VULNETIX_API_URL=https://... go run ./vulnetix
//	go run ./vulnetix -demo-addr 127.0.0.1:8788   # only the embedded vdb-api
//
// Flags:
//
//	-addr HOST:PORT        listen address of POST /mcp and GET /healthz (default 127.0.0.1:8787)
//	-demo                  start the embedded vdb-api on loopback and use it
//	-demo-addr HOST:PORT   run only the embedded vdb-api, on this address
//	-allow-host NAME       add a Host name to the allowlist (repeatable)
//	-allow-origin ORIGIN   add an Origin to the allowlist (repeatable)
//	-edge-limit N          edge flood guard: requests per window per source (default 100)
//	-edge-window D         its window (default 10s)
//	-edge-block D          how long a source over the limit is refused (default 10s)
//	-edge-colo-header H    also key the guard on this CDN location header when present
//	-redis URL             keep the edge guard's counters in this Redis (redis://HOST:PORT/DB),
//	                       shared by every replica that uses it; a Redis Cluster as
//	                       redis://HOST:PORT/0?addr=HOST2:PORT2&addr=HOST3:PORT3
//
// Environment:
//
//	VULNETIX_API_URL  base URL of vdb-api (ignored with -demo)
//	MCP_AEAD_KEY      32 bytes as 64 hex digits; seals login handles. Without
//	                  it the login tools answer that they cannot run.
//
// Memory: the collector runs against a 40 MiB memory limit (GOGC=off and
// GOMEMLIMIT=40MiB; see package gcbudget), which the GOGC and GOMEMLIMIT
// environment variables override.
//
// The caller's credential is the Authorization: Bearer header of each MCP
// request; it is forwarded to vdb-api and never logged. With -demo, the keys
// of package vdbdemo work (vdb-demo-community, vdb-demo-quota, ...).
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mcperr/mcperr/examples/internal/gcbudget"
	"github.com/mcperr/mcperr/examples/internal/httpserve"
	"github.com/mcperr/mcperr/examples/vulnetix/mcpserver"
	"github.com/mcperr/mcperr/examples/vulnetix/vdbdemo"
	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/redisstore"
	"github.com/mcperr/mcperr/telemetry/otlpenv"
)

// list is a repeatable string flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

// memoryLimit is the server's memory budget: a live heap of a few MB, and
// room for the garbage of 64 concurrent calls between collections.
const memoryLimit = 40 << 20

func main() {
	gcbudget.Set(memoryLimit)
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "vulnetix:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("vulnetix", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8787", "listen address of POST /mcp and GET /healthz")
	demo := fs.Bool("demo", false, "start the embedded vdb-api on loopback and use it")
	demoAddr := fs.String("demo-addr", "", "run only the embedded vdb-api, on this address")
	var hosts, origins list
	fs.Var(&hosts, "allow-host", "add a Host name to the allowlist (repeatable)")
	fs.Var(&origins, "allow-origin", "add an Origin (scheme://host[:port]) to the allowlist (repeatable)")
	edgeLimit := fs.Int("edge-limit", 100, "edge flood guard: requests per window per source")
	edgeWindow := fs.Duration("edge-window", 10*time.Second, "edge flood guard window")
	edgeBlock := fs.Duration("edge-block", 10*time.Second, "how long a source over the limit is refused")
	redisURL := fs.String("redis", "", "keep the edge guard's counters in the Redis at `URL` (redis://HOST:PORT/DB), shared by every replica that uses it")
	colo := fs.String("edge-colo-header", "", "also key the edge guard on this CDN location header when present (only behind a CDN that sets it)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *demoAddr != "" {
		ln, err := net.Listen("tcp", *demoAddr)
		if err != nil {
			return err
		}
		log.Info("embedded vdb-api", "addr", ln.Addr().String())
		return httpserve.Run(ctx, ln, vdbdemo.New(nil), nil)
	}

	apiURL := os.Getenv("VULNETIX_API_URL")
	if *demo {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		apiURL = "http://" + ln.Addr().String()
		go httpserve.Run(ctx, ln, vdbdemo.New(nil), nil)
		log.Info("embedded vdb-api (demo keys: see README.md)", "url", apiURL)
	}
	if apiURL == "" {
		log.Warn("VULNETIX_API_URL is not set and -demo is off: every vdb-api call will fail")
	}
	var key []byte
	if v := os.Getenv("MCP_AEAD_KEY"); v != "" {
		k, err := mcpserver.ParseAEADKey(v)
		if err != nil {
			return err
		}
		key = k
	}
	var edgeStore ratelimit.Store
	if *redisURL != "" {
		store, err := redisstore.New(ctx, *redisURL, redisstore.Options{Prefix: "vulnetix:", ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)})
		if err != nil {
			return fmt.Errorf("-redis: %w", err)
		}
		defer store.Close()
		edgeStore = store
		log.Info("edge guard counters in Redis, shared with every replica on the same -redis")
	}
	// With OTEL_EXPORTER_OTLP_ENDPOINT (or a per-signal endpoint) set, the
	// server exports its spans and metrics over OTLP; without, nothing.
	stopTelemetry, exporting, err := otlpenv.Start(ctx)
	if err != nil {
		return err
	}
	defer stopTelemetry(context.Background())
	srv, err := mcpserver.New(mcpserver.Config{
		Telemetry:      exporting,
		APIURL:         apiURL,
		AEADKey:        key,
		AllowHosts:     hosts,
		AllowOrigins:   origins,
		EdgeLimit:      *edgeLimit,
		EdgeWindow:     *edgeWindow,
		EdgeBlock:      *edgeBlock,
		EdgeColoHeader: *colo,
		EdgeStore:      edgeStore,
		Logger:         log,
	})
	if err != nil {
		return err
	}
	log.Info("vulnetix MCP server", "url", "http://"+*addr+"/mcp", "protocol", mcpserver.ProtocolVersion, "login", key != nil)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	// mcpserver.Listener answers the request heads net/http refuses by
	// itself with JSON-RPC bodies, like every other protocol error.
	return httpserve.Run(ctx, mcpserver.Listener(ln), srv, slog.NewLogLogger(log.Handler(), slog.LevelWarn))
}
