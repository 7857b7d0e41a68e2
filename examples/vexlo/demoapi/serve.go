package demoapi

import (
	"context"
	"net"
	"net/http"
	"time"
)

// Server is an API listening on a TCP address.
type Server struct {
	URL string // base URL, such as "http://127.0.0.1:43121"
	srv *http.Server
	ln  net.Listener
}

// Start serves h (usually an [*API]) on addr, such as "127.0.0.1:0" for a
// free loopback port, until Close.
func Start(h http.Handler, addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{
		URL: "http://" + ln.Addr().String(),
		srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second},
		ln:  ln,
	}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server and closes its connections.
func (s *Server) Close() error { return s.srv.Close() }

// Shutdown stops the server gracefully, waiting for active requests until
// ctx ends.
func (s *Server) Shutdown(ctx context.Context) error { return s.srv.Shutdown(ctx) }
