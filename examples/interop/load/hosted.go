package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// hostedSide is one server of the hosted rows.
type hostedSide struct {
	label   string
	srv     server
	session bool // the server keeps a session per initialize
	redis   bool // its limiter is on Redis: count Redis's work per call
}

// hostedSides are the servers of the hosted rows: the gosdk package doc's
// server behind gosdk.HTTPHandler (stateless, stateful, and with a limiter
// on redisstore when a Redis URL is given), the same tools on the go-sdk
// alone and on mcp-go behind mcpgo.HTTPHandler (examples/interop/bench/hosted),
// and the TypeScript twin (bench/traces.mjs), stateless and stateful.
func hostedSides(o *options, hosted string, ts func(args ...string) server, env ...string) []hostedSide {
	def := []struct {
		label string
		args  []string
		redis bool
	}{
		{label: "gosdk.HTTPHandler"},
		{label: "gosdk.HTTPHandler stateful", args: []string{"-stateful"}},
		{label: "gosdk.HTTPHandler + redisstore", args: []string{"-redis", o.redis}, redis: true},
		{label: "gosdk.HTTPHandler stateful + redisstore", args: []string{"-stateful", "-redis", o.redis}, redis: true},
		{label: "go-sdk alone", args: []string{"-server", "sdk"}},
		{label: "go-sdk alone stateful", args: []string{"-server", "sdk", "-stateful"}},
		{label: "mcpgo.HTTPHandler", args: []string{"-server", "mcpgo"}},
		{label: "mcpgo.HTTPHandler stateful", args: []string{"-server", "mcpgo", "-stateful"}},
	}
	var sides []hostedSide
	for _, d := range def {
		if d.redis && o.redis == "" {
			continue
		}
		sides = append(sides, hostedSide{label: d.label, redis: d.redis, session: strings.Contains(d.label, "stateful"),
			srv: server{name: "go", path: hosted, args: append([]string{"-addr", "ADDR"}, d.args...), env: append(env, o.env...)}})
	}
	sides = append(sides,
		hostedSide{label: "TypeScript SDK", srv: ts()},
		hostedSide{label: "TypeScript SDK stateful", srv: ts("--stateful"), session: true})
	return sides
}

// hostedRow is one call of the hosted rows, made by every side.
type hostedRow struct {
	name, tool, params string
	check              func(body []byte) error
}

// measure runs the row against every side o.sides selects, rotating their
// order from round to round, and prints a line per side with its ratios to
// the TypeScript server of the same kind (stateless or stateful) measured
// in the same rounds.
func (r hostedRow) measure(o *options, all []hostedSide) error {
	var sides []hostedSide
	var srvs []server
	for _, s := range all {
		if o.sides.MatchString(s.label) {
			sides = append(sides, s)
			srvs = append(srvs, s.srv)
		}
	}
	m, err := alternateN(o, srvs, func(i int) (sample, error) {
		c := httpCall{params: r.params, tool: r.tool, check: r.check, revision: "2025-11-25", session: sides[i].session,
			key: func(client int) string { return "client-" + strconv.Itoa(client) }}
		if sides[i].redis {
			c.redis = o.redis
		}
		smp, err := c.run(srvs[i], o)
		if err != nil {
			return smp, fmt.Errorf("%s: %w", sides[i].label, err)
		}
		return smp, nil
	})
	if err != nil {
		return err
	}
	ts := map[bool]sample{}
	for i, s := range sides {
		if s.srv.name == "ts" {
			ts[s.session] = m[i]
		}
	}
	for i, s := range sides {
		g := m[i]
		t, ok := ts[s.session]
		if !ok {
			t = ts[!s.session]
		}
		redis := []string{"-", "-", "-"}
		if s.redis {
			redis = []string{strconv.FormatFloat(g.redis.scripts, 'f', 2, 64), strconv.FormatFloat(g.redis.commands, 'f', 2, 64), us(g.redis.cpu)}
		}
		fmt.Printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name, o.clients, s.label,
			ms(g.p50), ms(g.p99), rate(g.callsPerS), us(g.cpuPerCall), perCPU(g.cpuPerCall),
			ratio(float64(g.cpuPerCall), float64(t.cpuPerCall)), ratio(float64(g.p99), float64(t.p99)), mb(g.rss),
			redis[0], redis[1], redis[2])
	}
	return nil
}

// perCPU is how many calls one core serves at cpu per call.
func perCPU(cpu time.Duration) string {
	if cpu == 0 {
		return "-"
	}
	return rate(float64(time.Second) / float64(cpu))
}

// redisCounters are what Redis's INFO says of the work it has done.
type redisCounters struct {
	scripts  float64       // EVALSHA and EVAL calls: a round trip each
	commands float64       // total_commands_processed: the scripts' own commands too
	cpu      time.Duration // used_cpu_user + used_cpu_sys
}

// perCall is the work done from r0 to r per call: round trips (scripts),
// commands (less the INFO that read r0) and CPU time.
func (r redisCounters) perCall(r0 redisCounters, calls int) redisCounters {
	n := float64(calls)
	return redisCounters{scripts: (r.scripts - r0.scripts) / n, commands: (r.commands - r0.commands - 1) / n, cpu: (r.cpu - r0.cpu) / time.Duration(calls)}
}

// readRedis sends INFO to the Redis server at rawURL and reads its
// counters.
func readRedis(rawURL string) (redisCounters, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return redisCounters{}, err
	}
	conn, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil {
		return redisCounters{}, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Write([]byte("INFO all\r\n")); err != nil {
		return redisCounters{}, err
	}
	// A bulk string: $LEN, then LEN bytes of "name:value" lines.
	br := bufio.NewReader(conn)
	head, err := br.ReadString('\n')
	if err != nil || !strings.HasPrefix(head, "$") {
		return redisCounters{}, fmt.Errorf("redis INFO: %q, %v", head, err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(head[1:]))
	if err != nil {
		return redisCounters{}, fmt.Errorf("redis INFO: %q: %w", head, err)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(br, body); err != nil {
		return redisCounters{}, err
	}
	return parseRedisInfo(string(body))
}

// parseRedisInfo reads the counters from the text of INFO all.
func parseRedisInfo(info string) (redisCounters, error) {
	var c redisCounters
	found := 0
	for line := range strings.Lines(info) {
		name, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		if name == "cmdstat_evalsha" || name == "cmdstat_eval" { // calls=N,usec=...
			calls, _, _ := strings.Cut(strings.TrimPrefix(v, "calls="), ",")
			n, _ := strconv.ParseFloat(calls, 64)
			c.scripts += n
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			continue
		}
		switch name {
		case "total_commands_processed":
			c.commands = f
			found++
		case "used_cpu_user", "used_cpu_sys":
			c.cpu += time.Duration(f * float64(time.Second))
			found++
		}
	}
	if found != 3 {
		return c, fmt.Errorf("redis INFO: total_commands_processed, used_cpu_user or used_cpu_sys missing")
	}
	return c, nil
}
