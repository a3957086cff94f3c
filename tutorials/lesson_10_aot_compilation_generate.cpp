// Lesson 10, part 1: ahead-of-time compilation.
//
// Instead of running a pipeline with realize() (just-in-time), compile it
// once into a static library and a C header. Another program (part 2,
// lesson_10_aot_compilation_run.cpp) links that library and calls the
// pipeline like any C function, without libloom or LLVM.
//
// Usage: lesson_10_aot_compilation_generate [OUTPUT_DIRECTORY]
// Writes lesson_10_halide.a and lesson_10_halide.h there (default: .).

#include <Loom.h>

#include <cstdio>
#include <string>

int main(int argc, char **argv) {
    std::string dir = argc > 1 ? argv[1] : ".";

    // The algorithm: add a run-time offset to every pixel of an 8-bit image.
    // Nothing here is known until the compiled code is called: the input
    // image is an ImageParam and the offset a Param.
    loom::ImageParam input(loom::UInt(8), 2, "input");
    loom::Param<uint8_t> offset("offset");
    loom::Func brighter("brighter");
    loom::Var x("x"), y("y");
    brighter(x, y) = input(x, y) + offset;

    // The schedule is compiled in: 16-wide vectors along x, rows in parallel.
    brighter.vectorize(x, 16).parallel(y);

    // The arguments of the generated function, in this order; the output
    // buffer comes last. The function is named "brighter" and the library
    // is compiled for the machine we run on (use e.g. Target("x86-64-linux-avx2")
    // or Target("arm-64-linux") to compile for another one).
    brighter.compile_to_static_library(dir + "/lesson_10_halide", {input, offset}, "brighter",
                                       loom::get_host_target());

    std::printf("Wrote %s/lesson_10_halide.a and %s/lesson_10_halide.h\n", dir.c_str(),
                dir.c_str());
    return 0;
}
