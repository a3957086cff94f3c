#!/usr/bin/env bash
# Benchmarks against Halide 14 and OpenBLAS: installs the base packages
# (setup.sh) plus libhalide14-0-dev and libopenblas-dev (only what is missing),
# configures ./build-bench with LOOM_WITH_HALIDE=ON and LOOM_WITH_OPENBLAS=ON,
# builds the perf programs and runs them. Arguments go to every program (the
# run count). Environment: LOOM_BENCH_DIR (build folder), LOOM_NUM_THREADS
# (default: the core count; Halide and OpenBLAS use the same count),
# LOOM_BENCH_PROGRAMS (default "perf_scheduling perf_reductions perf_gpu perf_apps"; perf_gpu
# runs on the OpenCL device, PoCL here, beside Halide 14's OpenCL; perf_apps runs every
# app's generator on both and writes apps_bench.csv and apps_bench.png beside itself,
# in apps/bench of the build folder; with --auto[=loom,mullapudi,adams] it adds rows for
# Loom's and Halide 14's auto-schedulers, e.g. LOOM_BENCH_PROGRAMS=perf_apps
# scripts/bench.sh 3 --auto=loom,mullapudi, since the other programs take no --auto).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

build="${LOOM_BENCH_DIR:-$root/build-bench}"
programs=(${LOOM_BENCH_PROGRAMS:-perf_scheduling perf_reductions perf_gpu perf_apps})
options="-DLOOM_WITH_HALIDE=ON -DLOOM_WITH_OPENBLAS=ON"
# A build folder configured earlier without the options gets them first.
[ -f "$build/build.ninja" ] && cmake "$build" $options > /dev/null
# setup.sh installs the base and benchmark packages, configures a new folder and builds
# only the perf programs.
LOOM_EXTRA_PACKAGES="libhalide14-0-dev libopenblas-dev" \
  LOOM_BUILD_DIR="$build" LOOM_BUILD_TARGETS="${programs[*]}" \
  LOOM_CMAKE_ARGS="$options ${LOOM_CMAKE_ARGS:-}" "$root/scripts/setup.sh"

threads="${LOOM_NUM_THREADS:-$(nproc)}"
export LOOM_NUM_THREADS="$threads" HL_NUM_THREADS="$threads"
status=0
for p in "${programs[@]}"; do
  echo "== $p (threads: $threads)"
  program="$build/test/performance/$p"
  [ -x "$program" ] || program="$build/apps/bench/$p"
  "$program" "$@" || status=1
done
exit $status
