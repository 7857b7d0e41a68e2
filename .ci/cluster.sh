#!/usr/bin/env bash
# Starts a throwaway Redis Cluster of 3 primaries (no replicas) for the
# cluster tests of the redisstore module and of the examples that run
# replicas on Redis, and stops it when the shell that sourced this file
# exits.
#
#   source .ci/cluster.sh   # in .ci/run, before the test steps
#
# It installs redis-server and redis-tools when they are missing (apt-get;
# CI runs as root), starts three redis-server processes in cluster mode on
# free loopback ports with no persistence, joins them with
# `redis-cli --cluster create`, and exports
# MCPERR_REDIS_CLUSTER_URL=redis://127.0.0.1:P1/0?addr=127.0.0.1:P2&addr=127.0.0.1:P3
# and MCPERR_REDIS_CLI (the binary, for the tests that start a cluster of
# their own to kill and restart a primary). Tests that need a cluster
# skip without MCPERR_REDIS_CLUSTER_URL, and fail under CI=true.

# cluster_port prints a free loopback port whose cluster bus port (the port
# plus 10000) is free too.
cluster_port() {
  python3 - <<'PY' 2>/dev/null || shuf -i 20000-45000 -n 1
import random, socket
for _ in range(200):
    p = random.randint(20000, 45000)
    try:
        for q in (p, p + 10000):
            s = socket.socket()
            s.bind(("127.0.0.1", q))
            s.close()
    except OSError:
        continue
    print(p)
    break
PY
}

cluster_start() {
  if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "cluster: installing redis-server and redis-tools"
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server redis-tools) >/dev/null
    else
      echo "cluster: redis-server or redis-cli is missing and cannot be installed here; the cluster tests skip (or fail under CI=true)"
      return 0
    fi
  fi
  local dir port ports=() nodes=()
  dir=$(mktemp -d)
  CLUSTER_CI_DIR=$dir
  # Stop the single server of .ci/redis.sh too when it was sourced first:
  # one EXIT trap holds one command.
  if declare -F redis_stop >/dev/null; then
    trap 'cluster_stop; redis_stop' EXIT
  else
    trap cluster_stop EXIT
  fi
  for i in 1 2 3; do
    port=$(cluster_port)
    mkdir -p "$dir/$i"
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
      --cluster-enabled yes --cluster-config-file "$dir/$i/nodes.conf" --cluster-node-timeout 2000 \
      --dir "$dir/$i" --daemonize yes --pidfile "$dir/$i/redis.pid" --logfile "$dir/$i/redis.log"
    ports+=("$port")
    nodes+=("127.0.0.1:$port")
  done
  for port in "${ports[@]}"; do
    for _ in $(seq 50); do
      redis-cli -p "$port" ping >/dev/null 2>&1 && break
      sleep 0.1
    done
  done
  if ! redis-cli --cluster create "${nodes[@]}" --cluster-replicas 0 --cluster-yes >"$dir/create.log" 2>&1; then
    echo "cluster: redis-cli --cluster create failed:"; cat "$dir/create.log"; return 1
  fi
  for _ in $(seq 100); do
    redis-cli -p "${ports[0]}" cluster info 2>/dev/null | grep -q '^cluster_state:ok' && break
    sleep 0.1
  done
  if ! redis-cli -p "${ports[0]}" cluster info | grep -q '^cluster_state:ok'; then
    echo "cluster: the cluster did not come up:"; redis-cli -p "${ports[0]}" cluster info; return 1
  fi
  export MCPERR_REDIS_CLUSTER_URL="redis://127.0.0.1:${ports[0]}/0?addr=127.0.0.1:${ports[1]}&addr=127.0.0.1:${ports[2]}"
  export MCPERR_REDIS_CLI MCPERR_REDIS_SERVER
  MCPERR_REDIS_CLI=$(command -v redis-cli)
  MCPERR_REDIS_SERVER=$(command -v redis-server)
  echo "cluster: 3 primaries at $MCPERR_REDIS_CLUSTER_URL"
}

cluster_stop() {
  if [ -n "${CLUSTER_CI_DIR:-}" ]; then
    local pids=() pid
    for f in "$CLUSTER_CI_DIR"/*/redis.pid; do
      [ -f "$f" ] && pids+=("$(cat "$f")")
    done
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    # A node writes its cluster configuration as it exits: wait for it
    # before removing the directory.
    for _ in $(seq 50); do
      local alive=0
      for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
      [ "$alive" = 0 ] && break
      sleep 0.1
    done
    rm -rf "$CLUSTER_CI_DIR" 2>/dev/null || true
  fi
  CLUSTER_CI_DIR=
}

cluster_start
