#!/usr/bin/env bash
# Packs what the CUDA checks need on a GPU machine that has the CUDA driver
# and toolkit but no LLVM 19 (the lent device machine): the GPU test program,
# libloom, the shared libraries they need that a stock distribution may lack
# (LLVM and its dependencies; glibc and libstdc++ are taken from the target),
# the apps' CUDA drivers and any extra programs named, into one compressed
# archive for scripts/device_check.sh.
#   scripts/device_bundle.sh BUILD OUT.tar.xz [EXTRA_PROGRAM...]
set -euo pipefail
build=$1
archive=$2
shift 2
stage=$(mktemp -d /tmp/loom_bundle.XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/test" "$stage/lib" "$stage/bin"
cp "$build/test/gpu_tests" "$stage/test/"
for p in "$build"/apps/*/*_gpu_app_cuda "$@"; do
  [ -e "$p" ] && cp "$p" "$stage/bin/"
done
# Libraries every target system has (or must have its own of) stay out, and
# so do the CUDA toolkit's (the GPU machine has its own, matching its driver).
system='^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|libcuda|libcudart|libcublas|libcublasLt|libnvrtc)\.'
for binary in "$stage/test/gpu_tests" "$stage"/bin/*; do
  ldd "$binary" | awk '/=> \//{print $1, $3}'
done | sort -u | while read -r name path; do
  if ! [[ $name =~ $system ]]; then cp -L "$path" "$stage/lib/$name"; fi
done
strip --strip-unneeded "$stage"/lib/* "$stage"/test/* "$stage"/bin/* 2> /dev/null || true
tar -C "$stage" -cf - . | xz -T2 -6 > "$archive"
ls -la "$archive"
