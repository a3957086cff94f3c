#!/usr/bin/env bash
# check_driver_error.sh REGEX COMMAND ARGS...: COMMAND must fail (nonzero
# exit, no crash) and print a line matching REGEX on stderr.
set -u
regex=$1
shift
stderr=$("$@" 2>&1 >/dev/null)
status=$?
if [ "$status" -eq 0 ]; then
  echo "expected a failure, but '$*' succeeded"
  exit 1
fi
if [ "$status" -ge 128 ]; then
  echo "'$*' crashed (status $status): $stderr"
  exit 1
fi
if ! grep -Eq -- "$regex" <<< "$stderr"; then
  echo "stderr of '$*' does not match: $regex"
  echo "stderr was: $stderr"
  exit 1
fi
echo "ok: $stderr"
