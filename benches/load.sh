#!/usr/bin/env bash
# Load test of the public event pages (issue 8), documented in docs/benchmarks.md.
#
#   bash benches/load.sh sqlite      # or: bash benches/load.sh postgres
#
# Builds a release binary, seeds a 256-player event with 3 of 5 rounds played,
# pairs and publishes round 4, serves it on loopback, and runs wrk (10 s each,
# 2 threads, 32 connections) against /healthz (the ceiling), the standings
# page and the round-4 pairings page, while a background loop submits round-4
# results through the API. SOULSTONE_BIN=path runs that binary instead of
# building one. Needs wrk (apt-get install wrk), curl and python3;
# PostgreSQL on 127.0.0.1:5432 with trust auth for the postgres variant.
set -euo pipefail
cd "$(dirname "$0")/.."

backend="${1:-sqlite}"
port="${LOAD_PORT:-18080}"
duration="${LOAD_DURATION:-10s}"
connections="${LOAD_CONNECTIONS:-32}"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

# SOULSTONE_BIN runs a binary built elsewhere (a before/after pair).
bin="${SOULSTONE_BIN:-}"
if [ -z "$bin" ]; then
    cargo build --release --quiet
    bin="${CARGO_TARGET_DIR:-$PWD/target}/release/soulstone"
fi
work="$(mktemp -d)"
server_pid=""
submitter_pid=""
cleanup() {
    [ -n "$submitter_pid" ] && kill "$submitter_pid" 2>/dev/null || true
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    if [ "$backend" = postgres ]; then
        psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS soulstone_load" >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

case "$backend" in
    sqlite) export DATABASE_URL="$work/load.db" ;;
    postgres)
        psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS soulstone_load" >/dev/null
        psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE soulstone_load" >/dev/null
        export DATABASE_URL="postgres://postgres@127.0.0.1:5432/soulstone_load?sslmode=disable"
        ;;
    *) echo "usage: $0 sqlite|postgres" >&2; exit 2 ;;
esac
export SOULSTONE_DATA_DIR="$work/data"
export SOULSTONE_SECRET="load test secret, not for production use"
export SOULSTONE_BIND="127.0.0.1:$port"
export RUST_LOG=warn

"$bin" migrate >/dev/null
seeded="$("$bin" demo-event --players 256 --rounds 3 --rounds-planned 5)"
event="$(sed -n 's/^created event \([0-9]*\).*/\1/p' <<<"$seeded")"
echo "$seeded"

"$bin" serve >"$work/server.log" 2>&1 &
server_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
    curl -fs "$base/healthz" >/dev/null && break
    sleep 0.1
done

token="$(curl -fs "$base/api/v1/token" -H 'content-type: application/json' \
    -d '{"email":"demo@soulstone.invalid","password":"demo password"}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')"
auth=(-H "authorization: Bearer $token" -H 'content-type: application/json')
curl -fs "${auth[@]}" -d '{}' "$base/api/v1/events/$event/rounds" >/dev/null
curl -fs "${auth[@]}" -d '{}' "$base/api/v1/events/$event/rounds/4/publish" >/dev/null

# Results come in while the pages are under load (the organiser reports them).
python3 - "$base" "$event" "$token" >"$work/submitter.log" 2>&1 <<'EOF' &
import json, sys, time, urllib.request
base, event, token = sys.argv[1:4]
def call(method, path, body=None):
    request = urllib.request.Request(base + "/api/v1" + path, method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"authorization": "Bearer " + token, "content-type": "application/json"})
    with urllib.request.urlopen(request) as response:
        text = response.read()
        return json.loads(text) if text else None
round_ = call("GET", f"/events/{event}/rounds/4")
sent = 0
for table in round_["tables"]:
    if table.get("game") is None or table.get("name_b") is None:
        continue
    call("POST", f"/events/{event}/games/{table['game']}/result",
         {"a_strategy_vp": 3, "a_scheme_vp": 2, "b_strategy_vp": 1, "b_scheme_vp": 1})
    sent += 1
    print("results submitted:", sent, flush=True)
    time.sleep(0.2)
EOF
submitter_pid=$!

run() {
    echo
    echo "== $1 ($backend)"
    wrk -t2 -c"$connections" -d"$duration" --latency "$base$1"
}
run /healthz
run "/events/$event/standings"
run "/events/$event/rounds/4"
kill "$submitter_pid" 2>/dev/null || true
submitter_pid=""
echo
tail -n 1 "$work/submitter.log"
if grep -q -i "error\|panic" "$work/server.log"; then
    echo "server log has errors:" >&2
    grep -i "error\|panic" "$work/server.log" | head >&2
    exit 1
fi
