#!/bin/sh
# Fails if the program given as $1 depends on libloom or libLLVM: generated
# code must need only Loom::Runtime and the C/C++ standard libraries.
deps=$(ldd "$1") || exit 1
echo "$deps"
if echo "$deps" | grep -E 'libloom|libLLVM'; then
    echo "FAILED: $1 depends on libloom or LLVM"
    exit 1
fi
exit 0
