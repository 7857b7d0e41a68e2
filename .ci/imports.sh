#!/usr/bin/env bash
# Imports in three groups, in this order: the standard library, other modules,
# then mcperr's own packages (goimports -local github.com/mcperr/mcperr).
#
#   bash .ci/imports.sh            lists the Go files goimports would regroup; fails if any
#   bash .ci/imports.sh -w [DIR...] regroups the files under DIR (default: the whole tree):
#                                  the blank lines inside each import block go, then
#                                  goimports puts the groups back, so two groups of
#                                  mcperr imports become one
#
# goimports is the version .ci/tools/go.mod pins (go tool goimports, through go.work). testdata/
# is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
local=$(source .ci/lib.sh && modpath .)
goimports() { go tool goimports -local "$local" "$@"; }

if [ "${1:-}" = -w ]; then
  shift
  files=$(git ls-files -- "${@:-.}" | grep '\.go$' | grep -v '/testdata/' || true)
  for f in $files; do
    awk '/^import \($/{b=1} b && /^\)$/{b=0} !(b && /^[ \t]*$/)' "$f" >"$f.imports" && mv "$f.imports" "$f"
  done
  # shellcheck disable=SC2086
  [ -z "$files" ] || goimports -w $files
  exit 0
fi

bad=$(goimports -l . | grep -v '/testdata/' || true)
if [ -n "$bad" ]; then
  echo "imports: not in the three groups (standard library, other modules, $local):"
  echo "$bad"
  echo "imports: fix with: bash .ci/imports.sh -w FILE..."
  exit 1
fi
