#!/usr/bin/env bash
# Walks the newcomer's path: a fresh clone of HEAD in a new temp folder (0700, like a home directory), an
# empty VS Code host cache, then the README's two commands: `npm ci && npm start` (until it prints its URL
# and the page answers, then Ctrl-C, and no code-server may be left running) and `npm ci && npm test`.
# Prints how long each phase took. Usage: scripts/fresh-check.sh [--keep] [--skip-test]
#   --keep       keep the temp folder (clone, host cache, logs) for a look afterwards
#   --skip-test  stop after the `npm start` phase
set -euo pipefail
keep=0; skip_test=0
for a in "$@"; do
  case "$a" in
    --keep) keep=1 ;;
    --skip-test) skip_test=1 ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fresh-check: unknown option: $a (see --help)" >&2; exit 2 ;;
  esac
done
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
[ -z "$(git -C "$repo" status --porcelain --untracked-files=no)" ] ||
  echo "fresh-check: note: uncommitted changes are not part of the check (it clones HEAD)" >&2

root=$(mktemp -d)                 # 0700: the clone lives where only its owner can enter
clone="$root/engram"
export ENGRAM_HOST_CACHE="$root/host-cache"   # empty: the host is built from nothing
cleanup() {
  [ -n "${start_pid:-}" ] && kill -INT -- "-$start_pid" 2>/dev/null || true
  if [ "$keep" = 1 ]; then echo "kept: $root"; else rm -rf "$root"; fi
}
trap cleanup EXIT

t0=$(date +%s); phase_t=$t0
phase() { local now; now=$(date +%s); printf '::: %-28s %4d s\n' "$1" $(( now - phase_t )); phase_t=$now; }

git clone --quiet --no-local "$repo" "$clone"
cd "$clone"
echo "fresh-check: $(git log -1 --format='%h %s') in $clone (mode $(stat -c %a "$root")), host cache $ENGRAM_HOST_CACHE"
phase "clone"

npm ci --no-audit --no-fund >"$root/npm-ci-1.log" 2>&1 || { tail -n 30 "$root/npm-ci-1.log"; exit 1; }
phase "npm ci"

# npm start in its own process group, so Ctrl-C (SIGINT to the group) reaches it as it would in a terminal.
start_log="$root/npm-start.log"
PORT=${PORT:-18080} setsid npm start >"$start_log" 2>&1 &
start_pid=$!
url=""
for _ in $(seq 1 1800); do  # up to 30 min: the first run builds code-server
  url=$(grep -oE 'http://127\.0\.0\.1:[0-9]+/\?folder=[^ ]*' "$start_log" | head -n 1 || true)
  [ -n "$url" ] && break
  kill -0 "$start_pid" 2>/dev/null || { echo "fresh-check: npm start exited early:"; tail -n 40 "$start_log"; exit 1; }
  sleep 1
done
[ -n "$url" ] || { echo "fresh-check: npm start printed no URL"; tail -n 40 "$start_log"; exit 1; }
phase "npm start (to URL)"
code=$(curl -s -o /dev/null -w '%{http_code}' "$url")
[ "$code" = 200 ] || { echo "fresh-check: $url answered HTTP $code"; exit 1; }
echo "fresh-check: $url answered 200"

kill -INT -- "-$start_pid"
for _ in $(seq 1 30); do kill -0 "$start_pid" 2>/dev/null || break; sleep 1; done
if kill -0 "$start_pid" 2>/dev/null; then echo "fresh-check: npm start still running 30 s after Ctrl-C"; exit 1; fi
start_pid=""
left=$(pgrep -f "$ENGRAM_HOST_CACHE/code-server" || true)
[ -z "$left" ] || { echo "fresh-check: code-server left running after Ctrl-C: $left"; exit 1; }
phase "Ctrl-C stops everything"

[ "$skip_test" = 1 ] && { echo "::: total $(( $(date +%s) - t0 )) s (tests skipped)"; exit 0; }

npm ci --no-audit --no-fund >"$root/npm-ci-2.log" 2>&1 || { tail -n 30 "$root/npm-ci-2.log"; exit 1; }
phase "npm ci (again)"
set +e
npm test >"$root/npm-test.log" 2>&1
status=$?
set -e
grep -E '^\s+[0-9]+ (passing|failing|pending)|[0-9]+ passed|[0-9]+ failed' "$root/npm-test.log" || true
[ "$status" = 0 ] || tail -n 60 "$root/npm-test.log"
phase "npm test (exit $status)"
echo "::: total $(( $(date +%s) - t0 )) s"
exit "$status"
