package mcpserver

import (
	"bytes"
	"net"
	"net/http"
	"strconv"
)

// Listener wraps l so that the refusals net/http writes by itself, before
// any handler runs, reach the client in the shape of every other protocol
// error: the same HTTP status, with a JSON-RPC -32600 body (id null, since
// no request was read) and Content-Type: application/json. Those refusals
// are a malformed request head, such as a header value with a control
// character (400), a head over the server's MaxHeaderBytes (431) and a
// transfer coding it does not know (501); net/http answers them in plain
// text and gives a handler no chance to. Nothing of the request is echoed:
// a refused header may carry a credential.
//
// Serve the Server through it:
//
//	ln, _ := net.Listen("tcp", addr)
//	http.Serve(mcpserver.Listener(ln), srv)
func Listener(l net.Listener) net.Listener { return refusalListener{l} }

type refusalListener struct{ net.Listener }

func (l refusalListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return refusalConn{c}, nil
}

type refusalConn struct{ net.Conn }

// Write passes every write through but net/http's own plain-text refusal,
// which it writes to the connection in one call.
func (c refusalConn) Write(p []byte) (int, error) {
	if r, ok := rewriteRefusal(p); ok {
		if _, err := c.Conn.Write(r); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// plainRefusal is what net/http writes after the status line of a refusal
// it makes before any handler runs. A handler's response never looks like
// it: net/http adds a Date field to every response a handler writes.
const plainRefusal = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// rewriteRefusal reports whether p is net/http's plain-text refusal and, if
// so, returns the JSON-RPC response to write in its place.
func rewriteRefusal(p []byte) ([]byte, bool) {
	const proto = "HTTP/1.1 "
	if !bytes.HasPrefix(p, []byte(proto)) {
		return nil, false
	}
	i := bytes.Index(p, []byte(plainRefusal))
	if i < 0 || bytes.Contains(p[:i], []byte("\r\n")) || i < len(proto)+3 {
		return nil, false
	}
	code, err := strconv.Atoi(string(p[len(proto) : len(proto)+3]))
	if err != nil || code < 400 || code > 599 {
		return nil, false
	}
	text := http.StatusText(code)
	body := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: ` + text + `: the HTTP request could not be read (a malformed or oversized request head)."}}`
	out := make([]byte, 0, 128+len(body))
	out = append(out, proto...)
	out = strconv.AppendInt(out, int64(code), 10)
	out = append(out, ' ')
	out = append(out, text...)
	out = append(out, "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "...)
	out = strconv.AppendInt(out, int64(len(body)), 10)
	out = append(out, "\r\n\r\n"...)
	out = append(out, body...)
	return out, true
}
