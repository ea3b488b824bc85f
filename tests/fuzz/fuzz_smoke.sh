#!/bin/sh
# The short run of a fuzz target that ctest runs (NAME_smoke, tests/fuzz/CMakeLists.txt): its seed
# corpus, written afresh by the seed command, and its regression inputs, then more inputs up to
# RUNS in all, from a fixed random seed. FLAGS: further libFuzzer flags, space-separated.
# usage: fuzz_smoke.sh FUZZER WORK_DIR RUNS REGRESSIONS_DIR FLAGS SEED_COMMAND...
# For long runs see run-long.
set -eu
fuzzer=$1
work=$2
runs=$3
regressions=$4
flags=$5
shift 5

rm -rf "$work"
mkdir -p "$work/corpus"
"$@" "$work/corpus"
set -- corpus
if [ -d "$regressions" ]; then
  set -- corpus "$regressions"
fi
cd "$work"
# New inputs go into the first directory only: the regressions stay as they are.
# shellcheck disable=SC2086 # FLAGS is a list
exec "$fuzzer" -runs="$runs" -seed=1 -timeout=60 -print_final_stats=1 $flags "$@"
