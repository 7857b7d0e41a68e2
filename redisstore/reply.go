package redisstore

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
)

// Bounds on what a server may send the store. The store's own replies are
// a few integers; the client's handshake (HELLO) a small map.
const (
	maxReplyLine  = 64 << 10 // bytes in a header or a simple string, error or number
	maxReplyBlob  = 16 << 20 // bytes in a blob string
	maxReplyItems = 1 << 16  // elements in one array, set, map or push
	maxReplyDepth = 8        // aggregates within aggregates
)

// errFraming reports a reply whose framing is not what Redis sends.
var errFraming = errors.New("the server's reply is not well-formed RESP")

// checkedConn is a connection to Redis that checks the framing of what the
// server sends before the client reads it: a length the client would
// trust (a negative or enormous blob length, an enormous array, nesting
// without end, a line without end) closes the connection with an error
// instead of crashing the client or exhausting memory. So a URL that
// points at something other than Redis fails the calls, which fail open,
// and never the process.
type checkedConn struct {
	net.Conn
	check replyCheck
}

// Read reads from the connection, and fails, closing it, when what was
// read breaks the framing.
func (c *checkedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		if cerr := c.check.feed(p[:n]); cerr != nil {
			c.Conn.Close()
			return 0, cerr
		}
	}
	return n, err
}

// replyCheck follows the framing of a stream of RESP2 and RESP3 replies.
// The zero value expects the start of a reply.
type replyCheck struct {
	line  []byte  // the header line so far
	skip  int64   // bytes of a blob, and its CRLF, still to pass
	stack []int64 // elements still to come in each open aggregate
}

// feed checks the next bytes of the stream.
func (r *replyCheck) feed(p []byte) error {
	for len(p) > 0 {
		if r.skip > 0 {
			k := min(r.skip, int64(len(p)))
			r.skip -= k
			p = p[k:]
			if r.skip == 0 {
				r.done()
			}
			continue
		}
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if len(r.line)+len(p) > maxReplyLine {
				return fmt.Errorf("%w: a line longer than %d bytes", errFraming, maxReplyLine)
			}
			r.line = append(r.line, p...)
			return nil
		}
		if len(r.line)+i+1 > maxReplyLine {
			return fmt.Errorf("%w: a line longer than %d bytes", errFraming, maxReplyLine)
		}
		r.line = append(r.line, p[:i+1]...)
		p = p[i+1:]
		err := r.header(r.line)
		r.line = r.line[:0]
		if err != nil {
			return err
		}
	}
	return nil
}

// header checks one line that begins a value.
func (r *replyCheck) header(line []byte) error {
	if len(line) < 3 || line[len(line)-2] != '\r' {
		return fmt.Errorf("%w: a line without its type or CRLF", errFraming)
	}
	typ, body := line[0], line[1:len(line)-2]
	switch typ {
	case '+', '-', ':', ',', '#', '_', '(':
		r.done()
		return nil
	case '$', '=', '!':
		n, err := strconv.ParseInt(string(body), 10, 64)
		switch {
		case err != nil || n < -1 || n > maxReplyBlob:
			return fmt.Errorf("%w: blob length %.20q", errFraming, body)
		case n == -1:
			r.done()
		default:
			r.skip = n + 2
		}
		return nil
	case '*', '%', '~', '>':
		n, err := strconv.ParseInt(string(body), 10, 64)
		if err != nil || n < -1 || n > maxReplyItems {
			return fmt.Errorf("%w: aggregate length %.20q", errFraming, body)
		}
		if typ == '%' {
			n *= 2
		}
		if n <= 0 {
			r.done()
			return nil
		}
		if len(r.stack) >= maxReplyDepth {
			return fmt.Errorf("%w: aggregates nested deeper than %d", errFraming, maxReplyDepth)
		}
		r.stack = append(r.stack, n)
		return nil
	}
	return fmt.Errorf("%w: type byte %q", errFraming, typ)
}

// done counts one value as complete, closing the aggregates it completes.
func (r *replyCheck) done() {
	for len(r.stack) > 0 {
		top := len(r.stack) - 1
		r.stack[top]--
		if r.stack[top] > 0 {
			return
		}
		r.stack = r.stack[:top]
	}
}

// checkedDial returns a dial function for rueidis.ClientOption.DialCtxFn
// that wraps the connections of dial (nil means the option's dialer, with
// TLS when it has a configuration) in a checkedConn.
func checkedDial(dial func(context.Context, string, *net.Dialer, *tls.Config) (net.Conn, error)) func(context.Context, string, *net.Dialer, *tls.Config) (net.Conn, error) {
	return func(ctx context.Context, dst string, d *net.Dialer, cfg *tls.Config) (net.Conn, error) {
		var (
			c   net.Conn
			err error
		)
		switch {
		case dial != nil:
			c, err = dial(ctx, dst, d, cfg)
		case cfg != nil:
			td := tls.Dialer{NetDialer: d, Config: cfg}
			c, err = td.DialContext(ctx, "tcp", dst)
		default:
			c, err = d.DialContext(ctx, "tcp", dst)
		}
		if err != nil {
			return nil, err
		}
		return &checkedConn{Conn: c}, nil
	}
}
