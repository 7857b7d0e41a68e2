package main

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
)

// revisions are the protocol revisions the unknown-method probe runs on,
// each in a session of its own where the server accepts it.
var revisions = []string{"2025-06-18", "2025-11-25", "2026-07-28"}

// revisionProbes opens a session with each revision of revisions other than
// the main session's and, where the server accepts it, probes an unknown
// method there: every revision and transport answers it -32601.
func (a *auditor) revisionProbes(ctx context.Context) error {
	main, mainConn, mainProtocol := a.session, a.conn, a.rep.Protocol
	defer func() { a.session, a.conn, a.rep.Protocol, a.version = main, mainConn, mainProtocol, "" }()
	a.rep.Revisions = []string{mainProtocol}
	for _, rev := range revisions {
		if rev == mainProtocol {
			continue
		}
		a.session, a.conn, a.version = nil, nil, rev
		if err := a.connect(ctx); err != nil {
			if ctx.Err() != nil {
				return err
			}
			continue // not offered, or refused: nothing to probe
		}
		init := a.session.InitializeResult()
		if init == nil || init.ProtocolVersion != rev {
			a.close()
			continue
		}
		a.rep.Protocol = rev
		a.rep.Revisions = append(a.rep.Revisions, rev)
		var c check
		var err error
		if a.target.url != "" {
			c, err = a.httpUnknownMethod(ctx)
		} else {
			c, err = a.stdioProbe(ctx, a.unknownMethodProbe())
		}
		a.close()
		if err != nil {
			return err
		}
		c.Probe += " (" + rev + ")"
		c.Revision = rev
		a.rep.add(c)
	}
	slices.Sort(a.rep.Revisions)
	return nil
}

// unknownMethodProbe is the stdio line of a method no server has.
func (a *auditor) unknownMethodProbe() stdioProbe {
	return stdioProbe{"unknown method", a.request(`"mcperr-audit-method"`, "mcperr/noSuchMethod", ""), `"mcperr-audit-method"`}
}

// httpUnknownMethod is the unknown-method probe over HTTP, in the session.
func (a *auditor) httpUnknownMethod(ctx context.Context) (check, error) {
	p := httpProbe{name: "unknown method", method: "POST", rpc: "mcperr/noSuchMethod", body: []byte(a.request(`"mcperr-audit-method"`, "mcperr/noSuchMethod", ""))}
	ans, err := a.send(ctx, p)
	if ctx.Err() != nil {
		return check{}, ctx.Err()
	}
	c := check{Probe: p.name, group: groupProtocol}
	gradeHTTP(&c, p.name, ans, err, true)
	return c, nil
}

// defined20260728 are the codes of -32020 to -32099 the 2026-07-28 revision
// defines.
var defined20260728 = []int{-32020, -32021, -32022, -32042}

// codeRule says why a revision forbids a JSON-RPC error code; "" when it
// does not. JSON-RPC 2.0 reserves -32768 to -32000 and defines five of
// them, leaving -32099 to -32000 to the implementation; the 2026-07-28
// revision says -32000 to -32019 SHOULD NOT be used (legacy) and that a code
// of -32020 to -32099 it does not define MUST NOT be emitted.
func codeRule(revision string, code int) string {
	switch {
	case code < -32768 || code > -32000:
		return ""
	case code == -32700 || code <= -32600 && code >= -32603:
		return ""
	case code < -32099:
		return "reserved by JSON-RPC 2.0 (-32768 to -32000) and not one it defines"
	case revision < "2026-07-28":
		return "" // the implementation-defined server range
	case code >= -32019:
		return "legacy: the " + revision + " revision says -32000 to -32019 SHOULD NOT be used; allocate application codes outside the reserved range"
	case !slices.Contains(defined20260728, code):
		return "not defined by the " + revision + " revision, which says a code of -32020 to -32099 it does not define MUST NOT be emitted"
	}
	return ""
}

// codeFindings is a finding per JSON-RPC code the checks' answers carry
// that their revision forbids, with the probes that got it.
func codeFindings(protocol string, checks []check) []string {
	type key struct {
		rev  string
		code int
	}
	var order []key
	probes := map[key][]string{}
	for _, c := range checks {
		if c.Code == 0 {
			continue
		}
		k := key{cmp.Or(c.Revision, protocol), c.Code}
		if codeRule(k.rev, k.code) == "" {
			continue
		}
		if _, ok := probes[k]; !ok {
			order = append(order, k)
		}
		probes[k] = append(probes[k], strings.TrimSpace(c.Tool+" "+c.Probe))
	}
	var out []string
	for _, k := range order {
		p := probes[k]
		more := ""
		if len(p) > 3 {
			more = fmt.Sprintf(" and %d more", len(p)-3)
			p = p[:3]
		}
		out = append(out, fmt.Sprintf("JSON-RPC code %d under %s (%s%s): %s", k.code, k.rev, strings.Join(p, ", "), more, codeRule(k.rev, k.code)))
	}
	return out
}
