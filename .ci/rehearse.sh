#!/usr/bin/env bash
# Rehearses a release as a user would meet it, without pushing anything:
#
#   bash .ci/rehearse.sh [VERSION]      (default v0.1.0, or $REHEARSE_VERSION)
#
# 1. clones the repository's HEAD into a scratch directory and runs
#    .ci/release.sh VERSION there;
# 2. writes a file-based module proxy (GOPROXY=file:///...) from the tags, what
#    the public proxy will serve once they are pushed (.ci/tools/modproxy);
# 3. loads every published module of the release commit on its own (GOWORK=off),
#    its go.sum alone, from that proxy;
# 4. in a consumer module outside the repository, with GOWORK=off, a module
#    cache without mcperr's modules and the mcperr modules from that proxy only (others from the
#    local cache or the public proxy), builds the README's quick start (a go-sdk
#    server on gosdk), the mcp-go server of mcpgo's package doc and a limiter on
#    redisstore;
# 5. go install github.com/mcperr/mcperr/cmd/mcperr@VERSION, and runs mcperr -h.
#
# A failure names its step. Only committed work is rehearsed (the clone is of HEAD).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source .ci/lib.sh
version=${1:-${REHEARSE_VERSION:-v0.1.0}}
start=$SECONDS

stepname=""
stepstart=$SECONDS
step() {
  [ -z "$stepname" ] || printf -- '   (%d s)\n' $((SECONDS - stepstart))
  stepname=$* stepstart=$SECONDS
  printf -- '-- rehearse: %s\n' "$*"
}
quiet() { grep -v '^go: downloading' >&2 || true; }

[ -z "$(git status --porcelain)" ] || echo "rehearse: the tree has uncommitted changes; only HEAD ($(git rev-parse --short HEAD)) is rehearsed"

scratch=$(mktemp -d)
cleanup() { chmod -R u+w "$scratch" 2>/dev/null || true; rm -rf "$scratch"; }
trap 'rc=$?; cleanup; [ $rc = 0 ] || echo "rehearse: FAILED at step: $stepname (exit $rc)" >&2; exit $rc' EXIT
clone=$scratch/clone proxy=$scratch/proxy

# A new module cache for each run (the modules from elsewhere come from this
# machine's module cache through GOPROXY, so nothing is downloaded twice). A
# cache kept between runs once held an mcperr module of an earlier rehearsal
# that purging did not clear; REHEARSE_MODCACHE=DIR still keeps one, under a
# lock that keeps two rehearsals apart.
modcache=${REHEARSE_MODCACHE:-scratch}
if [ "$modcache" = scratch ] || ! command -v flock >/dev/null 2>&1; then
  modcache=$scratch/modcache
else
  mkdir -p "$modcache"
  exec 9>"$modcache.lock"
  flock 9
fi
rootpath=$(modpath .)

step "clone HEAD and run release.sh $version in it"
git clone -q "$root" "$clone"
git -C "$clone" config user.name "mcperr rehearsal"
git -C "$clone" config user.email "rehearsal@mcperr.invalid"
(cd "$clone" && RELEASE_MODCACHE=$modcache bash .ci/release.sh "$version") 2> >(quiet)

cd "$clone"
pub=()
while IFS= read -r d; do published "$d" && pub+=("$d"); done < <(workmods)

step "a file-based module proxy from the tags"
go build -o "$scratch/modproxy" ./.ci/tools/modproxy
"$scratch/modproxy" -o "$proxy" -v "$version" "${pub[@]}"

# A user's setting: no workspace, the mcperr modules from the proxy above
# only (their sums are in no checksum database yet; the cache holds none of
# them), the others from the local cache or the public proxy. -trimpath lets
# the build cache serve the next rehearsal even when its module cache is at
# another path.
localcache=$(go env GOMODCACHE) goproxy=$(go env GOPROXY)
purge "$modcache" "$rootpath"
export GOWORK=off GOFLAGS="-modcacherw -trimpath" GOMODCACHE=$modcache GOBIN=$scratch/bin
export GOPROXY="file://$proxy,file://$localcache/cache/download,$goproxy"
export GONOSUMDB=$rootpath GONOSUMCHECK=

step "each published module of the release commit loads on its own (GOWORK=off, its own go.sum)"
git -c advice.detachedHead=false checkout -q "$(releasetag . "$version")"
for d in "${pub[@]}"; do
  if ! (cd "$d" && go list -deps -test ./... >/dev/null 2> >(quiet)); then
    stepname="$stepname: $d"; exit 1
  fi
done

consumer=$scratch/consumer
mkdir -p "$consumer/quickstart" "$consumer/mcpgoserver" "$consumer/redislimit"
cd "$consumer"
step "a consumer module outside the repository requires gosdk, mcpgo and redisstore at $version"
go mod init example.com/consumer >/dev/null 2>&1
go get "$rootpath/gosdk@$version" "$rootpath/mcpgo@$version" "$rootpath/redisstore@$version" 2> >(quiet)

step "the README's quick start (a go-sdk server on gosdk) builds"
awk '/^## Quick start/{q=1} q && /^```go$/{c=1; next} c && /^```$/{exit} c' "$clone/README.md" >quickstart/main.go
grep -q '^package main' quickstart/main.go || { echo "no Go block under '## Quick start' in README.md"; exit 1; }

step "the mcp-go server of mcpgo's package doc builds"
go doc "$rootpath/mcpgo" | awk '/^    package main$/{c=1} c && /^[^ \t]/ && !/^$/{exit} c' | sed 's/^    //' >mcpgoserver/main.go
grep -q '^package main' mcpgoserver/main.go || { echo "no program in mcpgo's package doc"; exit 1; }

step "a limiter kept in Redis (redisstore) builds"
cat >redislimit/main.go <<'EOF'
// A limiter whose limits every replica shares, kept in Redis.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/mcperr/mcperr/ratelimit"
	"github.com/mcperr/mcperr/redisstore"
)

func main() {
	ctx := context.Background()
	store, err := redisstore.New(ctx, os.Getenv("REDIS_URL"), redisstore.Options{Prefix: "consumer:"})
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	limiter := &ratelimit.Limiter{Rate: 10, Burst: 20, Store: store}
	d, err := limiter.Check(ctx, "client-1", time.Now())
	fmt.Println(d, err)
}
EOF

step "the consumer module builds (go mod tidy, go vet, go build)"
go mod tidy 2> >(quiet)
go vet ./...
go build -o "$scratch/bin/" ./...

step "go install $rootpath/cmd/mcperr@$version, then mcperr -h"
cd "$scratch"
go install "$rootpath/cmd/mcperr@$version" 2> >(quiet)
"$GOBIN/mcperr" -h >"$scratch/usage"
grep -q '^usage:' "$scratch/usage" || { cat "$scratch/usage"; echo "mcperr -h did not print its usage"; exit 1; }

step done
stepname=""
echo "rehearse: $version released, served and consumed in $((SECONDS - start)) s"
