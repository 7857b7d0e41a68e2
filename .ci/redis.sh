#!/usr/bin/env bash
# Starts a throwaway redis-server for the tests of the redisstore module and
# of the examples that run replicas on Redis, and stops it when the shell
# that sourced this file exits.
#
#   source .ci/redis.sh   # in .ci/run, before the test steps
#
# It installs redis-server when it is missing (apt-get; CI runs as root),
# starts it on a free loopback port with no persistence, and exports
# MCPERR_REDIS_URL=redis://127.0.0.1:PORT/0 and MCPERR_REDIS_SERVER (the
# binary, for the tests that stop and restart a server of their own).
# Tests that need Redis skip without MCPERR_REDIS_URL, and fail under CI=true.

redis_start() {
  if ! command -v redis-server >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "redis: installing redis-server"
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server) >/dev/null
    else
      echo "redis: redis-server is missing and cannot be installed here; the Redis tests skip (or fail under CI=true)"
      return 0
    fi
  fi
  local port dir
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' 2>/dev/null ||
    shuf -i 20000-60000 -n 1)
  dir=$(mktemp -d)
  redis-server --save '' --appendonly no --port "$port" --bind 127.0.0.1 \
    --dir "$dir" --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
  for _ in $(seq 50); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
  if ! redis-cli -p "$port" ping >/dev/null 2>&1; then
    echo "redis: the server did not start on port $port:"; cat "$dir/redis.log"; return 1
  fi
  REDIS_CI_DIR=$dir
  export MCPERR_REDIS_URL="redis://127.0.0.1:$port/0"
  export MCPERR_REDIS_SERVER
  MCPERR_REDIS_SERVER=$(command -v redis-server)
  echo "redis: $(redis-server --version | awk '{print $3}') at $MCPERR_REDIS_URL"
  trap redis_stop EXIT
}

redis_stop() {
  if [ -n "${REDIS_CI_DIR:-}" ] && [ -f "$REDIS_CI_DIR/redis.pid" ]; then
    kill "$(cat "$REDIS_CI_DIR/redis.pid")" 2>/dev/null || true
    rm -rf "$REDIS_CI_DIR"
  fi
  REDIS_CI_DIR=
}

redis_start
