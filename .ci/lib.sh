# Shared by release.sh, rehearse.sh and the CI checks: the modules of go.work
# and what their go.mod files say. Source it from the repository root.

# workmods prints the directory of every module go.work lists, one a line,
# without the leading ./ ("." for the root).
workmods() {
  go work edit -json | awk -F'"' '/"DiskPath"/{d=$4; sub(/^\.\//, "", d); print d}'
}

# published reports whether the module in directory $1 is published (tagged at
# each release): every module of go.work but the examples, the benchmark
# comparisons and CI's own tools.
published() {
  case "$1" in examples | examples/* | bench | bench/* | .ci | .ci/*) return 1 ;; esac
  return 0
}

# modpath prints the module path of the module in directory $1.
modpath() {
  (cd "$1" && go mod edit -json) | awk -F'"' '/^\t"Module"/{m=1} m && /"Path"/{print $4; exit}'
}

# requires prints the path of every module the go.mod in directory $1 requires.
requires() {
  (cd "$1" && go mod edit -json) | awk -F'"' '/^\t"/{sec=$2} sec=="Require" && /^\t\t\t"Path"/{print $4}'
}

# replaces prints each replace directive of the go.mod in directory $1 as
# "OLD[@VERSION] NEW", one a line.
replaces() {
  (cd "$1" && go mod edit -json) | awk -F'"' '
    /^\t"/ { sec = $2 }
    sec == "Replace" && /^\t\t\t"/ { side = $2 }
    sec == "Replace" && /^\t\t\t\t"Path"/ { p[side] = $4 }
    sec == "Replace" && /^\t\t\t\t"Version"/ { v[side] = $4 }
    sec == "Replace" && /^\t\t}/ {
      print p["Old"] (v["Old"] != "" ? "@" v["Old"] : "") " " p["New"]
      delete p; delete v
    }'
}

# releasetag prints the tag of the module in directory $1 at version $2: the
# version for the root, DIR/VERSION for a nested module (Go's convention).
releasetag() {
  if [ "$1" = . ]; then echo "$2"; else echo "$1/$2"; fi
}

# purge removes the modules under path $2 (all their versions) from the module
# cache $1, so that a cache kept between runs cannot serve a version made anew.
purge() {
  local cache=$1 path=$2
  [ -d "$cache" ] || return 0
  chmod -R u+w "$cache/$path" "$cache/$path@"* "$cache/cache/download/$path" 2>/dev/null || true
  rm -rf "$cache/$path" "$cache/$path@"* "$cache/cache/download/$path"
}
