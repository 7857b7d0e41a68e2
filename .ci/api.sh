#!/usr/bin/env bash
# The exported API of every library module, recorded two ways under api/ and
# checked against both:
#   api/NAME.export  apidiff's export data (golang.org/x/exp/cmd/apidiff), which
#                    tells compatible from incompatible changes;
#   api/NAME.txt     the same API as text, one declaration a line
#                    (.ci/tools/apitext), so that a diff shows every change.
#
#   bash .ci/api.sh        checks each module against its records: an incompatible
#                          change or a listing that differs from api/NAME.txt fails
#                          (with the diff); compatible changes are listed
#   bash .ci/api.sh -w     writes both records anew (commit them with the change)
#   bash .ci/api.sh -t     writes only the text records
#
# A library module is a published one (.ci/lib.sh) that is not a command
# (cmd/...). Each module is read on its own (GOWORK=off), from its own
# directory, as a user's build would see it. apidiff does not look at internal
# packages; the text record leaves them out too.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source .ci/lib.sh
export PATH="$PATH:$(go env GOPATH)/bin"
apidiff_version=v0.0.0-20261113113407-e3970619a1a4
if ! command -v apidiff >/dev/null 2>&1; then
  go install "golang.org/x/exp/cmd/apidiff@$apidiff_version"
fi

mode=check
case "${1:-}" in
  -w) mode=write ;;
  -t) mode=text ;;
  "") ;;
  *) echo "usage: bash .ci/api.sh [-w | -t]" >&2; exit 2 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/apitext" ./.ci/tools/apitext

# apidiff_run runs apidiff in directory $1 with the other arguments; it prints
# what apidiff says on standard error (the internal packages it skips in one
# line) and fails, with a message, when apidiff itself fails.
apidiff_run() {
  local dir=$1 rc=0
  shift
  (cd "$dir" && GOWORK=off apidiff "$@" >"$tmp/out" 2>"$tmp/err") || rc=$?
  skipped=$(sed -n 's/^Ignoring internal package //p' "$tmp/err" | sort -u | tr '\n' ' ')
  [ -z "$skipped" ] || echo "api: apidiff skips the internal packages $skipped"
  grep -v '^Ignoring internal package ' "$tmp/err" | sed 's/^/apidiff: /' >&2 || true
  if [ "$rc" != 0 ]; then
    cat "$tmp/out"
    echo "api: apidiff $* failed (exit $rc) in $dir: its words are above" >&2
    return 1
  fi
}

status=0
while IFS= read -r dir; do
  published "$dir" || continue
  case "$dir" in cmd | cmd/*) continue ;; esac
  mod=$(modpath "$dir")
  name=${dir//\//_}; [ "$name" = . ] && name=root
  base=$root/api/$name.export text=$root/api/$name.txt
  if ! "$tmp/apitext" "$dir" >"$tmp/listing"; then
    echo "api: apitext could not load $mod (above)"
    status=1
    continue
  fi
  case $mode in
    write | text)
      cp "$tmp/listing" "$text"
      echo "api: wrote api/$name.txt for $mod"
      if [ $mode = write ]; then
        apidiff_run "$dir" -m -w "$base" "$mod" || { status=1; continue; }
        echo "api: wrote api/$name.export for $mod"
      fi
      continue ;;
  esac
  if [ ! -f "$base" ] || [ ! -f "$text" ]; then
    echo "api: $mod has no record api/$name.export and api/$name.txt; write them with: bash .ci/api.sh -w"
    status=1
    continue
  fi
  if ! apidiff_run "$dir" -m "$base" "$mod"; then
    status=1
    continue
  fi
  out=$(cat "$tmp/out")
  if grep -q '^Incompatible changes:' <<<"$out"; then
    echo "api: $mod changed incompatibly against api/$name.export:"
    echo "$out"
    status=1
  elif [ -n "$out" ]; then
    echo "api: $mod: compatible changes (record them with bash .ci/api.sh -w):"
    echo "$out"
  fi
  if ! diff -u --label "api/$name.txt" --label "$mod now" "$text" "$tmp/listing"; then
    echo "api: $mod's API differs from api/$name.txt (the diff above); record it with bash .ci/api.sh -w"
    status=1
  elif [ -z "$out" ]; then
    echo "api: $mod: unchanged"
  fi
done < <(workmods)
if [ "$status" != 0 ]; then
  echo "api: a change to the exported API needs its records written anew in the same commit"
  echo "     (bash .ci/api.sh -w), and, when it is incompatible, a line in CHANGELOG.md saying what changed and why."
fi
exit $status
