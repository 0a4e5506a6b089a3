#!/usr/bin/env bash
# Rebuilds the three real change histories of docs/benchmarks.md#real-change-histories from their
# public git repositories, then runs the simulator on each with learned and with oracle rates.
#   scripts/real-histories.sh CLONES OUT
# CLONES holds (or receives) full clones: rust-lang/book, apache/flink-web, python/peps.
set -euo pipefail
CLONES=${1:?usage: scripts/real-histories.sh CLONES OUT}
OUT=${2:?usage: scripts/real-histories.sh CLONES OUT}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "$CLONES" "$OUT"

# name, repository, the commit the figures were measured at
HISTORIES=(
  "rust-book https://github.com/rust-lang/book 917544888a55e4da7109bdba8c88c893c0da70f4"
  "flink-web https://github.com/apache/flink-web aa5b0b18dc0ae74cd3f97bca518fc46124e1927a"
  "peps https://github.com/python/peps ba4deeb7969588d937da609008d05bb83a47b1ab"
)
for h in "${HISTORIES[@]}"; do
  read -r name url commit <<<"$h"
  if [ ! -d "$CLONES/$name" ]; then
    git clone --quiet --bare "$url" "$CLONES/$name"
  fi
  # The history up to the measured commit, whatever the clone's newest is.
  git -C "$CLONES/$name" update-ref refs/heads/measured "$commit"
  git -C "$CLONES/$name" symbolic-ref HEAD refs/heads/measured
done

imp() { "$ROOT/bin/recrawl" workload import --since 2022-01-01 "$@"; }
imp --git "$CLONES/rust-book" --out "$OUT/rust-book" --path-filter 'src/.*\.md' \
  --url-prefix https://doc.rust-lang.org/book/ --replace-suffix .md=.html
imp --git "$CLONES/flink-web" --out "$OUT/flink-web" --path-filter '.*\.(md|html)' \
  --url-prefix https://flink.apache.org/
imp --git "$CLONES/peps" --out "$OUT/peps" --path-filter 'peps/pep-[0-9]+\.(rst|txt)' \
  --url-prefix https://peps.python.org/ --replace-suffix .rst=.html

# Budget: about one crawl per change of the history (its changes over its span, a day), and four
# draws around it (0.9, 0.95, 1.05 and 1.1 times): on one history a fixed schedule's phase against
# the history's dates is luck, so one budget does not order the policies
# (docs/decisions/real-histories.md).
for run in "rust-book 1.2 1654" "flink-web 43 1017" "peps 2.2 1694"; do
  read -r name budget days <<<"$run"
  for draw in 0.9 0.95 1 1.05 1.1; do
    b=$(awk -v b="$budget" -v d="$draw" 'BEGIN { printf "%.4g", b * d }')
    for rates in learned oracle; do
      extra=()
      [ "$rates" = oracle ] && extra=(--oracle-rates)
      "$ROOT/bin/recrawl" simulate --workload "$OUT/$name" --budget "$b" --days "$days" \
        --warmup-days 180 --changes trace "${extra[@]}" \
        --out "$OUT/$name-$rates-x$draw.json" --report "$OUT/$name-$rates-x$draw.html"
    done
  done
done
