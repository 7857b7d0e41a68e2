package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// sharedWatches keeps the hosted server's watches in Redis, so that the
// replicas of a server share them and their cap: a hash per account (watch
// id to its JSON) and a counter of the account's ids. Creating is one
// script that checks the cap and adds, so concurrent creates on any
// replicas never pass the cap. An account's two keys share a hash tag,
// the account's id, so the script runs on one server of a Redis Cluster,
// and accounts spread across the cluster. A failure of Redis or of its
// client, a panic included, is an error of the call (the watch tools
// answer upstream_unavailable), never a crash.
type sharedWatches struct {
	client  rueidis.Client
	prefix  string
	timeout time.Duration // of each call, the store's
}

// createWatchScript adds ARGV[2] (a watch's JSON, without its id) to the
// hash KEYS[1] when it holds fewer than ARGV[1] watches, under the field
// w-N, N a new id from the account's counter KEYS[2]. It returns {1, N} or {0,
// watches held}.
var createWatchScript = rueidis.NewLuaScript(`
local held = redis.call('HLEN', KEYS[1])
if held >= tonumber(ARGV[1]) then return {0, held} end
local id = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'w-' .. id, ARGV[2])
return {1, id}
`)

// errWatchStore reports a shared watch store that did not answer.
var errWatchStore = errors.New("the watch store is not answering")

// key returns the Redis key of acct's watches; idKey that of its counter.
func (sw *sharedWatches) key(acct string) string   { return sw.prefix + "watches:{" + acct + "}" }
func (sw *sharedWatches) idKey(acct string) string { return sw.prefix + "watch-id:{" + acct + "}" }

// recoverErr turns a panic of the Redis client into an error of the call.
func recoverErr(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%w: the client panicked: %v", errWatchStore, p)
	}
}

// create adds w for acct unless it keeps cap watches already; it returns
// the watch with its id, or the number of watches kept.
func (sw *sharedWatches) create(ctx context.Context, acct string, cap int, w watch) (_ watch, _ int, _ bool, err error) {
	defer recoverErr(&err)
	w.ID = ""
	doc, err := json.Marshal(w)
	if err != nil {
		return watch{}, 0, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, sw.timeout)
	defer cancel()
	r, err := createWatchScript.Exec(ctx, sw.client, []string{sw.key(acct), sw.idKey(acct)},
		[]string{strconv.Itoa(cap), string(doc)}).AsIntSlice()
	if err != nil || len(r) != 2 {
		return watch{}, 0, false, fmt.Errorf("%w: %v", errWatchStore, err)
	}
	if r[0] != 1 {
		return watch{}, int(r[1]), false, nil
	}
	w.ID = "w-" + strconv.FormatInt(r[1], 10)
	return w, 0, true, nil
}

// get returns acct's watch id.
func (sw *sharedWatches) get(ctx context.Context, acct, id string) (_ watch, _ bool, err error) {
	defer recoverErr(&err)
	ctx, cancel := context.WithTimeout(ctx, sw.timeout)
	defer cancel()
	doc, err := sw.client.Do(ctx, sw.client.B().Hget().Key(sw.key(acct)).Field(id).Build()).AsBytes()
	if rueidis.IsRedisNil(err) {
		return watch{}, false, nil
	}
	var w watch
	if err == nil {
		err = json.Unmarshal(doc, &w)
	}
	if err != nil {
		return watch{}, false, fmt.Errorf("%w: %v", errWatchStore, err)
	}
	w.ID = id
	w.Signals = nonNil(slices.Clone(w.Signals))
	return w, true, nil
}

// remove deletes acct's watch id and reports whether there was one.
func (sw *sharedWatches) remove(ctx context.Context, acct, id string) (_ bool, err error) {
	defer recoverErr(&err)
	ctx, cancel := context.WithTimeout(ctx, sw.timeout)
	defer cancel()
	n, err := sw.client.Do(ctx, sw.client.B().Hdel().Key(sw.key(acct)).Field(id).Build()).AsInt64()
	if err != nil {
		return false, fmt.Errorf("%w: %v", errWatchStore, err)
	}
	return n == 1, nil
}
