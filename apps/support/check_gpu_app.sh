#!/bin/sh
# Runs an app's GPU driver for ctest: check_gpu_app.sh opencl|cuda DRIVER [ARGS...]
# Passes when the driver's reference check passes. For cuda it also passes
# when there is no CUDA driver on the machine, provided the driver failed
# cleanly: exit code 3 (loom_apps::kNoDriverExit) and the runtime's message
# "no CUDA driver found". Anything else (a crash, another error, a mismatch)
# fails.
api=$1
shift
output=$("$@" 2>&1)
rc=$?
printf '%s\n' "$output"
if [ "$rc" -eq 0 ]; then
    exit 0
fi
if [ "$api" = cuda ] && [ "$rc" -eq 3 ] &&
    printf '%s' "$output" | grep -q "no CUDA driver found"; then
    echo "check_gpu_app: no CUDA driver here; the library failed cleanly, as it must"
    exit 0
fi
echo "check_gpu_app: $1 exited with $rc"
exit 1
