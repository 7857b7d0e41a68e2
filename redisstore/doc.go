// Package redisstore keeps the limits of package ratelimit in Redis, so
// that the replicas of a server behind a load balancer share every
// Limiter, and every limit built on the Store primitives, exactly: one
// key's 60 messages a minute are 60 across all replicas, not 60 on each.
//
//	store, err := redisstore.New(ctx, "redis://127.0.0.1:6379/0", redisstore.Options{Prefix: "news:"})
//	if err != nil {
//		log.Fatalf("-redis: %v", err)
//	}
//	defer store.Close()
//	limiter := &ratelimit.Limiter{Rate: 10, Burst: 20, Store: store}
//
// Each Store method is one Lua script, one round trip: GCRA for Take, a
// counter with an expiry for Add, and for Spend a check of every limit
// followed by the charge of every limit, so that a reservation of credits
// never refuses a call that fits and never overspends, however many
// replicas race. The scripts are sent by digest (EVALSHA) and sent whole
// again when the server answers NOSCRIPT (after a restart or a SCRIPT
// FLUSH). They read the time from Redis (TIME), so replicas whose clocks
// are skewed agree, and every key expires once it holds nothing a new key
// would not: no key outlives its window. Keys carry a prefix, and keys
// longer than 64 bytes are kept as their SHA-256 digest.
//
// Redis going away is not an outage: each call waits at most
// Options.Timeout (DefaultTimeout, 250 ms), then returns an *Error, on
// which a Limiter lets the request through (fails open), as callers of
// Add and Spend should. After a call that timed out, calls to the same
// server fail at once for a second (ErrHung) rather than each waiting out the timeout, so a request held by
// a hung Redis waits one timeout at most, and a refused connection costs
// no wait at all; the store logs the failure once per Options.LogEvery, not once
// per request, and the limits apply again as soon as Redis answers.
// Limits counted while Redis was away are not counted at all.
//
// On a Redis Cluster, a node that hangs or fails affects only the keys it
// owns. While one primary is stopped or unreachable, the calls whose keys
// hash to its slots fail open: the first call to a slot waits Timeout, and
// the calls to that slot in the second after it fail at once (ErrHung),
// then one is tried again, so a call waits at most one Timeout a second per
// slot, and a customer's keys, which share a slot, wait one Timeout a
// second between them. The keys on the other primaries stay exactly
// limited all along. Once the cluster marks the node failed (after its
// cluster-node-timeout) it answers CLUSTERDOWN for the node's slots, which
// fail open at once; with cluster-require-full-coverage (the default) it
// answers so for every slot, and every call fails open until the node is
// back or its slots are served elsewhere.
//
// # Redis servers and clusters
//
// The store works with Redis 3.2 or later, over RESP2: a single server, a
// primary with replicas, or a Redis Cluster (and the managed services
// that are cluster-only). For a cluster, give the address of any of its
// primaries, and more as addr parameters so the first contact survives
// one of them being down; the database must be 0:
//
//	redis://10.0.0.1:6379/0?addr=10.0.0.2:6379&addr=10.0.0.3:6379
//
// The client learns the cluster's slots from the first node that answers
// and follows MOVED and ASK redirections. Every Redis key carries a hash
// tag, the group of its ratelimit key (see ratelimit.Store): a customer's
// keys share a slot, so a Spend of several of them is one script on one
// server, while customers spread across the cluster. A Spend whose keys
// are of different groups fails (and fails open) instead of reaching
// Redis. While the cluster answers CLUSTERDOWN (a primary lost with no
// replica to take over, its slots uncovered) or TRYAGAIN, the calls that
// reach those slots fail at once and fail open, and limits apply again as
// soon as the slots are served; what was counted on a primary that
// restarts without persistence starts again from zero.
//
// # The client
//
// The store runs on github.com/redis/rueidis rather than
// github.com/redis/go-redis/v9: rueidis builds with the Go version this
// repository supports (go-redis v9.23.0 requires Go 1.26), needs nothing
// but golang.org/x/sys, pipelines concurrent calls on shared connections
// (64 goroutines make one round trip each without a pool of 64
// connections), and its Lua type does the EVALSHA, then EVAL on NOSCRIPT,
// that the store relies on.
//
// # Install
//
//	go get github.com/mcperr/mcperr/redisstore
package redisstore
