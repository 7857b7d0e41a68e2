package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one line the server writes.
const maxLine = 16 << 20

// waitDelay is how long the audit waits, after the server's process
// exited or was killed, for the pipes it shares with other processes to
// close: a child the server forked that keeps stdout or stderr open does
// not hold the audit for its lifetime (exec.Cmd.WaitDelay).
const waitDelay = 2 * time.Second

// stdioTransport starts a server command and speaks to it over its stdin and
// stdout, one JSON-RPC message a line, as the go-sdk's CommandTransport does;
// beside the SDK's messages it writes raw lines (the probes) and hands back
// the answers to them: any response whose id is not one the SDK is waiting for.
type stdioTransport struct {
	argv []string
	env  []string   // the server's environment; the audit's own when nil
	conn *stdioConn // set by Connect
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	cmd := exec.Command(t.argv[0], t.argv[1:]...)
	ownGroup(cmd)
	cmd.Env = t.env
	cmd.WaitDelay = waitDelay
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = pw
	c := &stdioConn{cmd: cmd, in: stdin, outFile: pr, out: bufio.NewReaderSize(pr, 64<<10),
		sdk: map[string]bool{}, raw: make(chan json.RawMessage, 16), exited: make(chan struct{})}
	cmd.Stderr = &c.stderr
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return nil, err
	}
	pw.Close()
	go func() {
		cmd.Wait()
		close(c.exited)
	}()
	t.conn = c
	return c, nil
}

// stdioConn is one running server process.
type stdioConn struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	outFile *os.File
	out     *bufio.Reader
	stderr  tail
	exited  chan struct{}

	wmu sync.Mutex

	mu  sync.Mutex
	sdk map[string]bool // the ids of the SDK's requests still unanswered

	raw       chan json.RawMessage // answers to raw lines
	last      []byte               // the last answer to one of the SDK's requests, as sent (at most maxRaw*4 bytes)
	closeOnce sync.Once
}

func (c *stdioConn) SessionID() string { return "" }

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		line, err := readLine(c.out)
		if err != nil {
			return nil, err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var head struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		if json.Unmarshal(line, &head) != nil {
			continue // not a JSON-RPC message: noise on stdout
		}
		if head.Method == nil {
			id := string(head.ID)
			c.mu.Lock()
			mine := c.sdk[id]
			delete(c.sdk, id)
			c.mu.Unlock()
			if !mine {
				select {
				case c.raw <- json.RawMessage(bytes.Clone(line)):
				default:
				}
				continue
			}
			c.mu.Lock()
			c.last = bytes.Clone(line[:min(len(line), maxRaw*4)])
			c.mu.Unlock()
		}
		msg, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			continue
		}
		return msg, nil
	}
}

func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		var head struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(data, &head) == nil {
			c.mu.Lock()
			c.sdk[string(head.ID)] = true
			c.mu.Unlock()
		}
	}
	return c.writeLine(data)
}

// writeLine writes one line to the server's stdin.
func (c *stdioConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.in.Write(append(bytes.Clone(data), '\n')); err != nil {
		return fmt.Errorf("writing to the server: %w", err)
	}
	return nil
}

// drain drops the answers to earlier raw lines.
func (c *stdioConn) drain() {
	for {
		select {
		case <-c.raw:
		default:
			return
		}
	}
}

// alive reports whether the process is still running.
func (c *stdioConn) alive() bool {
	select {
	case <-c.exited:
		return false
	default:
		return true
	}
}

// Close ends the session as the MCP stdio transport says: stdin closed, then
// the process is given a moment to exit before it is killed.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		c.in.Close()
		select {
		case <-c.exited:
		case <-time.After(2 * time.Second):
			kill(c.cmd)
			select {
			case <-c.exited:
			case <-time.After(2*waitDelay + time.Second):
				// Wait is stuck past its WaitDelay: leave it, never the audit.
			}
		}
		c.outFile.Close()
	})
	return nil
}

// readLine reads one line of at most maxLine bytes.
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		frag, err := r.ReadSlice('\n')
		buf = append(buf, frag...)
		if err == nil {
			return buf, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			if len(buf) > 0 && errors.Is(err, io.EOF) {
				return buf, nil
			}
			return nil, err
		}
		if len(buf) > maxLine {
			return nil, fmt.Errorf("the server wrote a line longer than %d bytes", maxLine)
		}
	}
}

// tail keeps the last few KiB written to it: the server's stderr, for the
// message when it fails to start.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4096 {
		t.buf = t.buf[len(t.buf)-4096:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf))
}

// lastAnswer returns the last answer to the SDK's requests, as sent, and
// forgets it.
func (c *stdioConn) lastAnswer() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.last
	c.last = nil
	return b
}
