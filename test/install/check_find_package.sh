#!/usr/bin/env bash
# check_find_package.sh BUILD SOURCE WORK CUDA: installs the build tree into
# WORK/prefix, then builds and runs a separate project (SOURCE) that finds it
# with find_package(Loom): a JIT program, and a program linking two libraries
# made by add_loom_library that must not depend on libloom or libLLVM. It
# also builds the project's GPU client (its libraries for host-opencl, and
# for host-cuda when CUDA is ON), which the install:gpu_aot_* tests run from
# WORK/build.
set -euo pipefail
build_dir=$1
source_dir=$2
work=$3
cuda=${4:-OFF}
rm -rf "$work"
mkdir -p "$work"
# The consumer also runs a GPU pipeline on OpenCL: kernel caches in scratch.
export POCL_CACHE_DIR="$work/pocl_cache" LOOM_KERNEL_CACHE_DIR="$work/kernel_cache"
cmake --install "$build_dir" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$source_dir" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DLOOM_CONSUMER_CUDA="$cuda" > "$work/configure.log"
if ! cmake --build "$work/build" > "$work/build.log" 2>&1; then
  cat "$work/build.log"
  exit 1
fi
"$work/build/consumer"
# The C-source JIT finds LoomRuntime.h inside the installed libloom.
env -u LOOM_INCLUDE_DIR LOOM_JIT_BACKEND=c "$work/build/consumer"
"$work/build/aot_client"
if ldd "$work/build/aot_client" | grep -E "libloom|libLLVM"; then
  echo "aot_client must not depend on libloom or libLLVM"
  exit 1
fi
echo "aot_client: no libloom, no libLLVM"
