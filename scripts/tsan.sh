#!/usr/bin/env bash
# ThreadSanitizer run of the concurrency tests (test/concurrency): libloom
# and the test program built with -fsanitize=thread in their own folder
# (build-tsan, or LOOM_TSAN_BUILD_DIR), then run a few times. LLVM itself is
# not instrumented. Not part of scripts/test.sh: the instrumented build of
# libloom takes about half an hour on two cores. See docs/guide/threads.md.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${LOOM_TSAN_BUILD_DIR:-$root/build-tsan}"
jobs="${LOOM_JOBS:-$(nproc)}"
runs="${LOOM_TSAN_RUNS:-3}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS="-fsanitize=thread -g1" -DCMAKE_CXX_FLAGS="-fsanitize=thread -g1" \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread \
    -DLOOM_BUILD_TUTORIALS=OFF -DLOOM_BUILD_BENCHMARKS=OFF -DLOOM_BUILD_APPS=OFF
fi
cmake --build "$build" -j "$jobs" --target concurrency_tests
# halt_on_error: the first report fails the run; exitcode 66 tells it apart.
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
for i in $(seq "$runs"); do
  echo "tsan: run $i of $runs"
  "$build/test/concurrency_tests" "$@"
done
echo "tsan: no reports in $runs runs"
