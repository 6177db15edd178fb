#!/usr/bin/env bash
# npm run conformance: builds this sample, serves it over Streamable HTTP on 127.0.0.1 and runs every scenario
# of the MCP conformance suites against it (--suite all): 0.1.16 (2025-11-25) and 0.2.0-alpha.12 (2025-11-25
# and 2026-07-28, extensions included). Prints each suite's summary; fails on any failure that
# expected-failures.yaml does not list as unsupported. The suites need Node 22, hence npx -p node@22.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root" && npm run build >/dev/null || exit 1
mkdir -p "$here/node_modules"
[ -e "$here/node_modules/onemodelcontext" ] || ln -s ../../.. "$here/node_modules/onemodelcontext"
"$root/node_modules/.bin/tsc" -p "$here" || exit 1

log="$(mktemp)"
node "$here/dist/main.js" --port 0 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 50); do grep -q 'listening on' "$log" && break; sleep 0.1; done
url="$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$log")"
[ -n "$url" ] || { cat "$log"; exit 1; }
echo "conformance server: $url"

status=0
run() {
  local label="$1"; shift
  local out; out="$(mktemp)"
  (cd /tmp && npx -y -p node@22 -p "$@" --url "$url") >"$out" 2>&1
  local rc=$?
  sed -n '/=== SUMMARY ===/,$p' "$out" | grep -v '^npm warn'  # the summary, the baseline check and the totals
  echo "$label: exit $rc"
  [ $rc -eq 0 ] || status=1
}
# One baseline per suite: a scenario may warn in one and pass in the other, and each suite calls an entry that
# passes stale.
run "0.1.16 --suite all" @modelcontextprotocol/conformance@0.1.16 conformance server --suite all --expected-failures "$here/expected-failures.yaml"
run "0.2.0-alpha.12 --suite all" @modelcontextprotocol/conformance@0.2.0-alpha.12 conformance server --suite all --expected-failures "$here/expected-failures-0.2.yaml"
exit $status
