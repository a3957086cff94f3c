#!/usr/bin/env bash
# Runs on a GPU machine (the lent device machine) from a bundle made by
# scripts/device_bundle.sh: prints the machine, runs the CUDA runtime tests
# and the GPU correctness suite through CUDA (scripts/gpu_cuda_check.sh, one
# process per test case, LOOM_GPU_CHECK_JOBS at a time), the apps' CUDA
# drivers, and then each benchmark command given in LOOM_DEVICE_BENCH
# (semicolon-separated, run from the unpacked bundle's bin/).
#   scripts/device_check.sh BUNDLE.tar.xz [LOG_FOLDER]
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bundle=$1
logs="${2:-/tmp/loom_device_logs}"
mkdir -p "$logs"
unpacked=$(mktemp -d /tmp/loom_device.XXXXXX)
tar -C "$unpacked" -xJf "$bundle"
# The bundle's libraries, then the toolkit's (cuBLAS for perf_cuda).
export LD_LIBRARY_PATH="$unpacked/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "== machine"
grep -m1 'model name' /proc/cpuinfo
nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader
ls /usr/local/cuda/lib64/libnvrtc.so* 2> /dev/null | head -3
missing=$(ldd "$unpacked/test/gpu_tests" | grep 'not found' || true)
[ -n "$missing" ] && echo "missing libraries: $missing"

status=0
echo "== apps (CUDA AOT libraries)"
for app in "$unpacked"/bin/*_gpu_app_cuda; do
  [ -e "$app" ] || continue
  "$app" || status=1
  "$app" 4096 2048 || status=1
done
if [ -n "${LOOM_DEVICE_BENCH:-}" ]; then
  IFS=';' read -ra benches <<< "$LOOM_DEVICE_BENCH"
  for b in "${benches[@]}"; do
    echo "== bench: $b"
    (cd "$unpacked/bin" && eval "$b") 2>&1 | tee -a "$logs/bench.log" || status=1
  done
fi
echo "== tests"
LOOM_GPU_CHECK_BUILD=0 LOOM_GPU_CHECK_JOBS="${LOOM_GPU_CHECK_JOBS:-12}" \
  LOOM_GPU_CHECK_LOGS="$logs" "$root/scripts/gpu_cuda_check.sh" "$unpacked" || status=1
echo "device_check: status $status"
exit $status
