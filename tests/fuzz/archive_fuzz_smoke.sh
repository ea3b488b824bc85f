#!/bin/sh
# Short libFuzzer run of the archive reader: every regression input once, then RUNS mutations of
# them (tests/fuzz/regressions/archive_fuzz holds a case of each corruption and every input
# that once found a bug).
# usage: archive_fuzz_smoke.sh FUZZER WORK_DIR [RUNS]
# For a longer run by hand: FUZZER -max_total_time=600 -timeout=10 WORK_DIR/corpus
set -eu
fuzzer=$1
work=$2
runs=${3:-300}
regressions=$(dirname "$0")/regressions/archive_fuzz

rm -rf "$work"
mkdir -p "$work/corpus"
cp "$regressions"/* "$work/corpus/"
cd "$work"
exec "$fuzzer" -runs="$runs" -seed=1 -timeout=10 -max_len=4096 -print_final_stats=1 corpus
