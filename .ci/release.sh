#!/usr/bin/env bash
# Makes a release of every published module at one version, on a clean clone,
# and pushes nothing:
#
#   bash .ci/release.sh v0.1.0
#
# Published modules: every module go.work lists but those under examples/,
# bench/ and .ci/ (cmd/mcperr is published: go install ...@VERSION must work).
#
# 1. The release commit: in each published go.mod, every other mcperr module it
#    requires is required at VERSION and every replace directive pointing into
#    the repository is gone; each go.sum holds the sums of those modules at
#    VERSION (go mod tidy, run in dependency order, each module read from a
#    file-based proxy of the ones already done, made from git's archive as the
#    go command makes a module zip).
# 2. The tags on it: VERSION for the root module, DIR/VERSION for the module in
#    DIR (gosdk/v0.1.0, cmd/mcperr/v0.1.0), annotated.
# 3. The development commit after it: the replace directives and go.sum files of
#    before, the requirements left at VERSION, so that every module builds on
#    its own (GOWORK=off) from the tree again, as CI checks.
#
# Then push the branch and the tags together (the script prints the command).
# CONTRIBUTING.md says why the replace directives come back after the tag.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source .ci/lib.sh

fail() { echo "release: $*" >&2; exit 1; }

version=${1:-}
[[ "$version" =~ ^v[01]\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]] ||
  fail "usage: bash .ci/release.sh vMAJOR.MINOR.PATCH (v0 or v1: a v2 needs /v2 module paths), got '${1:-}'"

[ -z "$(git status --porcelain)" ] || { git status --short >&2; fail "the tree is not clean (above): release from a clean clone"; }

rootpath=$(modpath .)
pub=()
while IFS= read -r d; do
  published "$d" || continue
  p=$(modpath "$d")
  if [ "$d" = . ]; then want=$rootpath; else want=$rootpath/$d; fi
  [ "$p" = "$want" ] || fail "$d holds module $p, not $want: the tag $(releasetag "$d" "$version") would not name it"
  t=$(releasetag "$d" "$version")
  ! git rev-parse -q --verify "refs/tags/$t" >/dev/null || fail "the tag $t exists already"
  pub+=("$d")
done < <(workmods)
[[ " ${pub[*]} " == *" . "* ]] || fail "go.work does not list the root module"
echo "release: $version of ${#pub[@]} modules: ${pub[*]}"
for d in "${pub[@]}"; do
  (cd "$d" && GOWORK=off go mod tidy -diff >/dev/null 2>&1) || {
    (cd "$d" && GOWORK=off go mod tidy -diff) >&2 || true
    fail "$d is not tidy (the diff above): run go mod tidy in it with GOWORK=off, and commit"
  }
done

# dirof prints the directory of the published module with path $1, if any.
dirof() {
  for d in "${pub[@]}"; do
    if [ "$1" = "$rootpath" ] && [ "$d" = . ]; then echo .; return; fi
    [ "$1" = "$rootpath/$d" ] && { echo "$d"; return; }
  done
  return 0
}

# On a failure before the tags, the tree goes back to where it was (it was
# clean); after them, the tags stay and the message says so.
start=$(git rev-parse HEAD) stage=edit
scratch=$(mktemp -d)
finish() {
  local rc=$?
  chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"
  [ "$rc" = 0 ] && return
  case $stage in
    edit) git reset -q --hard "$start"; echo "release: failed; nothing is made, the tree is back at $(git rev-parse --short "$start")" >&2 ;;
    tagged) echo "release: failed after the release commit and its tags were made (git tag -l '*$version'); the development commit is not made" >&2 ;;
  esac
  exit "$rc"
}
trap finish EXIT
go build -o "$scratch/modproxy" ./.ci/tools/modproxy

