#!/usr/bin/env bash
# check_gpu_aot.sh BUILD CHECK [ARGS]: checks of the consumer's GPU client
# (BUILD is the consumer's build folder, made by install:find_package).
#   run MODE           runs the client in MODE (see gpu_aot_client.cpp)
#   one_context        two GPU libraries in one program create one OpenCL context
#   no_device          no OpenCL platform at all: an error code, no abort
#   dependencies       the client links no libloom, LLVM or GPU driver
#   device_source CUDA the device_source outputs hold the kernels' source
set -u
build=$1
check=$2
client=$build/gpu_aot_client
case $check in
run)
  exec "$client" "$3"
  ;;
one_context)
  # LOOM_DEBUG=1 names the device each time the runtime creates its context.
  log=$(LOOM_DEBUG=1 "$client" two_libraries 2>&1) || { echo "$log"; exit 1; }
  contexts=$(grep -c '^Loom: OpenCL device' <<< "$log")
  if [ "$contexts" -ne 1 ]; then
    echo "$log"
    echo "FAILED: $contexts OpenCL contexts created, expected 1"
    exit 1
  fi
  echo "two_libraries: ok, one context"
  ;;
no_device)
  # An ICD loader that finds no vendor files sees no platform.
  empty=$(mktemp -d)
  trap 'rm -rf "$empty"' EXIT
  OCL_ICD_VENDORS=$empty "$client" no_device
  ;;
dependencies)
  deps=$(ldd "$client") || exit 1
  echo "$deps"
  if grep -E 'libloom|libLLVM|libOpenCL|libcuda|libnvrtc' <<< "$deps"; then
    echo "FAILED: $client links libloom, LLVM or a GPU driver (drivers are loaded with dlopen)"
    exit 1
  fi
  ;;
device_source)
  with_cuda=$3
  grep -q '__kernel' "$build/gpu_blur.loom/gpu_blur.cl" || { echo "no OpenCL kernel in gpu_blur.cl"; exit 1; }
  if [ "$with_cuda" = ON ]; then
    grep -q '__global__' "$build/gpu_scale_cuda.loom/gpu_scale_cuda.cu" || { echo "no CUDA kernel in gpu_scale_cuda.cu"; exit 1; }
  fi
  echo "device_source: ok"
  ;;
*)
  echo "unknown check '$check'"
  exit 2
  ;;
esac
