// halide_gpu_generate: writes perf_gpu's GPU pipelines through Halide 14's
// AOT path, for perf_gpu to run beside Loom's (LOOM_WITH_HALIDE only).
//
// Halide 14's JIT cannot be used there: with libHalide's LLVM 14 loaded,
// PoCL's clang 15 reaches LLVM 14's VerifierPass (same symbol names) while
// building a kernel, and segfaults. This program is the only one that links
// libHalide; it runs at build time and writes, into the folder argv[1]:
//  - halide_gpu_blur_shared.{a,h}, halide_gpu_blur_inline.{a,h} and
//    halide_gpu_matmul.{a,h}: one pipeline each, compiled for host-opencl
//    with no_runtime;
//  - halide_gpu_runtime.a: the one copy of Halide's runtime (host-opencl)
//    that the three share.
// That is Halide's way to put several pipelines in one program: otherwise
// each library carries a whole runtime of weak symbols, of which the linker
// keeps whichever copy it meets first. argv[2] is the matmul size (its
// reduction extent is a constant, as in Loom's pipeline).
//
// The algorithms and schedules are perf_gpu's BlurGPU and MatMulGPU, word
// for word in Halide's API.

#include <Halide.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <string>

namespace {

using namespace Halide;

// perf_gpu's BlurGPU: 32x8 tiles of blur_y, one block each and a thread per
// pixel; blur_x staged per block in shared memory, or inlined.
Func blur(ImageParam input, bool shared) {
    Func blur_x("blur_x"), blur_y("blur_y");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    blur_x(x, y) = (input(x, y) + input(x + 1, y) + input(x + 2, y)) / 3;
    blur_y(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
    blur_y.gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
    if (shared) blur_x.compute_at(blur_y, xo).gpu_threads(x, y);
    return blur_y;
}

// perf_gpu's MatMulGPU: 16x16 output tiles, one block each; the tile's
// product accumulates in shared memory over steps of 16 along k, with the
// 16x16 slices of A and B staged in shared memory at each step.
Func matmul(ImageParam A, ImageParam B, int n) {
    const int t = 16;
    Func a_tile("a_tile"), b_tile("b_tile"), prod("prod"), out("out");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    RVar ko("ko"), ki("ki");
    RDom k(0, n);
    a_tile(x, y) = A(x, y);
    b_tile(x, y) = B(x, y);
    prod(x, y) = 0.0f;
    prod(x, y) += a_tile(k, y) * b_tile(x, k);
    out(x, y) = prod(x, y);

    out.gpu_tile(x, y, xo, yo, xi, yi, t, t);
    prod.compute_at(out, xo).gpu_threads(x, y);
    prod.update().split(k, ko, ki, t).reorder(ki, x, y, ko).gpu_threads(x, y);
    a_tile.compute_at(prod, ko).gpu_threads(x, y);
    b_tile.compute_at(prod, ko).gpu_threads(x, y);
    return out;
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s OUTPUT_DIR MATMUL_SIZE\n", argv[0]);
        return 1;
    }
    const std::string dir = argv[1];
    const int n = std::atoi(argv[2]);
    try {
        const Target host_opencl = get_host_target().with_feature(Target::OpenCL);
        const Target pipeline_target = host_opencl.with_feature(Target::NoRuntime);

        ImageParam blur_in(UInt(16), 2, "input");
        blur(blur_in, true)
            .compile_to_static_library(dir + "/halide_gpu_blur_shared", {blur_in},
                                       "halide_gpu_blur_shared", pipeline_target);
        blur(blur_in, false)
            .compile_to_static_library(dir + "/halide_gpu_blur_inline", {blur_in},
                                       "halide_gpu_blur_inline", pipeline_target);

        ImageParam A(Float(32), 2, "mm_a"), B(Float(32), 2, "mm_b");
        matmul(A, B, n).compile_to_static_library(dir + "/halide_gpu_matmul", {A, B},
                                                  "halide_gpu_matmul", pipeline_target);

        const std::map<OutputFileType, std::string> runtime_files = {
            {OutputFileType::static_library, dir + "/halide_gpu_runtime.a"}};
        compile_standalone_runtime(runtime_files, host_opencl);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "halide_gpu_generate: Halide 14 failed: %s\n", e.what());
        return 1;
    }
    return 0;
}
