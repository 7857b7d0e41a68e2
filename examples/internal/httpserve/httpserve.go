// Package httpserve runs the example servers' HTTP endpoints: with timeouts
// that keep a slow or silent client from holding a connection, a bound on
// request heads, and a graceful shutdown when the context ends.
package httpserve

import (
	"context"
	"errors"
	"log"
	"net"
	"net/http"
	"time"
)

// MaxHeaderBytes bounds a request head; a larger one is refused with 431
// before any handler runs.
const MaxHeaderBytes = 64 << 10

// Run serves h on ln until ctx is done, then shuts down, giving requests in
// flight 5 seconds to finish. It returns nil after a clean shutdown and the
// server's error otherwise. errorLog, when not nil, receives the server's
// own error lines (it never sees request headers).
func Run(ctx context.Context, ln net.Listener, h http.Handler, errorLog *log.Logger) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          errorLog,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			return err
		}
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
