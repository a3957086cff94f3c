#!/usr/bin/env bash
# Runs the GPU test suite through CUDA, on a machine with an NVIDIA GPU, its
# driver (libcuda.so.1) and the CUDA toolkit's NVRTC: first the CUDA
# runtime's own tests (tagged [cuda]) on the real driver, then every GPU
# correctness test with LOOM_GPU_TEST_API=cuda (host-cuda targets; the tests
# of OpenCL itself, tagged [opencl], left out).
#   scripts/gpu_cuda_check.sh [build folder]     (default: ./build)
# The folder must hold a configured build; gpu_tests is built first when
# ninja can (LOOM_GPU_CHECK_BUILD=0 skips that). Kernels are cached in a
# fresh folder, so every program is compiled with NVRTC once. Extra Catch2
# arguments go in LOOM_GPU_CHECK_ARGS (e.g. "-r compact" or "-d yes").
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${1:-$root/build}"
tests="$build/test/gpu_tests"

if [ "${LOOM_GPU_CHECK_BUILD:-1}" != 0 ] && [ -f "$build/build.ninja" ]; then
  nice ninja -C "$build" gpu_tests
fi
if [ ! -x "$tests" ]; then
  echo "gpu_cuda_check: $tests is missing; build the gpu_tests target first" >&2
  exit 2
fi
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader || true
fi

cache=$(mktemp -d /tmp/loom_cuda_check.XXXXXX)
trap 'rm -rf "$cache"' EXIT
export LOOM_KERNEL_CACHE_DIR="$cache" LOOM_GPU_RANDOM_SKIP_KNOWN=1
unset LOOM_CUDA_DRIVER_LIBRARY LOOM_GPU_TEST_API
extra=(${LOOM_GPU_CHECK_ARGS:-})

status=0
echo "== CUDA runtime tests on the driver"
"$tests" "[cuda]" ${extra[@]+"${extra[@]}"} || status=1
echo "== GPU correctness suite through CUDA (LOOM_GPU_TEST_API=cuda)"
LOOM_GPU_TEST_API=cuda "$tests" "~[opencl]~[cuda]" ${extra[@]+"${extra[@]}"} || status=1
if [ $status = 0 ]; then echo "gpu_cuda_check: all passed"; else echo "gpu_cuda_check: FAILURES" >&2; fi
exit $status
