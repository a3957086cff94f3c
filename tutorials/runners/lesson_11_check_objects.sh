#!/bin/sh
# Lesson 11's object files as binutils see them (run after the lesson, in
# its working directory): readelf for the ELF objects, objdump for COFF.
# Exits 77 (skipped) when neither tool is installed.
set -u
readelf=$(command -v readelf || command -v llvm-readelf-19 || command -v llvm-readelf || true)
objdump=$(command -v objdump || command -v llvm-objdump-19 || command -v llvm-objdump || true)
if [ -z "$readelf" ] && [ -z "$objdump" ]; then
    echo "neither readelf nor objdump found: skipped"
    exit 77
fi
status=0
check() { # description, command, pattern
    if out=$(sh -c "$2" 2>&1) && printf '%s\n' "$out" | grep -Eq "$3"; then
        echo "$1: correct"
    else
        echo "$1: WRONG"
        printf '%s\n' "$out"
        status=1
    fi
}
if [ -n "$readelf" ]; then
    check "arm-64-linux object (readelf)" "$readelf -h lesson_11_arm_64_linux.o" "AArch64"
    check "arm-64-linux object is ELF64" "$readelf -h lesson_11_arm_64_linux.o" "ELF64"
    check "x86-32-linux object (readelf)" "$readelf -h lesson_11_x86_32_linux.o" "80386"
    check "x86-32-linux object is ELF32" "$readelf -h lesson_11_x86_32_linux.o" "ELF32"
fi
if [ -n "$objdump" ]; then
    check "x86-64-windows object (objdump)" "$objdump -f lesson_11_x86_64_windows.obj" \
        "pe-x86-64|coff-x86-64|COFF-x86-64"
    check "arm-64-linux object (objdump)" "$objdump -f lesson_11_arm_64_linux.o" \
        "aarch64|elf64-little"
fi
exit $status
