#!/usr/bin/env bash
# mcperr audit of published MCP servers from npm, each in a network namespace of its own (loopback only: every upstream
# request fails at once), with dummy credentials: the run behind the table of cmd/mcperr/README.md.
#
#   sudo examples/interop/audit-npm.sh [OUT]      # root: it creates network namespaces (ip netns add)
#
# Installs the servers by name at the versions below into AUDIT_NPM_CACHE (default /tmp/mcperr-audit-npm), builds
# cmd/mcperr, and for each server writes OUT/NAME.json (the -json report, -faults included) and OUT/NAME.txt (the
# table). Each audit is bounded by -deadline and by timeout(1). Prints one line per server. AUDIT_NPM_ONLY=WORD audits
# only the servers whose package name holds WORD.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/out/npm}
cache=${AUDIT_NPM_CACHE:-/tmp/mcperr-audit-npm}
mkdir -p "$out" "$cache"

servers=(
  "@modelcontextprotocol/server-everything@2026.8.31|dist/index.js stdio|"
  "@modelcontextprotocol/server-filesystem@2026.8.31|dist/index.js FILES|"
  "@modelcontextprotocol/server-memory@2026.8.31|dist/index.js|MEMORY_FILE_PATH=FILES/memory.jsonl"
  "@modelcontextprotocol/server-sequential-thinking@2026.8.31|dist/index.js|"
  "@modelcontextprotocol/server-github@2025.4.8|dist/index.js|GITHUB_PERSONAL_ACCESS_TOKEN=ghp_auditdummy0000000000000000000000000"
  "@modelcontextprotocol/server-slack@2025.4.25|dist/index.js|SLACK_BOT_TOKEN=xoxb-audit-dummy-token SLACK_TEAM_ID=T00000000"
  "@modelcontextprotocol/server-brave-search@0.6.2|dist/index.js|BRAVE_API_KEY=BSAauditdummykey000"
  "@modelcontextprotocol/server-google-maps@0.6.2|dist/index.js|GOOGLE_MAPS_API_KEY=AIzaauditdummykey000"
  "@modelcontextprotocol/server-gitlab@2025.4.25|dist/index.js|GITLAB_PERSONAL_ACCESS_TOKEN=glpat-auditdummytoken GITLAB_API_URL=https://gitlab.example/api/v4"
  "tavily-mcp@0.2.22|build/index.js|TAVILY_API_KEY=tvly-auditdummykey000"
  "firecrawl-mcp@3.26.0|dist/index.js|FIRECRAWL_API_KEY=fc-auditdummykey000"
  "exa-mcp-server@3.4.1|dist/stdio.cjs|EXA_API_KEY=auditdummykey000"
  "@upstash/context7-mcp@4.1.1|dist/index.js|CONTEXT7_API_KEY=ctx7sk-auditdummykey000"
  "@notionhq/notion-mcp-server@2.5.2|bin/cli.mjs|NOTION_TOKEN=ntn_auditdummytoken000"
  "mcp-server-kubernetes@4.1.7|dist/index.js|"
)

pkgs=()
for s in "${servers[@]}"; do pkgs+=("${s%%|*}"); done
if [ ! -f "$cache/.installed" ]; then
  (cd "$cache" && { [ -f package.json ] || echo '{"name":"mcperr-audit-npm","private":true}' >package.json; } &&
    PUPPETEER_SKIP_DOWNLOAD=1 npm install --no-audit --no-fund --ignore-scripts --loglevel=error "${pkgs[@]}") || exit 1
  touch "$cache/.installed"
fi
bin=$(mktemp -d "${TMPDIR:-/tmp}/mcperr-audit-npm-bin.XXXXXX")
trap 'rm -rf "$bin"' EXIT
(cd "$here/../../cmd/mcperr" && go build -o "$bin/mcperr" .) || exit 1

for s in "${servers[@]}"; do
  IFS='|' read -r spec entry envs <<<"$s"
  pkg=${spec%@*}
  name=${pkg##*/}
  [ -n "${AUDIT_NPM_ONLY:-}" ] && [[ $pkg != *"$AUDIT_NPM_ONLY"* ]] && continue
  files=$(mktemp -d "${TMPDIR:-/tmp}/mcperr-audit-files.XXXXXX")
  ns=mcperr-audit-$$-${#name}-$RANDOM
  ip netns add "$ns" && ip netns exec "$ns" ip link set lo up
  read -r -a args <<<"${entry//FILES/$files}"
  read -r -a env <<<"${envs//FILES/$files}"
  start=$(date +%s)
  timeout --kill-after=10 420 ip netns exec "$ns" env HOME="$files" "${env[@]}" \
    "$bin/mcperr" audit -json -faults -timeout 10s -deadline 360s -- node "$cache/node_modules/$pkg/${args[0]}" "${args[@]:1}" \
    >"$out/$name.json" 2>"$out/$name.log"
  rc=$?
  "$bin/mcperr" audit -h >/dev/null 2>&1
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const ok = r.checks.filter((c) => c.ok).length;
    console.log(`${process.argv[2]}: ${r.server} ${r.version} grade ${r.grade} (${r.score}), ${ok}/${r.checks.length} ok, ${r.tools} tools, ${Math.round(r.seconds)}s`);
  ' "$out/$name.json" "$spec" 2>/dev/null || echo "$spec: no report (exit $rc): $(tail -n 3 "$out/$name.log")"
  ip netns delete "$ns"
  rm -rf "$files"
done
