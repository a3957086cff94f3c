#!/usr/bin/env bash
# Fresh machine to a tested tree: install, build everything, run every test.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
build="${LOOM_BUILD_DIR:-$root/build}"
ctest --test-dir "$build" --output-on-failure -j "${LOOM_JOBS:-$(nproc)}" "$@"
# LOOM_TSAN=1 adds the ThreadSanitizer lane (its own instrumented build of
# libloom: longer than the CI's budget, so off by default).
if [ "${LOOM_TSAN:-0}" = 1 ]; then
  "$root/scripts/tsan.sh"
fi
