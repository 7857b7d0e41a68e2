#!/usr/bin/env bash
# No module of the workspace imports another module's internal packages. Go
# allows it by path, but the modules are versioned apart: when a user's build
# selects a newer version of the module that owns the internal package than
# the importer was released with, the importer stops compiling, and apidiff,
# which does not look at internal packages, never says so.
#
# Each module's packages are listed with their imports, test imports
# included; an import path with an internal element must belong to the
# module that imports it (the longest module path of go.work it starts with).
set -euo pipefail
cd "$(dirname "$0")/.."

mods=$(go list -m -f '{{.Path}} {{.Dir}}')
status=0
while read -r mod dir; do
  bad=$(cd "$dir" && go list -f '{{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}' ./... |
    awk -v self="$mod" -v mods="$(cut -d' ' -f1 <<<"$mods")" '
      BEGIN { n = split(mods, m, "\n") }
      {
        for (i = 2; i <= NF; i++) {
          p = $i
          if (p !~ /(^|\/)internal(\/|$)/) continue
          owner = ""
          for (j = 1; j <= n; j++)
            if ((p == m[j] || index(p, m[j] "/") == 1) && length(m[j]) > length(owner)) owner = m[j]
          if (owner != "" && owner != self) print "  " $1 " imports " p " (module " owner ")"
        }
      }' | sort -u)
  if [ -n "$bad" ]; then
    echo "internal: module $mod imports another module's internal packages:"
    echo "$bad"
    status=1
  fi
done <<<"$mods"
[ "$status" = 0 ] && echo "internal: no module imports another module's internal packages"
exit $status
