// Command mcperr grades how an MCP server fails, on what an agent can do with
// each failure.
//
// Usage:
//
//	mcperr audit [flags] -- COMMAND [ARGS...]     audit a stdio server
//	mcperr audit [flags] URL                      audit a Streamable HTTP server
//
// Install it with
//
//	go install github.com/mcperr/mcperr/cmd/mcperr@latest
//
// The audit connects with the go-sdk's client, initializes, lists the tools
// (at most 100 pages and 1,000 tools) and records the protocol revision.
// Then, for each tool, it builds valid base arguments from the tool's input
// schema (checked with schemaerr), makes a control call with them, and sends
// arguments the schema forbids, and only those, each the base with one
// mistake: each required property missing, a wrong JSON type and null for
// each property, an enum or const violated, a number out of range, a string
// or array too short or too long, an unknown property where the schema
// closes the object, and a mistake inside a nested object. Each answer is
// compared with the control's: a refusal only the forbidden argument
// explains is graded; an answer that reads as an upstream or handler
// failure, or is the control's own failure, was accepted then failed.
//
// A server that does not validate its arguments may act on invalid ones:
// audit a test instance, never one whose tools change data you care about.
//
// Then the protocol probes: a tool the server does not have and a method it
// does not have (the method on each revision the server accepts); over stdio, a line that is not JSON, a line nested 1,001
// levels deep and the odd ids 1.5, 1e400 and "<&>", each followed by a ping
// that tells whether the session survived; over HTTP, a GET, a wrong
// Content-Type, a missing Accept, a body that is not JSON and a 5 MiB body,
// each followed by a ping too.
//
// # Grades
//
// Each answer to forbidden arguments earns up to 100 points:
//
//	40  it is a tool result with isError, which reaches the model (a JSON-RPC
//	    error is a protocol error many clients keep from it)
//	25  it names the argument at fault
//	20  errkind.Read reads invalid_arguments and fix_argument from it
//	15  it is the TypeScript SDK's text, byte for byte, which agents have learned
//
// A call that succeeds, that gets no answer, or after which the session
// ended earns 0. The check is ok when the first three hold.
//
// Each protocol probe earns 100 when ok, 50 when the session survived but
// the answer is not one a client can use (no answer to a bad line, an id the
// client cannot match, an HTTP refusal without a JSON-RPC body, an unknown
// method that is not -32601, an unknown tool not named or not readable, a
// 5 MiB body read without a bound), and 0 when the session ended, nothing
// answered, or the server failed with a 5xx. The unknown tool is ok as an
// error naming the tool from which errkind.Read reads a move other than
// report; a bad line or odd id is ok when answered (a refusal, with the id or
// with a null id when the id could not be read) and the session survived.
//
// The score is 60% the mean of the argument checks and 40% the mean of the
// protocol checks (all of one group when the other is empty), rounded. The
// grade is A from 90, B from 80, C from 70, D from 60, F below.
//
// # Output
//
// A table for people on stdout (per tool and probe, then the findings, the
// score and the grade), with a progress line on stderr. With -json, one JSON
// object: grade, score, and checks, each with tool, probe, answer (tool_error,
// rpc_error, success, none, session_ended or http_error), kind, move,
// namesField, ok and why (one line).
//
// -deadline bounds the whole audit, -junit writes JUnit XML, -baseline fails
// only on a regression from an earlier -json report, and -faults runs each
// tool of a stdio server with every upstream request refused, reset and
// timed out through a proxy inside the audit.
//
// Exit status: 0; 1 when -min is set and the grade is lower, or a check
// regressed from -baseline; 2 for a usage error, a server it cannot connect
// to, or an audit past its deadline.
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

// version is the command's version, sent as its client name's version.
const version = "0.1.0"

const usage = `usage:
  mcperr audit [flags] -- COMMAND [ARGS...]   audit a stdio server
  mcperr audit [flags] URL                    audit a Streamable HTTP server

mcperr audit sends each tool arguments its own input schema forbids, and protocol
probes, and grades each answer on what an agent can do with it.

A server that does not validate its arguments may act on invalid ones:
audit a test instance, never one whose tools change data you care about.

flags:
`

