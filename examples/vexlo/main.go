// Command vexlo is the Vexlo MCP server: eleven vexlo_* tools over stdio,
// whose every failure an agent can tell apart (see package mcpserver and
// README.md).
//
// Usage:
//
//	vexlo                      serve stdio against VEXLO_URL with VEXLO_TOKEN
//	vexlo -demo                serve stdio against an embedded demo Vexlo API
//	vexlo -demo-addr HOST:PORT run only the embedded Vexlo API, in the foreground
//
// Environment: VEXLO_URL (the API's base URL), VEXLO_TOKEN (a read token;
// unset or empty means no-auth mode), VEXLO_TIMEOUT (a Go duration that may
// lower the 30-second deadline of each upstream call).
//
// Memory: the collector runs against a 24 MiB memory limit (GOGC=off and
// GOMEMLIMIT=24MiB; see package gcbudget), which the GOGC and GOMEMLIMIT
// environment variables override.
//
// With a token, startup calls GET /v1/tokens/self once; a rejected token, a
// role other than read, or an API it cannot reach ends the process at once
// with one line on stderr, such as
//
//	vexlo-mcp: token role "write" is not allowed; use a read token
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mcperr/mcperr/examples/internal/gcbudget"
	"github.com/mcperr/mcperr/examples/vexlo/demoapi"
	"github.com/mcperr/mcperr/examples/vexlo/mcpserver"
	"github.com/mcperr/mcperr/gosdk"
	"github.com/mcperr/mcperr/telemetry/otlpenv"
)

// memoryLimit is the server's memory budget: a live heap of about 4 MB, and
// room for a few hundred calls' garbage between collections.
const memoryLimit = 24 << 20

func main() {
	gcbudget.Set(memoryLimit)
	// A client that closes its end of stdout makes writes fail with EPIPE,
	// which ends the session, instead of killing the process by SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// run is the whole program, with its inputs and outputs as arguments.
func run(ctx context.Context, argv []string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer, getenv func(string) string) int {
	fail := func(code int, format string, args ...any) int {
		fmt.Fprintf(stderr, "vexlo-mcp: "+format+"\n", args...)
		return code
	}
	fs := flag.NewFlagSet("vexlo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	demo := fs.Bool("demo", false, "start the embedded demo Vexlo API on a loopback port and serve against it")
	demoAddr := fs.String("demo-addr", "", "run only the embedded Vexlo API on `HOST:PORT`, in the foreground")
	if err := fs.Parse(argv); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		return fail(2, "unexpected argument %q", fs.Arg(0))
	}

	if *demoAddr != "" {
		api := demoapi.New(nil)
		srv, err := demoapi.Start(api, *demoAddr)
		if err != nil {
			return fail(1, "demo API: %v", err)
		}
		fmt.Fprintf(stdout, "VEXLO_URL=%s\nVEXLO_TOKEN=%s\nVEXLO_DEMO_ADMIN_KEY=%s\n", srv.URL, api.DemoToken().Secret, api.AdminKey())
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
		return 0
	}

	// With OTEL_EXPORTER_OTLP_ENDPOINT (or a per-signal endpoint) set, the
	// server exports its spans and metrics over OTLP; without, nothing.
	stopTelemetry, exporting, err := otlpenv.Start(ctx)
	if err != nil {
		return fail(2, "%v", err)
	}
	defer stopTelemetry(context.Background())
	cfg := mcpserver.Config{BaseURL: getenv("VEXLO_URL"), Token: getenv("VEXLO_TOKEN"), Telemetry: exporting}
	if s := getenv("VEXLO_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return fail(2, "VEXLO_TIMEOUT %q is not a positive Go duration such as 10s", s)
		}
		cfg.Timeout = d
	}
	if *demo {
		api := demoapi.New(nil)
		srv, err := demoapi.Start(api, "127.0.0.1:0")
		if err != nil {
			return fail(1, "demo API: %v", err)
		}
		defer srv.Close()
		cfg.BaseURL, cfg.Token = srv.URL, api.DemoToken().Secret
	}
	if cfg.BaseURL == "" {
		return fail(2, "VEXLO_URL is not set (or run with -demo)")
	}
	s, err := mcpserver.New(cfg)
	if err != nil {
		return fail(2, "%v", err)
	}
	if err := s.CheckToken(ctx); err != nil {
		return fail(1, "%v", err)
	}
	// At the end of the input, answers still in flight get the longest an
	// upstream call can take, and a little more.
	err = s.Run(ctx, &gosdk.StdioTransport{In: stdin, Out: stdout, Drain: mcpserver.DefaultTimeout + 5*time.Second, Server: s.MCP()})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		// The client went away or the pipe broke: nothing more can be said
		// on stdout, and the session is over either way.
		return 1
	}
	return 0
}