# 1. Requirements at the version, no replace into the repository.
declare -A deps=() dropped=()
for d in "${pub[@]}"; do
  deps[$d]=""
  while IFS= read -r p; do
    case "$p" in "$rootpath" | "$rootpath"/*) ;; *) continue ;; esac
    dd=$(dirof "$p")
    [ -n "$dd" ] || fail "$d requires $p, which is not a published module of go.work"
    (cd "$d" && go mod edit -require="$p@$version")
    deps[$d]+=" $dd"
  done < <(requires "$d")
  while read -r old new; do
    case "$new" in
      ./* | ../* | /*)
        target=$(cd "$d" && realpath -m "$new")
        case "$target" in "$root" | "$root"/*)
          (cd "$d" && go mod edit -dropreplace="$old")
          dropped[$d]=1 ;;
        esac ;;
    esac
  done < <(replaces "$d")
done

# Each module's go.sum, in dependency order: a module is tidied once every
# mcperr module it requires is in the proxy, and joins the proxy then. The
# module cache is a scratch one (or $RELEASE_MODCACHE, emptied of mcperr's
# modules first), so that no mcperr module at this version outlives the run;
# modules from elsewhere come from the local cache or the public proxy.
localcache=$(go env GOMODCACHE) goproxy=$(go env GOPROXY)
modcache=${RELEASE_MODCACHE:-$scratch/modcache}
purge "$modcache" "$rootpath"
export GOWORK=off GOFLAGS=-modcacherw GOMODCACHE="$modcache"
export GOPROXY="file://$scratch/proxy,file://$localcache/cache/download,$goproxy"
export GONOSUMDB="$rootpath${GONOSUMDB:+,$GONOSUMDB}"
done_=" "
left=("${pub[@]}")
while [ ${#left[@]} -gt 0 ]; do
  next=()
  progress=false
  for d in "${left[@]}"; do
    ready=true
    for dd in ${deps[$d]}; do [[ "$done_" == *" $dd "* ]] || ready=false; done
    if ! $ready; then next+=("$d"); continue; fi
    (cd "$d" && go mod tidy) || fail "go mod tidy in $d failed (above)"
    git add -- "$d/go.mod" "$d/go.sum"
    "$scratch/modproxy" -o "$scratch/proxy" -v "$version" -rev "$(git write-tree)" "$d" >/dev/null
    done_+="$d "
    progress=true
  done
  $progress || fail "the published modules require each other in a cycle: ${next[*]}"
  left=("${next[@]}")
done
unset GOWORK GOFLAGS GOMODCACHE GOPROXY GONOSUMDB

for d in "${pub[@]}"; do
  if replaces "$d" | awk '$2 ~ /^(\.|\/)/ {bad=1} END {exit !bad}'; then
    fail "$d/go.mod still has a replace directive to a directory"
  fi
done

git add -A
git commit -q -m "release $version: every published module requires the others at $version, without replace directives" \
  -m "Made by .ci/release.sh $version; the tags: $(for d in "${pub[@]}"; do printf '%s ' "$(releasetag "$d" "$version")"; done)"
release=$(git rev-parse HEAD)
stage=tagged
tags=()
for d in "${pub[@]}"; do
  t=$(releasetag "$d" "$version")
  git tag -a -m "$(modpath "$d") $version" "$t" "$release"
  tags+=("$t")
done

# 3. The development commit: the replace directives back, the requirements at
# the version just made.
for d in "${pub[@]}"; do
  [ -n "${dropped[$d]:-}" ] || continue
  git checkout -q "$release~1" -- "$d/go.mod"
  if git cat-file -e "$release~1:$d/go.sum" 2>/dev/null; then git checkout -q "$release~1" -- "$d/go.sum"; fi
  for dd in ${deps[$d]}; do
    p=$(modpath "$dd")
    (cd "$d" && go mod edit -require="$p@$version")
  done
done
for d in "${pub[@]}"; do
  (cd "$d" && GOWORK=off go mod tidy -diff >/dev/null) || {
    (cd "$d" && GOWORK=off go mod tidy -diff) >&2 || true
    fail "$d: go.mod/go.sum after the release are not tidy (the diff above)"
  }
done
git add -A
if git diff --cached --quiet; then
  echo "release: no replace directive to restore"
else
  git commit -q -m "after $version: the replace directives for development again, the requirements at $version"
fi

stage=done
echo "release: made $version at $(git rev-parse --short "$release") (tags: ${tags[*]}); HEAD $(git rev-parse --short HEAD)"
echo "release: nothing is pushed; check, then push the branch and the tags at once:"
echo "  git push --atomic origin HEAD ${tags[*]}"
