#!/usr/bin/env bash
# Launcher of the GPU tests: runs `env "$@"` (VAR=value pairs, then the test
# program and its arguments) and, only when the run failed with PoCL's own
# intermittent compiler start-up failure ("Failed to create kernel compiler
# pass", seen about once in a few thousand cold-cache kernel builds under
# ctest -j2), runs it once more. Every other failure stands as it is.
set -u
log=$(mktemp)
trap 'rm -f "$log"' EXIT
env "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
if [ "$rc" -ne 0 ] && grep -q "Failed to create kernel compiler pass" "$log"; then
  echo "retry_pocl_flake.sh: PoCL failed to set up its kernel compiler (a PoCL flake, not a Loom failure); running the test once more"
  env "$@"
  rc=$?
fi
exit "$rc"