func main() {
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// headerList is the repeatable -H flag.
type headerList http.Header

func (h headerList) String() string { return "" }

func (h headerList) Set(v string) error {
	name, value, ok := strings.Cut(v, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return errors.New(`want "Name: value"`)
	}
	http.Header(h).Add(name, strings.TrimSpace(value))
	return nil
}

// run is the whole command; it returns the exit status.
func run(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "mcperr: "+format+"\n", args...)
		return 2
	}
	if len(argv) == 0 || argv[0] != "audit" {
		if len(argv) > 0 && (argv[0] == "-h" || argv[0] == "-help" || argv[0] == "--help" || argv[0] == "help") {
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprint(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("mcperr audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	min := fs.String("min", "", "exit 1 when the grade is lower than `GRADE` (A, B, C, D or F)")
	tools := fs.String("tools", "", "audit only these tools (comma-separated `NAMES`)")
	timeout := fs.Duration("timeout", 10*time.Second, "bound on each call")
	deadline := fs.Duration("deadline", 5*time.Minute, "bound on the whole audit")
	junit := fs.String("junit", "", "also write a JUnit XML report to `FILE`")
	baseline := fs.String("baseline", "", "exit 1 only when a check that is ok in `FILE` (an earlier -json report) is not ok now")
	faults := fs.Bool("faults", false, "also run each tool with every upstream request refused, reset or timed out (stdio: the server's HTTP_PROXY and HTTPS_PROXY point at a proxy inside the audit)")
	headers := headerList{}
	fs.Var(headers, "H", "add an HTTP header (\"`Name: value`\") to every request, such as Authorization; repeatable")
	rest := argv[1:]
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *min != "" && !slices.Contains(grades, *min) {
		return fail("-min %q: want A, B, C, D or F", *min)
	}
	if *timeout <= 0 {
		return fail("-timeout must be positive")
	}
	if *deadline < 0 {
		return fail("-deadline must not be negative")
	}
	var base *report
	if *baseline != "" {
		b, err := readReport(*baseline)
		if err != nil {
			return fail("-baseline: %v", err)
		}
		base = b
	}
	args := fs.Args()
	dashed := len(rest) > len(args) && rest[len(rest)-len(args)-1] == "--"
	var t target
	switch {
	case dashed && len(args) > 0:
		t.argv = args
	case !dashed && len(args) == 1 && isURL(args[0]):
		t.url = args[0]
	case len(args) == 0:
		fs.Usage()
		return 2
	default:
		return fail("want a URL (http:// or https://), or a command after --: mcperr audit -- %s", strings.Join(args, " "))
	}
	if t.argv != nil && len(headers) > 0 {
		return fail("-H applies to a URL, not to a stdio command")
	}
	if t.url != "" && *faults {
		return fail("-faults applies to a stdio command, whose proxy variables the audit sets")
	}
	t.headers = http.Header(headers)

	a := &auditor{target: t, timeout: *timeout, deadline: *deadline, status: progress(stderr)}
	if *faults {
		p, err := newFaultProxy()
		if err != nil {
			return fail("-faults: %v", err)
		}
		defer p.close()
		a.faults = p
	}
	if *tools != "" {
		for _, n := range strings.Split(*tools, ",") {
			if n = strings.TrimSpace(n); n != "" {
				a.filter = append(a.filter, n)
			}
		}
	}
	if t.url != "" {
		a.tap = &tapTransport{base: &headerTransport{base: http.DefaultTransport, headers: t.headers}}
		a.httpc = &http.Client{Transport: a.tap}
	}
	rep, err := a.run(ctx)
	a.status("")
	if err != nil {
		return fail("%v", err)
	}
	if *junit != "" {
		if err := writeJUnit(*junit, rep); err != nil {
			return fail("-junit: %v", err)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		writeTable(stdout, rep)
	}
	code := 0
	if *min != "" && below(rep.Grade, *min) {
		fmt.Fprintf(stderr, "mcperr: grade %s is below -min %s\n", rep.Grade, *min)
		code = 1
	}
	if base != nil {
		if reg := regressions(base, rep); len(reg) > 0 {
			fmt.Fprintf(stderr, "mcperr: %d regression(s) from -baseline %s:\n", len(reg), *baseline)
			for _, r := range reg {
				fmt.Fprintf(stderr, "  %s\n", r)
			}
			code = 1
		}
	}
	return code
}

func isURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// progress returns the status line writer: one line rewritten in place on a
// terminal, a line per step otherwise; "" ends it.
func progress(w io.Writer) func(string) {
	tty := false
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return func(s string) {
		switch {
		case tty && s == "":
			fmt.Fprint(w, "\r\033[K")
		case tty:
			fmt.Fprintf(w, "\r\033[Kmcperr audit: %s", s)
		case s != "":
			fmt.Fprintf(w, "mcperr audit: %s\n", s)
		}
	}
}

// writeTable writes the report for people.
func writeTable(w io.Writer, r *report) {
	name := r.Server
	if r.Version != "" {
		name += " " + r.Version
	}
	fmt.Fprintf(w, "mcperr audit: %s over %s, protocol %s, %d tools\n\n", name, r.Transport, r.Protocol, r.Tools)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tPROBE\tANSWER\tKIND / MOVE\tFIELD\tOK\tTEXT\tWHY")
	for _, c := range r.Checks {
		tool := c.Tool
		if tool == "" {
			tool = "(protocol)"
		}
		km := "-"
		switch {
		case c.Kind != "" || c.Move != "":
			km = cmp.Or(c.Kind, "-") + " / " + cmp.Or(c.Move, "-")
		case c.Code != 0:
			km = fmt.Sprintf("JSON-RPC %d", c.Code)
		}
		field, ok := "no", "FAIL"
		switch {
		case c.NamesField:
			field = "yes"
		case c.Field == "":
			field = "-"
		}
		if c.OK {
			ok = "ok"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", tool, c.Probe, c.Answer, km, field, ok, shortText(c.Text, c.Cut), c.Why)
	}
	tw.Flush()
	okCount := 0
	for _, c := range r.Checks {
		if c.OK {
			okCount++
		}
	}
	fmt.Fprintf(w, "\n%d checks, %d ok, in %.1fs. A text that ends in \"…\" is shortened here; -json has it whole.\n", len(r.Checks), okCount, r.Seconds)
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "not audited: %s\n", s)
	}
	for _, f := range r.Findings {
		fmt.Fprintf(w, "- %s\n", f)
	}
	args := "no argument checks"
	if r.Arguments >= 0 {
		args = fmt.Sprintf("arguments %d/100", r.Arguments)
	}
	fmt.Fprintf(w, "Grade %s (%d/100: %s, protocol %d/100)\n", r.Grade, r.Score, args, r.Protocols)
}

// tableText is how much of a text the table shows.
const tableText = 48

// shortText is a text as the table shows it: one line of at most tableText
// bytes, "…" where it was shortened (here, or at maxText in the report).
func shortText(s string, cut bool) string {
	if s == "" {
		return "-"
	}
	t := oneLine(s, tableText)
	if cut && !strings.HasSuffix(t, "…") {
		t += "…"
	}
	return t
}
