#!/usr/bin/env bash
# The exported API of every library module, recorded and checked with apidiff
# (golang.org/x/exp/cmd/apidiff).
#
#   bash .ci/api.sh        checks each module against its baseline under api/:
#                          any incompatible change fails, compatible ones are listed
#   bash .ci/api.sh -w     writes the baselines anew (commit them with the change)
#
# A library module is one go.work lists outside examples/, bench/ and cmd/
# (those hold commands and demos, which no one imports). Each module is read on
# its own (GOWORK=off), from its own directory, as a user's build would see it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export PATH="$PATH:$(go env GOPATH)/bin"
apidiff_version=v0.0.0-20261113113407-e3970619a1a4
if ! command -v apidiff >/dev/null 2>&1; then
  go install "golang.org/x/exp/cmd/apidiff@$apidiff_version"
fi

write=false
[ "${1:-}" = "-w" ] && write=true

status=0
while IFS= read -r dir; do
  case "$dir" in ./examples* | ./bench* | ./cmd*) continue ;; esac
  mod=$(cd "$dir" && GOWORK=off go list -m)
  name=${dir#./}; name=${name:-root}; [ "$name" = . ] && name=root
  base="$root/api/${name//\//_}.export"
  if $write; then
    (cd "$dir" && GOWORK=off apidiff -m -w "$base" "$mod" 2>/dev/null)
    echo "api: wrote $base for $mod"
    continue
  fi
  if [ ! -f "$base" ]; then
    echo "api: $mod has no baseline $base; write one with: bash .ci/api.sh -w"
    status=1
    continue
  fi
  out=$(cd "$dir" && GOWORK=off apidiff -m "$base" "$mod" 2>/dev/null)
  if grep -q '^Incompatible changes:' <<<"$out"; then
    echo "api: $mod changed incompatibly against api/$(basename "$base"):"
    echo "$out"
    status=1
  elif [ -n "$out" ]; then
    echo "api: $mod: compatible changes (record them with bash .ci/api.sh -w):"
    echo "$out"
  else
    echo "api: $mod: unchanged"
  fi
done < <(go work edit -json | awk -F'"' '/"DiskPath"/{print $4}')
if [ "$status" != 0 ]; then
  echo "api: an incompatible change to the exported API needs its baseline written anew in the same commit"
  echo "     (bash .ci/api.sh -w), and a line in CHANGELOG.md saying what changed and why."
fi
exit $status
