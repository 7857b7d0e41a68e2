#!/usr/bin/env bash
# Installs this folder's npm packages (package-lock.json, with npm ci) into a cache folder keyed on the lockfile's hash,
# applies the Node 20 shim to the conformance suite, and links ./node_modules to that install. Prints the install dir.
#
# The shim: @modelcontextprotocol/conformance 0.2.0-alpha.12 imports globSync from "fs", which exists only from
# Node 22; on Node 20 the module fails to load ("The requested module 'fs' does not provide an export named
# 'globSync'"). The shim rewrites that one import so globSync comes from the glob package (pinned in package.json)
# instead. It is idempotent and touches only the installed copy, never this folder.
#
# Environment: INTEROP_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/mcperr-interop) is where installs live.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
hash=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)
cache=${INTEROP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcperr-interop}
dir=$cache/$hash
if [ ! -f "$dir/.installed" ]; then
  rm -rf "$dir" && mkdir -p "$dir"
  cp "$here/package.json" "$here/package-lock.json" "$dir/"
  if ! (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >"$dir/npm-ci.log" 2>&1); then
    echo "setup: npm ci failed in $dir; the log follows" >&2
    tail -n 40 "$dir/npm-ci.log" >&2
    exit 1
  fi
  touch "$dir/.installed"
  # Installs of earlier lockfiles are not needed any more.
  for old in "$cache"/*/; do
    [ "${old%/}" != "$dir" ] && [ -f "$old/.installed" ] && rm -rf "$old"
  done
fi

# The Node 20 shim (a no-op when the import is already rewritten or absent).
cli=$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js
node - "$cli" <<'JS'
const fs = require('node:fs');
const file = process.argv[2];
const src = fs.readFileSync(file, 'utf8');
// import{existsSync as i,globSync as a,mkdtempSync as o,...}from"fs"  ->  import{globSync as a}from"glob";import{existsSync as i,mkdtempSync as o,...}from"fs"
const re = /import\{([^}]*?)\bglobSync as (\w+),?([^}]*)\}from"fs";/;
const m = src.match(re);
if (m) {
  const rest = (m[1] + m[3]).replace(/,$/, '');
  fs.writeFileSync(file, src.replace(re, `import{globSync as ${m[2]}}from"glob";import{${rest}}from"fs";`));
} else if (!src.includes('from"glob"')) {
  console.error(`setup: the conformance suite's globSync import was not found in ${file}; the shim may need updating`);
  process.exit(1);
}
JS

# ./node_modules -> the install (a symlink, so the Go tools and gofmt never walk into it).
if [ -L "$here/node_modules" ] || [ ! -e "$here/node_modules" ]; then
  ln -sfn "$dir/node_modules" "$here/node_modules"
fi
echo "$dir"
