#!/usr/bin/env bash
# Fresh machine to a running demo: install, build, run tutorial lesson 2
# (load a PNG, brighten it, save a PNG).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOOM_BUILD_TARGETS=lesson_02_input_image "$root/scripts/setup.sh"
build="${LOOM_BUILD_DIR:-$root/build}"
cd "$build/tutorials"
LOOM_TUTORIAL_DATA="$root/tutorials/images" ./lesson_02_input_image
echo "demo: wrote $build/tutorials/brighter.png"
