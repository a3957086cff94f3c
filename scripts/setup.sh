#!/usr/bin/env bash
# Installs what Loom needs from Debian's packages (only what is missing) and
# configures + builds the tree in ./build. Sourced by demo.sh and test.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# LOOM_EXTRA_PACKAGES adds packages for optional parts (scripts/bench.sh).
# OpenCL: the headers build the runtime (which loads libOpenCL with dlopen);
# PoCL is the OpenCL device the GPU tests run on, clinfo lists the devices.
packages=(cmake ninja-build g++ ccache pkg-config llvm-19-dev catch2 libpng-dev zlib1g-dev
  opencl-headers ocl-icd-opencl-dev pocl-opencl-icd clinfo
  ${LOOM_EXTRA_PACKAGES:-})
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ccache keys on paths relative to the tree, so a clone in another folder
# (CI's) reuses what an earlier build compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"

build="${LOOM_BUILD_DIR:-$root/build}"
jobs="${LOOM_JOBS:-$(nproc)}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${LOOM_CMAKE_ARGS:-}
fi
cmake --build "$build" -j "$jobs" ${LOOM_BUILD_TARGETS:+--target $LOOM_BUILD_TARGETS}
