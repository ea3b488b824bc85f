#!/bin/sh
# Short libFuzzer run of the Stardust block, Chrysalis message and legacy transaction decoders,
# seeded with every fixture block, Chrysalis fixture message and legacy fixture transaction.
# usage: fuzz_smoke.sh FUZZER CODEC_DUMP WORK_DIR [RUNS]
# For a longer run by hand: FUZZER WORK_DIR/corpus -max_total_time=600
set -eu
fuzzer=$1
codec_dump=$2
work=$3
runs=${4:-20000}

rm -rf "$work"
mkdir -p "$work/corpus"
"$codec_dump" write-corpus "$work/corpus"
cd "$work"
exec "$fuzzer" -runs="$runs" -max_len=32768 -seed=1 -print_final_stats=1 corpus
