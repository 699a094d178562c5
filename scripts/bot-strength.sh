#!/usr/bin/env bash
# The practice levels against each other (issue 53): writes SETUPS encounter
# setups per edition (the CLI's logs of quick random games, seeds 1..SETUPS)
# and plays each twice with the seats swapped, normal against easy and hard
# against normal. Prints wins, VP from the strategy and the schemes, and the
# time per decision of each level on one core. Figures: docs/benchmarks.md.
#
#   SETUPS=100 HARD_SETUPS=20 scripts/bot-strength.sh
set -euo pipefail
cd "$(dirname "$0")/.."
setups=${SETUPS:-20}
hard_setups=${HARD_SETUPS:-6}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet --bin soulstone
target=${CARGO_TARGET_DIR:-target}
for edition in m4e m3e; do
  mkdir -p "$work/$edition"
  crews=(content/$edition/crews/*.txt)
  n=${#crews[@]}
  for seed in $(seq 1 "$setups"); do
    "$target/release/soulstone" game play --crew "${crews[$((seed % n))]}" \
      --crew "${crews[$(((seed / n + seed + 1) % n))]}" --seed "$seed" \
      --log "$work/$edition/$seed.json" > /dev/null
  done
done
for edition in m4e m3e; do
  logs=()
  for seed in $(seq 1 "$setups"); do logs+=("$work/$edition/$seed.json"); done
  echo "== $edition: normal against easy"
  cargo bench --quiet --bench search_bot -- normal easy "${logs[@]}" | tail -3
  echo "== $edition: hard against normal"
  cargo bench --quiet --bench search_bot -- hard normal "${logs[@]:0:$hard_setups}" | tail -3
done
