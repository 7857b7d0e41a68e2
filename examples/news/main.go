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
// Flags:
//
//	-http ADDR       serve hosted on ADDR instead of stdio
//	-keys FILE       the API keys and their plans (JSON)
//	-fail-shards N   make the N most recent of the index's shards stop answering
//	-allowed-hosts   comma-separated host names accepted in Host/Origin at /mcp (default loopback)
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

	"github.com/mcperr/mcperr/examples/internal/httpserve"
	"github.com/mcperr/mcperr/examples/internal/stdio"
	"github.com/mcperr/mcperr/examples/news/newsserver"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("news: ")
	if err := run(os.Args[1:]); err != nil {
		log.Fatal(err)
	}
}

func run(argv []string) error {
	fs := flag.NewFlagSet("news", flag.ContinueOnError)
	addr := fs.String("http", "", "serve the hosted endpoint (MCP at /mcp, REST at /v1/...) on `ADDR` instead of stdio")
	keysFile := fs.String("keys", "", "read the API keys and their plans from `FILE` (JSON); default the demo keys")
	fail := fs.Int("fail-shards", 0, "make the `N` most recent shards stop answering")
	hosts := fs.String("allowed-hosts", "", "comma-separated `HOSTS` accepted in the Host and Origin headers of /mcp (default the loopback names)")
	if err := fs.Parse(argv); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	cfg := newsserver.Config{FailShards: *fail}
	if *hosts != "" {
		cfg.AllowedHosts = strings.Split(*hosts, ",")
	}
	if *keysFile != "" {
		f, err := os.Open(*keysFile)
		if err != nil {
			return err
		}
		cfg.Keys, err = newsserver.ReadKeys(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", *keysFile, err)
		}
	}
	srv, err := newsserver.New(cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *addr == "" {
		// The shared transport, not the SDK's StdioTransport: a piped
		// session gets every answer, even those still in flight when the
		// input ends.
		err := srv.MCP().Run(ctx, &stdio.Transport{In: os.Stdin, Out: os.Stdout})
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
	return httpserve.Run(ctx, ln, srv.Handler(), nil)
}
