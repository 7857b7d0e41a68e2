// Command load measures the example servers against servers written on the
// MCP TypeScript SDK 1.32.2 and zod with the same tools
// (examples/interop/bench/*.mjs), side by side.
//
// Over stdio it starts vexlo, the local news server, the mcp-go server of
// the mcpgo package doc (mcpgo/internal/docserver, two of the Vexlo tools)
// and the server of the gosdk package doc (gosdk/internal/traces, over
// gosdk.StdioTransport as "traces", over a zero gosdk.StdioTransport as
// "traces-zero" and over the go-sdk's mcp.StdioTransport as "traces-sdk"),
// and their TypeScript twins, one process at a time,
// alternating Go and TypeScript from round to
// round, and pipelines tools/call requests (a bounded window in flight). Per
// row it prints the server's CPU time per call (utime+stime from
// /proc/PID/stat, counted from after the warm-up to the last answer), calls
// per second of wall time, and peak RSS (VmHWM). Over HTTP it runs vulnetix
// and the hosted news server and their TypeScript twins under concurrent
// clients and prints p50 and p99 latency, throughput, CPU per call and peak
// RSS. The hosted rows run the gosdk package doc's server over Streamable
// HTTP (examples/interop/bench/hosted: gosdk.HTTPHandler stateless and
// stateful, with a limiter on redisstore when -redis or MCPERR_REDIS_URL
// names a Redis server, the same tools on the go-sdk alone and behind
// mcpgo.HTTPHandler) beside its TypeScript twin, stateless and stateful, each
// client with a bearer key (and a session) of its own; with a limiter on
// Redis they also print Redis's round trips, commands and CPU time per call
// (from INFO before and after).
//
// The machine is usually shared: wall-clock figures (calls/s, latency) move
// with the load of other processes, CPU time per call much less. Compare
// CPU per call first.
//
// Run it from the repository root:
//
//	go run ./examples/interop/load
//
// It builds the Go servers, installs the npm packages (examples/interop/setup.sh,
// cached), starts the upstreams in-process (the embedded Vexlo API in
// no-auth mode and the embedded vdb-api, shared by both sides), and prints
// one table row per case. Flags choose the rows, the rounds and the sizes;
// see -help.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcperr/mcperr/examples/vexlo/demoapi"
	"github.com/mcperr/mcperr/examples/vulnetix/vdbdemo"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

type options struct {
	rounds   int
	calls    int
	warmup   int
	window   int
	clients  int   // http: concurrent clients of the row being measured
	counts   []int // http: every count of clients to measure each row at
	duration time.Duration
	rows     *regexp.Regexp
	sides    *regexp.Regexp // the servers of the hosted rows
	goOnly   bool
	env      []string // extra environment for the Go servers
	redis    string   // the Redis server of the hosted rows' limiters
}

