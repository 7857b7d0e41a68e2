#!/usr/bin/env bash
# The interop suite in one command: real MCP clients against the three example servers.
#
#   examples/interop/run.sh
#
# 1. installs the npm packages (npm ci of package-lock.json into a cache folder, with the conformance suite's Node 20
#    shim: see setup.sh), 2. builds the servers with go build (and the SDK adapters' demo servers), 3. runs the
#    node:test suite (the TypeScript SDK's Client over stdio and Streamable HTTP), 4. the official conformance scenarios that apply, 5. the Inspector CLI
#    smoke, 6. mcperr audit of published TypeScript servers from npm. Prints a closing line "N passed, N failed" and exits non-zero when anything failed. Without node or npm it
#    says so and exits 0. Every step has a time bound and runs in its own process group, killed whole at its end.
#
# Environment: INTEROP_CACHE (npm install cache, see setup.sh), INTEROP_OUT (reports; default ./out).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "interop: node or npm not found on PATH; skipping the interop suite (it needs Node 20 or later and npm)"
  exit 0
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  echo "interop: node $(node --version) is older than 20; skipping the interop suite"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "interop: go not found on PATH; cannot build the servers"
  echo "0 passed, 1 failed"
  exit 1
fi

out=${INTEROP_OUT:-$here/out}
rm -rf "$out" && mkdir -p "$out"
bin=$(mktemp -d "${TMPDIR:-/tmp}/mcperr-interop-bin.XXXXXX")
step_pid=
cleanup() {
  [ -n "$step_pid" ] && kill "$step_pid" 2>/dev/null
  rm -rf "$bin"
}
trap cleanup EXIT
trap 'echo "interop: interrupted"; exit 130' INT TERM

passed=0 failed=0
# bounded SECONDS CMD...: runs CMD under timeout(1), which puts it in its own process group and kills that whole
# group when the time is up; the run is backgrounded so an interrupt here stops it too.
bounded() {
  local secs=$1; shift
  timeout --kill-after=10 "$secs" "$@" &
  step_pid=$!
  wait "$step_pid"
  local rc=$?
  step_pid=
  return $rc
}
# tally FILE LABEL: adds the "LABEL: N passed, N failed" line of FILE to the totals.
tally() {
  local line p f
  line=$(grep -E "^$2: [0-9]+ passed, [0-9]+ failed" "$1" | tail -n 1)
  if [ -z "$line" ]; then
    echo "interop: $2 gave no summary line; counted as one failure"
    failed=$((failed + 1))
    return
  fi
  p=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")
  f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
  passed=$((passed + p)) failed=$((failed + f))
}

echo "--- interop: npm ci (cached) and the Node 20 shim"
if ! bounded 600 ./setup.sh >"$out/setup.log" 2>&1; then
  cat "$out/setup.log"
  echo "0 passed, 1 failed"
  exit 1
fi

echo "--- interop: go build the servers"
for name in vexlo vulnetix news; do
  if (cd "$here/.." && bounded 300 go build -o "$bin/$name" "./$name") >"$out/build-$name.log" 2>&1; then
    passed=$((passed + 1))
  else
    echo "FAIL go build ./$name:"; sed 's/^/       /' "$out/build-$name.log"
    failed=$((failed + 1))
  fi
done
# The SDK adapters' demo servers (test/adapters.test.mjs): the same server on the go-sdk and on mcp-go.
for mod in gosdk mcpgo; do
  if (cd "$here/../../$mod" && bounded 300 go build -o "$bin/$mod-demo" ./internal/demo) >"$out/build-$mod-demo.log" 2>&1; then
    passed=$((passed + 1))
  else
    echo "FAIL go build ./$mod/internal/demo:"; sed 's/^/       /' "$out/build-$mod-demo.log"
    failed=$((failed + 1))
  fi
done
export INTEROP_BIN=$bin

echo "--- interop: TypeScript SDK client tests (node --test)"
bounded 300 node --test --test-timeout=120000 \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$out/tests.tap" \
  test/
tp=$(grep -E '^# pass ' "$out/tests.tap" | awk '{print $3}')
tf=$(grep -E '^# (fail|cancelled) ' "$out/tests.tap" | awk '{s += $3} END {print s + 0}')
if [ -z "$tp" ]; then
  echo "interop: node --test gave no summary; counted as one failure"
  failed=$((failed + 1))
else
  passed=$((passed + tp)) failed=$((failed + tf))
fi

echo "--- interop: conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12)"
bounded 420 node conformance.mjs "$out/conformance" | tee "$out/conformance.txt"
tally "$out/conformance.txt" conformance

echo "--- interop: MCP Inspector CLI smoke (@modelcontextprotocol/inspector 2.12.0)"
bounded 300 node inspector.mjs | tee "$out/inspector.txt"
tally "$out/inspector.txt" inspector

echo "--- interop: mcperr audit of published TypeScript servers (server-everything, server-filesystem, server-memory)"
# Each server is audited over stdio, its table, JSON and JUnit XML kept in $out. A step passes when the audit ends by
# itself within its -deadline and its -json parses with a grade: the grades themselves are the servers' business.
# audit-npm.sh audits more published servers, each in a network namespace (root only; not part of this suite).
scratch=$(mktemp -d "${TMPDIR:-/tmp}/mcperr-interop-audit.XXXXXX")
if (cd "$here/../../cmd/mcperr" && bounded 300 go build -o "$bin/mcperr" .) >"$out/build-mcperr.log" 2>&1; then
  audit_one() {
    local name=$1; shift
    if bounded 120 "$bin/mcperr" audit -json -junit "$out/audit-$name.xml" -timeout 10s -deadline 100s -- "$@" >"$out/audit-$name.json" 2>"$out/audit-$name.log" &&
      bounded 120 "$bin/mcperr" audit -timeout 10s -deadline 100s -- "$@" >"$out/audit-$name.txt" 2>>"$out/audit-$name.log" &&
      node -e '
        const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        if (!/^[A-F]$/.test(r.grade) || !Array.isArray(r.checks) || r.checks.length === 0) process.exit(1);
        const ok = r.checks.filter((c) => c.ok).length;
        console.log(`ok   audit ${process.argv[2]}: grade ${r.grade} (${r.score}/100), ${ok} of ${r.checks.length} checks ok`);
      ' "$out/audit-$name.json" "$name"; then
      passed=$((passed + 1))
    else
      echo "FAIL audit $name:"; tail -n 20 "$out/audit-$name.log" | sed 's/^/       /'
      failed=$((failed + 1))
    fi
  }
  mkdir -p "$scratch/files"
  audit_one server-everything node node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio
  audit_one server-filesystem node node_modules/@modelcontextprotocol/server-filesystem/dist/index.js "$scratch/files"
  MEMORY_FILE_PATH=$scratch/memory.jsonl audit_one server-memory node node_modules/@modelcontextprotocol/server-memory/dist/index.js
else
  echo "FAIL go build ./cmd/mcperr:"; sed 's/^/       /' "$out/build-mcperr.log"
  failed=$((failed + 1))
fi
rm -rf "$scratch"

echo "--- interop: reports in $out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
