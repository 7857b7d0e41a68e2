// Command news is the news index example MCP server of mcperr: a story index
// served over MCP and REST with one code vocabulary, the news error
// contract, and credits.
//
// Run it on stdio, as a local MCP server over the embedded sample index:
//
//	go run ./news
//
// The local server lists the watch tools but answers them with the tool
// error unsupported. Run it hosted, with API keys, plans and a watch store:
//
//	go run ./news -http 127.0.0.1:8788
//
// The hosted server serves Streamable HTTP MCP at /mcp (protocol 2025-11-25
// and 2026-07-28) and REST at /v1/..., each with "Authorization: Bearer
// <key>". Without -keys the demo keys serve (see README.md).
//
// Memory: the collector runs against a memory limit of 28 MiB on stdio and
// 36 MiB hosted (GOGC=off and GOMEMLIMIT=28MiB or 36MiB; see package
// gcbudget), which the GOGC and GOMEMLIMIT environment variables override.
//
// Flags:
//
//	-http ADDR       serve hosted on ADDR instead of stdio
//	-keys FILE       the API keys and their plans (JSON)
//	-fail-shards N   make the N most recent of the index's shards stop answering
//	-allowed-hosts   comma-separated host names accepted in Host/Origin at /mcp (default loopback)
//	-redis URL       keep limits, budgets and watches in this Redis (redis://HOST:PORT/DB), shared by replicas;
//	                 a Redis Cluster as redis://HOST:PORT/0?addr=HOST2:PORT2&addr=HOST3:PORT3
//
// Replicas behind one load balancer share every limit, budget and watch
// when each runs with the same -redis and -keys:
//
//	go run ./news -http 127.0.0.1:8788 -redis redis://127.0.0.1:6379/0
//	go run ./news -http 127.0.0.1:8789 -redis redis://127.0.0.1:6379/0
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mcperr/mcperr/examples/internal/gcbudget"
	"github.com/mcperr/mcperr/examples/internal/httpserve"
	"github.com/mcperr/mcperr/examples/news/mcpserver"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/redisstore"
	"github.com/mcperr/mcperr/telemetry/otlpenv"
)

// The server's memory budgets: a live heap of about 7 MB (the sample index),
// and room for about a hundred calls' garbage between collections on stdio,
// or for 64 concurrent calls' hosted.
const (
	stdioMemoryLimit  = 28 << 20
	hostedMemoryLimit = 36 << 20
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("news: ")
	// A client that closes its end of stdout makes writes fail with EPIPE,
	// which ends the session, instead of killing the process by SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	if err := run(os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}

func run(argv []string) error {
	fs := flag.NewFlagSet("news", flag.ContinueOnError)
	addr := fs.String("http", "", "serve the hosted endpoint (MCP at /mcp, REST at /v1/...) on `ADDR` instead of stdio")
	keysFile := fs.String("keys", "", "read the API keys and their plans from `FILE` (JSON); default the demo keys")
	fail := fs.Int("fail-shards", 0, "make the `N` most recent shards stop answering")
	redisURL := fs.String("redis", "", "keep the hosted server's limits, budgets and watches in the Redis at `URL` (redis://HOST:PORT/DB), shared by every replica that uses it")
	hosts := fs.String("allowed-hosts", "", "comma-separated `HOSTS` accepted in the Host and Origin headers of /mcp (default the loopback names)")
	if err := fs.Parse(argv); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if *addr == "" {
		gcbudget.Set(stdioMemoryLimit)
	} else {
		gcbudget.Set(hostedMemoryLimit)
	}
	cfg := mcpserver.Config{FailShards: *fail}
	if *hosts != "" {
		cfg.AllowedHosts = strings.Split(*hosts, ",")
	}
	if *keysFile != "" {
		f, err := os.Open(*keysFile)
		if err != nil {
			return err
		}
		cfg.Keys, err = mcpserver.ReadKeys(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", *keysFile, err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *redisURL != "" {
		if *addr == "" {
			return errors.New("-redis: only the hosted server (-http) keeps limits; the stdio server has none")
		}
		store, err := redisstore.New(ctx, *redisURL, redisstore.Options{Prefix: "news:", ErrorLog: log.Default()})
		if err != nil {
			return fmt.Errorf("-redis: %w", err)
		}
		defer store.Close()
		cfg.Shared = store
	}
	// With OTEL_EXPORTER_OTLP_ENDPOINT (or a per-signal endpoint) set, the
	// server exports its spans and metrics over OTLP; without, nothing.
	stopTelemetry, exporting, err := otlpenv.Start(ctx)
	if err != nil {
		return err
	}
	defer stopTelemetry(context.Background())
	cfg.Telemetry = exporting
	srv, err := mcpserver.New(cfg)
	if err != nil {
		return err
	}

	if *addr == "" {
		// gosdk's transport, not the SDK's StdioTransport: a piped
		// session gets every answer, even those still in flight when the
		// input ends.
		err := srv.RunStdio(ctx, &gosdk.StdioTransport{})
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	log.Printf("serving MCP at http://%s/mcp and REST at http://%s/v1/", ln.Addr(), ln.Addr())
	if cfg.Shared != nil {
		log.Printf("limits, budgets and watches in Redis (shared with every replica on the same -redis)")
	}
	return httpserve.Run(ctx, ln, srv.Handler(), nil)
}