func run() error {
	var o options
	flag.IntVar(&o.rounds, "rounds", 3, "runs per side and row (alternating Go and TypeScript); the median is printed")
	flag.IntVar(&o.calls, "calls", 3000, "stdio: tools/call requests measured per run")
	flag.IntVar(&o.warmup, "warmup", 300, "stdio: requests sent before measuring")
	flag.IntVar(&o.window, "window", 16, "stdio: requests in flight at most")
	clients := flag.String("clients", "64", "http: concurrent clients; a comma-separated list (64,256) runs every HTTP row at each")
	flag.DurationVar(&o.duration, "duration", 5*time.Second, "http: how long each run sends")
	rows := flag.String("rows", "", "only the rows whose name matches this regular expression")
	sidesRe := flag.String("sides", "", "hosted rows: only the servers whose name matches this regular expression")
	flag.StringVar(&o.redis, "redis", os.Getenv("MCPERR_REDIS_URL"), "hosted rows: the Redis server (redis://127.0.0.1:PORT/0) of the rows with a limiter on redisstore, which are left out without one; source .ci/redis.sh starts one")
	flag.BoolVar(&o.goOnly, "go-only", false, "run only the Go servers (profiling, before/after comparisons)")
	goEnv := flag.String("go-env", "", "comma-separated NAME=VALUE pairs added to the Go servers' environment (GOGC=off, GODEBUG=...)")
	bin := flag.String("bin", "", "use the Go servers already built in this folder instead of building them")
	flag.Parse()
	var err error
	if o.rows, err = regexp.Compile(*rows); err != nil {
		return err
	}
	if o.sides, err = regexp.Compile(*sidesRe); err != nil {
		return err
	}
	for c := range strings.SplitSeq(*clients, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			return fmt.Errorf("-clients %q: want counts above zero, comma-separated", *clients)
		}
		o.counts = append(o.counts, n)
	}
	if *goEnv != "" {
		o.env = strings.Split(*goEnv, ",")
	}

	examples, err := examplesDir()
	if err != nil {
		return err
	}
	interop := filepath.Join(examples, "interop")
	if *bin == "" {
		dir, err := os.MkdirTemp("", "mcperr-load")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		fmt.Fprintln(os.Stderr, "load: go build ./vexlo ./news ./vulnetix")
		cmd := exec.Command("go", "build", "-o", dir+"/", "./vexlo", "./news", "./vulnetix")
		cmd.Dir, cmd.Stderr = examples, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building the servers: %w", err)
		}
		*bin = dir
	}
	// The server of the gosdk package doc lives in the gosdk module: over
	// gosdk.StdioTransport and over the go-sdk's own mcp.StdioTransport.
	for name, transport := range map[string]string{"traces": "gosdk", "traces-sdk": "sdk", "traces-zero": "zero"} {
		if _, err := os.Stat(filepath.Join(*bin, name)); err == nil {
			continue
		}
		fmt.Fprintln(os.Stderr, "load: go build ./gosdk/internal/traces (-X main.transport="+transport+")")
		cmd := exec.Command("go", "build", "-o", filepath.Join(*bin, name), "-ldflags", "-X main.transport="+transport, "./internal/traces")
		cmd.Dir, cmd.Stderr = filepath.Join(examples, "..", "gosdk"), os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building the gosdk doc server: %w", err)
		}
	}
	// The hosted bench server (the gosdk package doc's tools over
	// Streamable HTTP) lives in the examples module.
	if _, err := os.Stat(filepath.Join(*bin, "hosted")); err != nil {
		fmt.Fprintln(os.Stderr, "load: go build ./examples/interop/bench/hosted")
		cmd := exec.Command("go", "build", "-o", filepath.Join(*bin, "hosted"), "./interop/bench/hosted")
		cmd.Dir, cmd.Stderr = examples, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building the hosted bench server: %w", err)
		}
	}
	// The mcp-go servers of the mcpgo package doc live in the mcpgo module:
	// two of the Vexlo tools, and the doc's own get_trace.
	for name, pkg := range map[string]string{"mcpgo-doc": "./internal/docserver", "mcpgo-traces": "./internal/traces"} {
		if _, err := os.Stat(filepath.Join(*bin, name)); err == nil {
			continue
		}
		fmt.Fprintln(os.Stderr, "load: go build ./mcpgo/"+pkg[2:])
		cmd := exec.Command("go", "build", "-o", filepath.Join(*bin, name), pkg)
		cmd.Dir, cmd.Stderr = filepath.Join(examples, "..", "mcpgo"), os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building the mcp-go doc server: %w", err)
		}
	}
	if !o.goOnly {
		fmt.Fprintln(os.Stderr, "load: examples/interop/setup.sh (npm ci, cached)")
		cmd := exec.Command("./setup.sh")
		cmd.Dir, cmd.Stderr = interop, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("installing the npm packages: %w", err)
		}
	}

	// The upstreams, shared by both sides.
	vexloAPI := demoapi.New(nil)
	vexloAPI.NoAuth = true
	vexloURL, stop1, err := serveLoopback(vexloAPI)
	if err != nil {
		return err
	}
	defer stop1()
	vdbURL, stop2, err := serveLoopback(vdbdemo.New(nil))
	if err != nil {
		return err
	}
	defer stop2()
	tracesURL, stop3, err := serveLoopback(http.HandlerFunc(traces))
	if err != nil {
		return err
	}
	defer stop3()

	tmp, err := os.MkdirTemp("", "mcperr-load-data")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	articles := filepath.Join(tmp, "articles.json")
	ids, err := captureArticles(filepath.Join(*bin, "news"), articles)
	if err != nil {
		return fmt.Errorf("capturing the news articles: %w", err)
	}
	keys := filepath.Join(tmp, "keys.json")
	if err := os.WriteFile(keys, []byte(`[{"key":"bench","plan":"pro","monthly_credits":1000000000000,"messages_per_minute":1000000000,"credits_per_minute":1000000000000,"watch_cap":1}]`), 0o600); err != nil {
		return err
	}

	node := func(script string, env ...string) server {
		return server{name: "ts", path: "node", args: []string{filepath.Join(interop, "bench", script)}, env: env}
	}
	goServer := func(name string, args []string, env ...string) server {
		return server{name: "go", path: filepath.Join(*bin, name), args: args, env: append(env, o.env...)}
	}
	vexloEnv := "VEXLO_URL=" + vexloURL
	tracesEnv := "TRACES_API=" + tracesURL
	newsEnv := "NEWS_ARTICLES=" + articles

	// The calls each row makes; a server that serves the same tools takes
	// the same calls, its rows named after it.
	tracesTS, vexloTS := node("traces.mjs", tracesEnv), node("vexlo.mjs", vexloEnv)
	tracesRejection := stdioCall{"schema rejection", params(`{"name":"get_trace","arguments":{}}`), wantResult(`"isError":true`, `Input validation error`)}
	tracesUnknown := stdioCall{"unknown tool", params(`{"name":"get_traces","arguments":{"id":"abc"}}`), wantResult(`"isError":true`, `get_traces`)}
	tracesGet := stdioCall{"success (upstream GET)", params(`{"name":"get_trace","arguments":{"id":"abc"}}`), wantResult(`"structuredContent"`, `"spans"`)}
	tracesLocal := stdioCall{"valid call (no upstream)", params(`{"name":"get_trace_local","arguments":{"id":"abc"}}`), wantResult(`"structuredContent"`, `"spans"`)}
	vexloRejection := stdioCall{"schema rejection", params(`{"name":"vexlo_search_traces","arguments":{"limit":101}}`), wantResult(`"isError":true`, `Input validation error`)}
	vexloUnknown := stdioCall{"unknown tool", params(`{"name":"vexlo_no_such_tool","arguments":{}}`), wantResult(`"isError":true`, `vexlo_no_such_tool`)}
	vexloGet := stdioCall{"success (upstream GET)", params(`{"name":"vexlo_get_trace","arguments":{"traceId":"` + demoapi.SampleTraceID + `"}}`), wantResult(`"structuredContent"`, `"trace_id"`)}
	// mcp-go answers an unknown tool with a JSON-RPC error, TypeScript with a result.
	vexloUnknownAnswer := stdioCall{vexloUnknown.name, vexloUnknown.req, wantAnswer(`vexlo_no_such_tool`)}
	stdioRows := slices.Concat(
		stdioRowsOf("traces ", goServer("traces", nil, tracesEnv), tracesTS, tracesRejection, tracesUnknown, tracesGet, tracesLocal),
		stdioRowsOf("traces-zero ", goServer("traces-zero", nil, tracesEnv), tracesTS, tracesRejection, tracesUnknown, tracesLocal),
		stdioRowsOf("traces-sdk ", goServer("traces-sdk", nil, tracesEnv), tracesTS, tracesRejection, tracesUnknown, tracesGet),
		stdioRowsOf("vexlo ", goServer("vexlo", nil, vexloEnv), vexloTS, vexloRejection, vexloUnknown, vexloGet),
		// A user's server: the mcpgo package doc's server with two of the
		// Vexlo tools (mcpgo/internal/docserver), on mcpgo.ServeStdio, and
		// the same binary on mcp-go's own server.ServeStdio (-sdk).
		stdioRowsOf("mcpgo doc ", goServer("mcpgo-doc", nil, vexloEnv), vexloTS, vexloRejection, vexloUnknown, vexloGet),
		stdioRowsOf("mcpgo doc on server.ServeStdio, ", goServer("mcpgo-doc", []string{"-sdk"}, vexloEnv), vexloTS,
			vexloRejection, vexloUnknownAnswer, vexloGet),
		// The mcpgo package doc's own server (mcpgo/internal/traces), the
		// twin of traces.mjs; trace_link answers at once, without an
		// upstream call, on both sides.
		stdioRowsOf("mcpgo traces ", goServer("mcpgo-traces", nil, tracesEnv), tracesTS, tracesRejection, tracesUnknown,
			stdioCall{"success (no upstream call)", params(`{"name":"trace_link","arguments":{"id":"abc"}}`), wantResult(`"structuredContent"`, `/traces/abc`)},
			tracesGet),
		stdioRowsOf("news ", goServer("news", nil), node("news.mjs", newsEnv),
			stdioCall{"get_article", func(i int) string {
				return `{"name":"get_article","arguments":{"id":"` + ids[i%len(ids)] + `"}}`
			}, wantResult(`"structuredContent"`, `"article"`)},
			stdioCall{"-32602 unknown parameter", params(`{"name":"get_article","arguments":{"id":"a-00001","limit":3}}`), wantError(`-32602`, `unknown_parameter`)}),
	)
	fmt.Println("stdio: pipelined tools/call (" + strconv.Itoa(o.window) + " in flight), " + strconv.Itoa(o.calls) + " calls per run, median of " + strconv.Itoa(o.rounds) + " alternating runs")
	fmt.Println()
	fmt.Println("| case | Go CPU/call | TS CPU/call | Go/TS CPU | Go calls/s | TS calls/s | Go peak RSS | TS peak RSS | Go/TS RSS |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	if err := eachRow(&o, stdioRows, func(r stdioRow) string { return r.name }, func(r stdioRow) error { return r.measure(&o) }); err != nil {
		return err
	}

	vdbEnv := "VULNETIX_API_URL=" + vdbURL
	vuln := `{"name":"vulnetix_vuln","arguments":{"id":"CVE-2021-44228"}}`
	httpRows := []httpRow{
		{name: "vulnetix vulnetix_vuln (upstream GET)", key: "vdb-demo-pro", tool: "vulnetix_vuln",
			gosrv: goServer("vulnetix", []string{"-addr", "ADDR", "-edge-limit", "1000000000"}, vdbEnv),
			tssrv: node("vulnetix.mjs", vdbEnv), params: vuln, check: wantResult(`"structuredContent"`, `CVE-2021-44228`)},
		{name: "vulnetix schema rejection", key: "vdb-demo-pro", tool: "vulnetix_vuln",
			gosrv:  goServer("vulnetix", []string{"-addr", "ADDR", "-edge-limit", "1000000000"}, vdbEnv),
			tssrv:  node("vulnetix.mjs", vdbEnv),
			params: `{"name":"vulnetix_vuln","arguments":{"id":"CVE-1"}}`, check: wantResult(`"isError":true`)},
		{name: "hosted news get_article", key: "bench", tool: "get_article",
			gosrv: goServer("news", []string{"-http", "ADDR", "-keys", keys}),
			tssrv: node("news.mjs", newsEnv, "NEWS_KEY=bench"), params: `{"name":"get_article","arguments":{"id":"a-00042"}}`,
			check: wantResult(`"structuredContent"`, `a-00042`)},
		{name: "hosted news -32602 unknown parameter", key: "bench", tool: "get_article",
			gosrv: goServer("news", []string{"-http", "ADDR", "-keys", keys}),
			tssrv: node("news.mjs", newsEnv, "NEWS_KEY=bench"), params: `{"name":"get_article","arguments":{"id":"a-00042","limit":3}}`,
			check: wantError(`-32602`, `unknown_parameter`)},
	}
	for _, n := range o.counts {
		if !slices.ContainsFunc(httpRows, func(r httpRow) bool { return o.rows.MatchString(r.name) }) {
			break
		}
		o.clients = n
		fmt.Println()
		fmt.Printf("http: %d concurrent clients for %v per run, keep-alive; Go servers on protocol 2026-07-28 (stateless), TS servers stateless 2025-11-25 (a server and transport per request, the SDK's stateless pattern); median of %d alternating runs\n", o.clients, o.duration, o.rounds)
		fmt.Println()
		fmt.Println("| case | Go p50 | TS p50 | Go p99 | TS p99 | Go calls/s | TS calls/s | Go CPU/call | TS CPU/call | Go/TS CPU | Go peak RSS | TS peak RSS |")
		fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
		if err := eachRow(&o, httpRows, func(r httpRow) string { return r.name }, func(r httpRow) error { return r.measure(&o) }); err != nil {
			return err
		}
	}

	// The hosted rows: the gosdk package doc's server over Streamable HTTP.
	sides := hostedSides(&o, filepath.Join(*bin, "hosted"), func(args ...string) server {
		s := node("traces.mjs", tracesEnv)
		s.args = append(s.args, args...)
		return s
	}, tracesEnv)
	trace := `{"name":"get_trace","arguments":{"id":"abc"}}`
	hostedRows := []hostedRow{
		{name: "hosted traces success (upstream GET)", tool: "get_trace", params: trace,
			check: wantResult(`"structuredContent"`, `"spans":3`)},
		{name: "hosted traces success (no upstream call)", tool: "trace_link", params: `{"name":"trace_link","arguments":{"id":"abc"}}`,
			check: wantResult(`"structuredContent"`, `/traces/abc`)},
		{name: "hosted traces schema rejection", tool: "get_trace", params: `{"name":"get_trace","arguments":{}}`,
			check: wantResult(`"isError":true`)},
	}
	for _, n := range o.counts {
		o.clients = n
		header := false
		err := eachRow(&o, hostedRows, func(r hostedRow) string { return r.name }, func(r hostedRow) error {
			if !header {
				header = true
				fmt.Println()
				fmt.Printf("hosted: the gosdk package doc's server over Streamable HTTP (examples/interop/bench/hosted) and its TypeScript twin (bench/traces.mjs --http), %d concurrent clients for %v per run, keep-alive, each client its own bearer key (and session, stateful); protocol 2025-11-25; stateless servers answer JSON, stateful ones SSE; median of %d runs, the servers' order rotated each round; Go and TS ratios against the TypeScript server of the same kind\n", o.clients, o.duration, o.rounds)
				fmt.Println()
				fmt.Println("| case | clients | server | p50 | p99 | calls/s | CPU/call | calls per CPU-second | CPU/call vs TS | p99 vs TS | peak RSS | Redis round trips/call | Redis commands/call | Redis CPU/call |")
				fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
			}
			return r.measure(&o, sides)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// eachRow runs measure on the rows, named by name, that -rows selects, in
// order, and stops at the first that fails, with its name.
func eachRow[R any](o *options, rows []R, name func(R) string, measure func(R) error) error {
	for _, r := range rows {
		if !o.rows.MatchString(name(r)) {
			continue
		}
		if err := measure(r); err != nil {
			return fmt.Errorf("%s: %w", name(r), err)
		}
	}
	return nil
}

// traces is the upstream of the traces servers: every id is a trace with
// three spans.
func traces(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutPrefix(r.URL.Path, "/v1/traces/")
	if !ok || id == "" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	b, _ := json.Marshal(map[string]any{"id": id, "spans": 3})
	w.Write(b)
}

// examplesDir finds the examples module's folder from the working
// directory (the repository root or anywhere inside examples).
func examplesDir() (string, error) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "github.com/mcperr/mcperr/examples/vexlo").Output()
	if err != nil {
		return "", fmt.Errorf("finding the examples module (run from the repository root): %w", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}

// serveLoopback serves h on a free loopback port.
func serveLoopback(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// freeAddr returns a loopback address with a port free at the time of the
// call.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// server is a command to start: one side of a row.
type server struct {
	name string // "go" or "ts"
	path string
	args []string
	env  []string
}

// proc is a started server.
type proc struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
	exited chan struct{} // closed when the process has exited
}

func (s server) start(addr string, stdio bool) (*proc, error) {
	args := slices.Clone(s.args)
	for i, a := range args {
		if a == "ADDR" {
			args[i] = addr
		}
	}
	if !stdio && s.name == "ts" {
		args = append(args, "--http", addr)
	}
	cmd := exec.Command(s.path, args...)
	cmd.Env = append(os.Environ(), s.env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &proc{cmd: cmd, stderr: &bytes.Buffer{}, exited: make(chan struct{})}
	cmd.Stderr = &lockedWriter{w: p.stderr}
	if stdio {
		var err error
		if p.in, err = cmd.StdinPipe(); err != nil {
			return nil, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		p.out = bufio.NewReaderSize(out, 1<<20)
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// stop ends the process (and its group) and waits for it.
func (p *proc) stop() {
	if p.in != nil {
		p.in.Close()
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.exited
}

// lockedWriter serializes writes: a process's stderr is copied by a
// goroutine of os/exec while the driver may read it.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// cpu is the process's user+system CPU time so far.
func (p *proc) cpu() (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times: 100 on every
// Linux architecture Go supports.
const clockTicks = 100

// peakRSS is the process's VmHWM.
func (p *proc) peakRSS() (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM")
}

// sample is one measured run of one side.
type sample struct {
	cpuPerCall time.Duration
	callsPerS  float64
	rss        int64
	p50, p99   time.Duration
	redis      redisCounters // Redis's work per call
}

// response is the part of a JSON-RPC answer the driver reads.
type response struct {
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// wantResult accepts a result holding every one of subs.
func wantResult(subs ...string) func([]byte) error {
	return wantMember("a result", "a result", func(r *response) json.RawMessage { return r.Result }, subs)
}

// wantError accepts a JSON-RPC error holding every one of subs.
func wantError(subs ...string) func([]byte) error {
	return wantMember("a JSON-RPC error", "an error", func(r *response) json.RawMessage { return r.Error }, subs)
}

// wantMember accepts an answer whose member (its result or its error) is
// there and holds every one of subs; want and holding name it in the
// errors.
func wantMember(want, holding string, member func(*response) json.RawMessage, subs []string) func([]byte) error {
	return func(line []byte) error {
		var r response
		if err := json.Unmarshal(line, &r); err != nil || member(&r) == nil {
			return fmt.Errorf("want %s, got %.300s", want, line)
		}
		for _, s := range subs {
			if !bytes.Contains(member(&r), []byte(s)) {
				return fmt.Errorf("want %s holding %s, got %.300s", holding, s, line)
			}
		}
		return nil
	}
}

// wantAnswer accepts a result or a JSON-RPC error holding every one of subs.
func wantAnswer(subs ...string) func([]byte) error {
	return func(line []byte) error {
		for _, s := range subs {
			if !bytes.Contains(line, []byte(s)) {
				return fmt.Errorf("want an answer holding %s, got %.300s", s, line)
			}
		}
		return nil
	}
}

// stdioRow is one case over stdio.
type stdioRow struct {
	name         string
	gosrv, tssrv server
	req          func(i int) string // the params of call i
	check        func(line []byte) error
}

// stdioCall is a tools/call a stdio row makes: its name in the row's name,
// the params of call i, and the check of each answer.
type stdioCall struct {
	name  string
	req   func(i int) string
	check func(line []byte) error
}

// stdioRowsOf makes a row of each call, served by gosrv and tssrv and named
// prefix followed by the call's name.
func stdioRowsOf(prefix string, gosrv, tssrv server, calls ...stdioCall) []stdioRow {
	rows := make([]stdioRow, len(calls))
	for i, c := range calls {
		rows[i] = stdioRow{name: prefix + c.name, gosrv: gosrv, tssrv: tssrv, req: c.req, check: c.check}
	}
	return rows
}

// params gives the same params to every call.
func params(p string) func(int) string {
	return func(int) string { return p }
}

// initializeRequest is a client's initialize, on revision 2025-11-25;
// initialize is it and the notification after it, as stdio lines.
const (
	initializeRequest = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcperr-load","version":"0"}}}`
	initialized       = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	initialize        = initializeRequest + "\n" + initialized + "\n"
)

// alternate measures the Go and the TypeScript server o.rounds times each,
// swapping which goes first every round so neither always runs on a warmer
// machine, and returns the median sample of each side.
func alternate(o *options, gosrv, tssrv server, once func(server, *options) (sample, error)) (g, t sample, err error) {
	sides := []server{gosrv, tssrv}
	m, err := alternateN(o, sides, func(i int) (sample, error) { return once(sides[i], o) })
	if err != nil {
		return g, t, err
	}
	return m[0], m[1], nil
}

// alternateN measures each of the servers o.rounds times, a round running
// each once, in an order rotated by one from round to round so that none
// always runs first or after the same one, and returns the median sample
// of each (a zero sample for a TypeScript side under -go-only).
func alternateN(o *options, sides []server, once func(i int) (sample, error)) ([]sample, error) {
	runs := make([][]sample, len(sides))
	for round := range o.rounds {
		for k := range sides {
			i := (k + round) % len(sides)
			s := sides[i]
			if o.goOnly && s.name == "ts" {
				continue
			}
			smp, err := once(i)
			if err != nil {
				return nil, fmt.Errorf("%s side: %w", s.name, err)
			}
			runs[i] = append(runs[i], smp)
		}
	}
	m := make([]sample, len(sides))
	for i, r := range runs {
		m[i] = median(r)
	}
	return m, nil
}

func (r stdioRow) measure(o *options) error {
	g, t, err := alternate(o, r.gosrv, r.tssrv, r.once)
	if err != nil {
		return err
	}
	fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name,
		us(g.cpuPerCall), us(t.cpuPerCall), ratio(float64(g.cpuPerCall), float64(t.cpuPerCall)),
		rate(g.callsPerS), rate(t.callsPerS), mb(g.rss), mb(t.rss), ratio(float64(g.rss), float64(t.rss)))
	return nil
}

func (r stdioRow) once(s server, o *options) (sample, error) {
	p, err := s.start("", true)
	if err != nil {
		return sample{}, err
	}
	defer p.stop()
	fail := func(err error) (sample, error) {
		return sample{}, fmt.Errorf("%w (stderr: %.500s)", err, stderrOf(p))
	}
	if _, err := io.WriteString(p.in, initialize); err != nil {
		return fail(err)
	}
	if _, err := p.out.ReadBytes('\n'); err != nil {
		return fail(fmt.Errorf("reading the initialize answer: %w", err))
	}
	// Warm up, then measure.
	if err := r.pipeline(p, 1, o.warmup, o.window, true); err != nil {
		return fail(err)
	}
	c0, err := p.cpu()
	if err != nil {
		return fail(err)
	}
	start := time.Now()
	if err := r.pipeline(p, 1+o.warmup, o.calls, o.window, false); err != nil {
		return fail(err)
	}
	wall := time.Since(start)
	c1, err := p.cpu()
	if err != nil {
		return fail(err)
	}
	rss, err := p.peakRSS()
	if err != nil {
		return fail(err)
	}
	return sample{cpuPerCall: (c1 - c0) / time.Duration(o.calls), callsPerS: float64(o.calls) / wall.Seconds(), rss: rss}, nil
}

// pipeline sends n tools/call requests with ids from first on, at most
// window in flight, and reads their answers; check runs on the first.
func (r stdioRow) pipeline(p *proc, first, n, window int, check bool) error {
	slots := make(chan struct{}, window)
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(p.in)
		for i := range n {
			if len(slots) == cap(slots) {
				if err := w.Flush(); err != nil {
					werr <- err
					return
				}
			}
			slots <- struct{}{}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`+"\n", first+i, r.req(first+i))
		}
		werr <- w.Flush()
	}()
	for i := range n {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("reading answer %d of %d: %w", i+1, n, err)
		}
		if check && i == 0 {
			if err := r.check(line); err != nil {
				return err
			}
		}
		<-slots
	}
	return <-werr
}

// httpRow is one case over HTTP.
type httpRow struct {
	name         string
	key, tool    string
	gosrv, tssrv server
	params       string
	check        func(body []byte) error
}

func (r httpRow) measure(o *options) error {
	g, t, err := alternate(o, r.gosrv, r.tssrv, r.once)
	if err != nil {
		return err
	}
	fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name,
		ms(g.p50), ms(t.p50), ms(g.p99), ms(t.p99), rate(g.callsPerS), rate(t.callsPerS),
		us(g.cpuPerCall), us(t.cpuPerCall), ratio(float64(g.cpuPerCall), float64(t.cpuPerCall)), mb(g.rss), mb(t.rss))
	return nil
}

// once runs the row's call against one side: the Go servers on protocol
// 2026-07-28, the TypeScript ones on 2025-11-25.
func (r httpRow) once(s server, o *options) (sample, error) {
	c := httpCall{params: r.params, tool: r.tool, check: r.check, key: func(int) string { return r.key }, revision: "2025-11-25"}
	if s.name == "go" {
		c.revision = "2026-07-28"
	}
	return c.run(s, o)
}

// httpCall is what the clients of one HTTP run send: the same tools/call,
// each client after an initialize of its own when the server keeps
// sessions.
type httpCall struct {
	params   string // the tools/call params
	tool     string
	check    func(body []byte) error
	key      func(client int) string // each client's bearer key
	revision string                  // 2026-07-28: _meta, Mcp-Method and Mcp-Name instead of a session
	session  bool                    // initialize once per client and name the session on every call
	redis    string                  // a Redis URL whose commands and CPU per call are counted
}

// post is a POST of body to url as client (its bearer key), naming session
// when it is not empty.
func (c httpCall) post(ctx context.Context, url string, client int, session, body string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+c.key(client))
	req.Header.Set("MCP-Protocol-Version", c.revision)
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	return req, nil
}

func (c httpCall) request(ctx context.Context, url string, client int, session string, id int64) (*http.Request, error) {
	params := c.params
	if c.revision == "2026-07-28" {
		params = params[:len(params)-1] + `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"mcperr-load","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}`
	}
	req, err := c.post(ctx, url, client, session, `{"jsonrpc":"2.0","id":`+strconv.FormatInt(id, 10)+`,"method":"tools/call","params":`+params+`}`)
	if err != nil {
		return nil, err
	}
	if c.revision == "2026-07-28" {
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", c.tool)
	}
	return req, nil
}

// errPortTaken is a server that exited before it answered: on a shared
// machine another process can take the free port between freeAddr and the
// server's bind (and would then answer in its place).
var errPortTaken = errors.New("the server exited before it answered (its port taken?)")

// run measures one run of s, trying again on a fresh port when another
// process took the one chosen.
func (c httpCall) run(s server, o *options) (sample, error) {
	for attempt := 0; ; attempt++ {
		smp, err := c.try(s, o)
		if !errors.Is(err, errPortTaken) || attempt == 4 {
			return smp, err
		}
	}
}

func (c httpCall) try(s server, o *options) (sample, error) {
	addr, err := freeAddr()
	if err != nil {
		return sample{}, err
	}
	p, err := s.start(addr, false)
	if err != nil {
		return sample{}, err
	}
	defer p.stop()
	fail := func(err error) (sample, error) {
		return sample{}, fmt.Errorf("%w (stderr: %.500s)", err, stderrOf(p))
	}
	url := "http://" + addr + "/mcp"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.clients, MaxIdleConns: o.clients, DisableCompression: true}, Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	// send sends req and reads the answer: the body, or the data of the last
	// event of an SSE stream, and the session it names.
	send := func(req *http.Request, err error) ([]byte, string, error) {
		if err != nil {
			return nil, "", err
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			b = sseData(b)
		}
		return b, resp.Header.Get("Mcp-Session-Id"), err
	}
	sessions := make([]string, o.clients)
	// open starts client i's session, if the server keeps them.
	open := func(i int) error {
		if !c.session || sessions[i] != "" {
			return nil
		}
		b, sid, err := send(c.post(context.Background(), url, i, "", initializeRequest))
		if err != nil {
			return err
		}
		if sid == "" {
			return fmt.Errorf("initialize: no Mcp-Session-Id; answer %.300s", b)
		}
		if _, _, err := send(c.post(context.Background(), url, i, sid, initialized)); err != nil {
			return err
		}
		sessions[i] = sid
		return nil
	}
	call := func(i int, id int64) ([]byte, error) {
		b, _, err := send(c.request(context.Background(), url, i, sessions[i], id))
		return b, err
	}
	// Wait until it answers, then check the answer.
	var body []byte
	for deadline := time.Now().Add(20 * time.Second); ; {
		select {
		case <-p.exited:
			return fail(errPortTaken)
		default:
		}
		// Only once the server says it listens, so that nothing else on
		// the port answers for it.
		if listening(p) {
			if err = open(0); err == nil {
				if body, err = call(0, 1); err == nil {
					break
				}
			}
		}
		if time.Now().After(deadline) {
			return fail(fmt.Errorf("the server did not answer: %w", err))
		}
		time.Sleep(50 * time.Millisecond)
	}
	select {
	case <-p.exited:
		return fail(errPortTaken)
	default:
	}
	if err := c.check(body); err != nil {
		return fail(err)
	}
	// Warm up: every client opens its session and calls once.
	var wg sync.WaitGroup
	var openErr atomic.Value
	for i := range o.clients {
		wg.Go(func() {
			if err := open(i); err != nil {
				openErr.Store(err)
				return
			}
			call(i, int64(2+i))
		})
	}
	wg.Wait()
	if err, _ := openErr.Load().(error); err != nil {
		return fail(fmt.Errorf("opening the sessions: %w", err))
	}

	var r0 redisCounters
	if c.redis != "" {
		if r0, err = readRedis(c.redis); err != nil {
			return fail(err)
		}
	}
	c0, err := p.cpu()
	if err != nil {
		return fail(err)
	}
	var (
		mu     sync.Mutex
		lat    []time.Duration
		errs   atomic.Int64
		nextID atomic.Int64
	)
	nextID.Store(1000)
	end := time.Now().Add(o.duration)
	start := time.Now()
	for i := range o.clients {
		wg.Go(func() {
			var mine []time.Duration
			for time.Now().Before(end) {
				t := time.Now()
				b, err := call(i, nextID.Add(1))
				if err != nil || c.check(b) != nil {
					errs.Add(1)
					continue
				}
				mine = append(mine, time.Since(t))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	wall := time.Since(start)
	c1, err := p.cpu()
	if err != nil {
		return fail(err)
	}
	rss, err := p.peakRSS()
	if err != nil {
		return fail(err)
	}
	if n := errs.Load(); n > 0 {
		return fail(fmt.Errorf("%d of %d calls failed", n, int64(len(lat))+n))
	}
	if len(lat) == 0 {
		return fail(errors.New("no call completed"))
	}
	slices.Sort(lat)
	smp := sample{
		cpuPerCall: (c1 - c0) / time.Duration(len(lat)),
		callsPerS:  float64(len(lat)) / wall.Seconds(),
		rss:        rss,
		p50:        lat[len(lat)/2],
		p99:        lat[len(lat)*99/100],
	}
	if c.redis != "" {
		r1, err := readRedis(c.redis)
		if err != nil {
			return fail(err)
		}
		smp.redis = r1.perCall(r0, len(lat))
		// redisstore logs each failure (at most every 10 s) and lets the
		// call through: such a call made no round trip.
		for line := range strings.Lines(stderrOf(p)) {
			if strings.Contains(line, "requests pass unlimited") {
				fmt.Fprintf(os.Stderr, "load: the Redis store failed open during the run: %s", line)
			}
		}
	}
	return smp, nil
}

// sseData is the data of the last event of an SSE stream.
func sseData(b []byte) []byte {
	var data []byte
	for line := range bytes.Lines(b) {
		if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data = bytes.TrimSpace(d)
		}
	}
	return data
}

// stderrOf is what the process has written to stderr so far.
func stderrOf(p *proc) string {
	w := p.cmd.Stderr.(*lockedWriter)
	w.mu.Lock()
	defer w.mu.Unlock()
	return p.stderr.String()
}

// listening reports whether the server has logged that it listens: each
// server writes a line holding its address to stderr once bound ("listening
// on", "serving MCP at", "vulnetix MCP server").
func listening(p *proc) bool {
	out := stderrOf(p)
	return strings.Contains(out, "listening on") || strings.Contains(out, "serving MCP at") || strings.Contains(out, "vulnetix MCP server")
}

// captureArticles asks the Go news server (stdio) for the first articles of
// its index and writes them to path as {id: structuredContent}, for the
// TypeScript twin. It returns the ids.
func captureArticles(news, path string) ([]string, error) {
	p, err := server{path: news}.start("", true)
	if err != nil {
		return nil, err
	}
	defer p.stop()
	var b strings.Builder
	b.WriteString(initialize)
	const n = 64
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_article","arguments":{"id":"a-%05d"}}}`+"\n", i, i)
	}
	if _, err := io.WriteString(p.in, b.String()); err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	var ids []string
	for range n + 1 {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			return nil, err
		}
		var r struct {
			ID     int64 `json:"id"`
			Result struct {
				StructuredContent json.RawMessage `json:"structuredContent"`
				IsError           bool            `json:"isError"`
			} `json:"result"`
		}
		if json.Unmarshal(line, &r) != nil || r.ID == 0 || r.Result.IsError || r.Result.StructuredContent == nil {
			continue
		}
		id := fmt.Sprintf("a-%05d", r.ID)
		out[id] = r.Result.StructuredContent
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, errors.New("no article came back")
	}
	slices.Sort(ids)
	data, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return ids, os.WriteFile(path, data, 0o600)
}

// median returns, field by field, the median of the samples (zero for none).
func median(s []sample) sample {
	if len(s) == 0 {
		return sample{}
	}
	pick := func(f func(sample) float64) float64 {
		v := make([]float64, len(s))
		for i, x := range s {
			v[i] = f(x)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	return sample{
		cpuPerCall: time.Duration(pick(func(x sample) float64 { return float64(x.cpuPerCall) })),
		callsPerS:  pick(func(x sample) float64 { return x.callsPerS }),
		rss:        int64(pick(func(x sample) float64 { return float64(x.rss) })),
		p50:        time.Duration(pick(func(x sample) float64 { return float64(x.p50) })),
		p99:        time.Duration(pick(func(x sample) float64 { return float64(x.p99) })),
		redis: redisCounters{
			scripts:  pick(func(x sample) float64 { return x.redis.scripts }),
			commands: pick(func(x sample) float64 { return x.redis.commands }),
			cpu:      time.Duration(pick(func(x sample) float64 { return float64(x.redis.cpu) })),
		},
	}
}

func us(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(d)/float64(time.Microsecond), 'f', 0, 64) + " us"
}

func ms(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
}

func rate(v float64) string {
	if v == 0 {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

func mb(n int64) string {
	if n == 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB"
}

func ratio(a, b float64) string {
	if a == 0 || b == 0 {
		return "-"
	}
	return strconv.FormatFloat(a/b, 'f', 2, 64) + "x"
}
