package redisstore_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/redisstore"
)

// A URL that does not parse is an error that says what was wanted, and
// never repeats the URL, which may hold a password.
func ExampleParseURL() {
	_, err := redisstore.ParseURL("redis://user:secret@127.0.0.1/0")
	fmt.Println(err)
	opt, _ := redisstore.ParseURL("redis://127.0.0.1:6379/2")
	fmt.Println(opt.InitAddress, opt.SelectDB)
	// A Redis Cluster: any of its primaries, more as addr parameters.
	opt, _ = redisstore.ParseURL("redis://10.0.0.1:6379/0?addr=10.0.0.2:6379&addr=10.0.0.3:6379")
	fmt.Println(opt.InitAddress, opt.SelectDB)
	// Output:
	// want host:port, as in redis://127.0.0.1:6379/0
	// [127.0.0.1:6379] 2
	// [10.0.0.1:6379 10.0.0.2:6379 10.0.0.3:6379] 0
}

// Every replica builds its limits on a store of the same Redis and prefix,
// and they share them exactly.
func ExampleNew() {
	ctx := context.Background()
	store, err := redisstore.New(ctx, "redis://127.0.0.1:6379/0", redisstore.Options{Prefix: "news:"})
	if err != nil {
		log.Fatalf("-redis: %v", err)
	}
	defer store.Close()
	limiter := &ratelimit.Limiter{Rate: 10, Burst: 20, Store: store}
	// A fixed window of a server's own, on the same store.
	now := time.Now()
	window, err := store.Add(ctx, "window:198.51.100.7", 1, now, now.Add(10*time.Second))
	_, _, _ = limiter, window, err
}
