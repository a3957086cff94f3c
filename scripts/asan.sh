#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer lane: libloom and the unit,
# error, correctness and concurrency test programs built with
# -fsanitize=address,undefined in their own folder (build-asan, or
# LOOM_ASAN_BUILD_DIR), then run through ctest; any report fails the test
# that made it. LLVM, PoCL and the OpenCL loader are not instrumented, and
# need no suppressions: none of them reports. Run by scripts/test.sh
# (LOOM_ASAN=0 skips it); figures and choices in docs/guide/sanitizers.md.
#
# LOOM_ASAN_TESTS: the ctest -R regex of the entries to run (default: every
# unit, error, correctness and concurrency entry). LOOM_RANDOM_SCHEDULES:
# random schedules per pipeline in the random-schedule tests (default here 4,
# not 40: a schedule takes ~3 s under ASan). Extra arguments go to ctest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${LOOM_ASAN_BUILD_DIR:-$root/build-asan}"
jobs="${LOOM_JOBS:-$(nproc)}"
tests="${LOOM_ASAN_TESTS:-^(unit|error|correctness|concurrency):}"
# Paths relative to the tree in ccache's keys, and (with -g1) the build
# folder left out of them, so a clone in another folder reuses the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR=1
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if [ ! -f "$build/build.ninja" ]; then
  # -O1: quicker to build and to read than -O3; -g1: line numbers in reports.
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS="$san" -DCMAKE_CXX_FLAGS="$san" \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1 -DNDEBUG" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DLOOM_BUILD_TUTORIALS=OFF -DLOOM_BUILD_BENCHMARKS=OFF -DLOOM_BUILD_APPS=OFF
fi
cmake --build "$build" -j "$jobs" --target unit_tests error_tests correctness_tests concurrency_tests
if [ "${LOOM_ASAN_BUILD_ONLY:-0}" = 1 ]; then exit 0; fi

# halt_on_error / -fno-sanitize-recover: the first report ends the test with
# a failure; detect_leaks: LeakSanitizer at exit; print_stacktrace: UBSan
# reports say where they came from.
export ASAN_OPTIONS="halt_on_error=1 detect_leaks=1 ${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1 print_stacktrace=1 ${UBSAN_OPTIONS:-}"
export LOOM_RANDOM_SCHEDULES="${LOOM_RANDOM_SCHEDULES:-4}"
ctest --test-dir "$build" --output-on-failure -j "$jobs" -R "$tests" "$@"
echo "asan: no reports"
