#!/usr/bin/env bash
# A flood of wrong sign-ins (issue 60, item 7), documented in docs/benchmarks.md.
#
#   bash benches/signin_flood.sh            # or: SOULSTONE_BIN=path/to/soulstone bash ...
#
# Serves a release build on loopback (SQLite), with a small event seeded, and
# sends 400 wrong sign-ins through POST /api/v1/token from 40 loopback
# addresses, 10 from each and all at once: each address stays within every
# throttle, so every one of them costs a password check. Meanwhile a loop on
# another address loads /events ten times a second. Prints the server's
# resident memory before, at its peak and after, how the sign-ins were
# answered, and the /events latencies during the flood. Needs curl.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${FLOOD_PORT:-18090}"
addresses="${FLOOD_ADDRESSES:-40}"
per_address="${FLOOD_PER_ADDRESS:-10}"
if [ -z "${SOULSTONE_BIN:-}" ]; then
    cargo build --release --quiet --bin soulstone
    SOULSTONE_BIN="$PWD/target/release/soulstone"
fi
work="$(mktemp -d)"
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

export DATABASE_URL="$work/flood.db"
export SOULSTONE_DATA_DIR="$work/data"
export SOULSTONE_SECRET="flood test secret, not for production use"
export SOULSTONE_BIND="127.0.0.1:$port"
export RUST_LOG=warn
"$SOULSTONE_BIN" migrate >/dev/null
"$SOULSTONE_BIN" demo-event --players 16 --rounds 1 --rounds-planned 3 >/dev/null
"$SOULSTONE_BIN" serve >"$work/server.log" 2>&1 &
server_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
    curl -fs "$base/healthz" >/dev/null && break
    sleep 0.1
done
rss() { awk -v key="$1" '$1 == key":" {print int($2 / 1024)}' "/proc/$server_pid/status"; }
# Warm the pages and the allocator as a running server would be.
for _ in $(seq 1 20); do curl -fs -o /dev/null "$base/events"; done
echo "rss before: $(rss VmRSS) MiB"

latencies="$work/latencies"
(
    while [ ! -e "$work/done" ]; do
        curl -s -o /dev/null --interface 127.0.0.200 -w '%{time_total}\n' "$base/events" >>"$latencies"
        sleep 0.1
    done
) &
watcher=$!

started=$(date +%s.%N)
flood=()
for a in $(seq 10 $((9 + addresses))); do
    for n in $(seq 1 "$per_address"); do
        curl -s -o /dev/null -w '%{http_code}\n' --interface "127.0.0.$a" \
            -H 'Content-Type: application/json' \
            -d "{\"email\":\"nobody-$a-$n@example.org\",\"password\":\"not the password\"}" \
            "$base/api/v1/token" >>"$work/codes" &
        flood+=($!)
    done
done
wait "${flood[@]}" 2>/dev/null || true
ended=$(date +%s.%N)
touch "$work/done"
wait "$watcher" 2>/dev/null || true

echo "flood: $((addresses * per_address)) sign-ins in $(awk -v a="$started" -v b="$ended" 'BEGIN {printf "%.1f", b - a}') s"
echo "answers: $(sort "$work/codes" | uniq -c | tr '\n' ' ')"
echo "rss peak: $(rss VmHWM) MiB, after: $(rss VmRSS) MiB"
echo "threads: $(awk '$1 == "Threads:" {print $2}' "/proc/$server_pid/status")"
sort -n "$latencies" | awk '{a[NR] = $1} END {
    printf "/events during the flood: %d loads, median %.0f ms, p90 %.0f ms, max %.0f ms\n",
        NR, a[int(NR / 2) + 1] * 1000, a[int(NR * 0.9) + 1] * 1000, a[NR] * 1000 }'
