#!/usr/bin/env bash
# Fresh machine to a tested tree: install, build everything, run every test.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
build="${LOOM_BUILD_DIR:-$root/build}"
ctest --test-dir "$build" --output-on-failure -j "${LOOM_JOBS:-$(nproc)}" "$@"
# The AddressSanitizer + UBSan lane (scripts/asan.sh, its own instrumented
# build in build-asan): the unit, error, correctness and concurrency tests,
# with 4 random schedules per pipeline instead of 40 (with 40 the tests
# alone took 20 minutes). On two cores with a warm ccache it adds about 6.5
# minutes (build 15 s, tests 6 min) to the ~12 above; a cold ccache adds
# half an hour of building. LOOM_ASAN=0 skips it. docs/guide/sanitizers.md.
if [ "${LOOM_ASAN:-1}" = 1 ]; then
  "$root/scripts/asan.sh"
fi
# LOOM_TSAN=1 adds the ThreadSanitizer lane (its own instrumented build of
# libloom: longer than the CI's budget, so off by default).
if [ "${LOOM_TSAN:-0}" = 1 ]; then
  "$root/scripts/tsan.sh"
fi
