// The CUDA C printer (codegen/cuda) on whole pipelines, printed with
// Func::device_source for host-cuda targets: launch bounds, restrict,
// shared memory, atomics and vector accesses in the text; every printed
// program compiles with NVRTC for sm_75 and sm_90, the standard kernels
// (blur with a shared tile, tiled matmul, histogram) with no spills, and
// one program with nvcc too. Kernels built by hand: codegen_cuda_kernels.cpp;
// errors: codegen_cuda_errors.cpp. No GPU is needed.

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "Loom.h"
#include "common/ScratchFile.h"
#include "gpu/codegen_cuda_util.h"
#include "gpu/gpu_test_util.h"

using namespace loom;
using namespace cuda_test;
using Catch::Contains;

namespace {

// The blur of perf_gpu: blur_x per 32x8 tile of blur_y in shared memory.
struct SharedBlur {
    ImageParam input{UInt(16), 2, "cu_blur_in"};
    Func blur_x{"cu_blur_x"}, blur_y{"cu_blur_y"};
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    SharedBlur() {
        blur_x(x, y) = (input(x, y) + input(x + 1, y) + input(x + 2, y)) / 3;
        blur_y(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
        blur_y.gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        blur_x.compute_at(blur_y, xo).gpu_threads(x, y);
    }
    std::string source(const Target &t = cuda_target()) { return blur_y.device_source({input}, t); }
};

// The textbook shared-memory matmul of perf_gpu: 16x16 tiles of A and B
// staged in shared memory per step of 16 along k.
struct TiledMatMul {
    ImageParam A{Float(32), 2, "cu_mm_a"}, B{Float(32), 2, "cu_mm_b"};
    Func a_tile{"cu_a_tile"}, b_tile{"cu_b_tile"}, prod{"cu_prod"}, out{"cu_mm"};
    TiledMatMul() {
        const int t = 16;
        Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
        RVar ko("ko"), ki("ki");
        RDom k(0, 1024);
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
    }
};

// A 256-bin histogram with atomic() updates.
struct Histogram {
    ImageParam input{UInt(8), 1, "cu_hist_in"};
    Func hist{"cu_hist"};
    Histogram() {
        Var x("x");
        RDom r(0, 1 << 20);
        RVar ro("ro"), ri("ri");
        hist(x) = 0;
        hist(cast<int>(input(r))) += 1;
        hist.update().atomic().split(r.x, ro, ri, 256).gpu_blocks(ro).gpu_threads(ri);
    }
};

void compile_for_75_and_90(const std::string &source) {
    compile_cubin(source, 75);
    compile_cubin(source, 90);
}

} // namespace

TEST_CASE("cuda: kernels are extern \"C\" __global__ with the exact block size as launch bounds",
          "[gpu][cuda]") {
    Var x("x"), y("y"), z("z"), xo("xo"), yo("yo"), zo("zo"), xi("xi"), yi("yi"), zi("zi");
    Func one("lb_one"), two("lb_two"), three("lb_three");
    one(x) = x * 2;
    one.gpu_tile(x, xo, xi, 128);
    two(x, y) = x + y;
    two.gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
    three(x, y, z) = x + y * z;
    three.gpu_tile(x, y, z, xo, yo, zo, xi, yi, zi, 8, 4, 2);
    for (auto [f, n] : {std::pair<Func, int>{one, 128}, {two, 32}, {three, 64}}) {
        std::string source = f.device_source({}, cuda_target());
        INFO(source);
        CHECK_THAT(source, Contains("extern \"C\" __global__ void __launch_bounds__(" +
                                    std::to_string(n) + ") " + f.name() + "_s0_"));
        CHECK_THAT(source, Contains("(int)blockIdx.x") && Contains("(int)threadIdx.x"));
        CHECK(source.find("__kernel") == std::string::npos);
        compile_for_75_and_90(source);
    }
    std::string three_d = three.device_source({}, cuda_target());
    CHECK_THAT(three_d, Contains("(int)threadIdx.z") && Contains("(int)blockIdx.z"));

    // The blur's blur_x needs 8 + 2 rows of the tile: the block has the
    // larger of the two stages' thread counts, 32x10.
    SharedBlur blur;
    CHECK_THAT(blur.source(), Contains("__launch_bounds__(320)"));
}

TEST_CASE("cuda: a block size unknown at compile time gets no launch bounds, and shared memory "
          "of unknown size is extern __shared__",
          "[gpu][cuda]") {
    Param<int> tile("cu_tile_size");
    ImageParam in(Int(32), 2, "cu_dyn_in");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func p("cu_dyn_p"), out("cu_dyn_out");
    p(x, y) = in(x, y) * 3;
    out(x, y) = p(x, y) + p(x + 1, y + 1);
    out.gpu_tile(x, y, xo, yo, xi, yi, tile, tile, TailStrategy::GuardWithIf);
    p.compute_at(out, xo).gpu_threads(x, y);
    std::string source = out.device_source({in, tile}, cuda_target());
    INFO(source);
    CHECK_THAT(source, Contains("extern \"C\" __global__ void cu_dyn_out_s0_"));
    CHECK(source.find("__launch_bounds__") == std::string::npos);
    CHECK_THAT(source, Contains("extern __shared__ __align__(16) unsigned char __shared[];"));
    // The size travels as the launch's dynamic shared bytes, not as a parameter.
    CHECK(source.find("unsigned char *__shared") == std::string::npos);
    compile_for_75_and_90(source);
}

TEST_CASE("cuda: a block needing more than 48 KiB of shared memory gets it dynamically",
          "[gpu][cuda]") {
    // p's 66x258 floats per block (68 KiB) exceed what CUDA may declare
    // statically; OpenCL keeps a constant-size __local array.
    ImageParam in(Float(32), 2, "cu_big_in");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func p("cu_big_p"), out("cu_big_out");
    p(x, y) = in(x, y) * 2.0f;
    out(x, y) = p(x, y) + p(x + 2, y + 2);
    out.tile(x, y, xo, yo, xi, yi, 64, 256).gpu_blocks(xo, yo).gpu_threads(xi);
    p.compute_at(out, xo).gpu_threads(x);
    std::string source = out.device_source({in}, cuda_target());
    INFO(source);
    CHECK_THAT(source, Contains("extern __shared__ __align__(16) unsigned char __shared[];"));
    compile_cubin(source, 90);
    std::string cl = out.device_source({in}, get_host_target().with_feature(Target::OpenCL));
    CHECK_THAT(cl, Contains("__local uchar __shared[68112]"));
}

TEST_CASE("cuda: buffers are __restrict__, const when only read; shared tiles are static",
          "[gpu][cuda]") {
    SharedBlur blur;
    std::string source = blur.source();
    INFO(source);
    CHECK_THAT(source, Contains("const uint16_t *__restrict__ cu_blur_in_"));
    CHECK_THAT(source, Contains(", uint16_t *__restrict__ cu_blur_y_"));
    CHECK_THAT(source, Contains("__shared__ __align__(16) unsigned char __shared["));
    CHECK(source.find("extern __shared__") == std::string::npos);
    CHECK(count(source, "__syncthreads();") >= 1);
    // Loom's integer division: Euclidean, in a device helper.
    CHECK_THAT(source, Contains("static __device__ inline"));
    compile_for_75_and_90(source);
}

TEST_CASE("cuda: the standard kernels compile with no spills for sm_75 and sm_90", "[gpu][cuda]") {
    SharedBlur blur;
    TiledMatMul matmul;
    Histogram histogram;
    std::string blur_source = blur.source();
    std::string matmul_source = matmul.out.device_source({matmul.A, matmul.B}, cuda_target());
    std::string hist_source = histogram.hist.device_source({histogram.input}, cuda_target());
    CHECK_THAT(matmul_source, Contains("__launch_bounds__(256)"));
    CHECK_THAT(matmul_source, Contains("__shared__ __align__(16) unsigned char __shared["));
    CHECK_THAT(hist_source, Contains("atomicAdd((int *)cu_hist_"));
    CHECK(hist_source.find("atomicCAS") == std::string::npos);
    for (const std::string *source : {&blur_source, &matmul_source, &hist_source}) {
        for (int cap : {75, 90}) {
            std::string log = cuda_test::compile_cubin_with_figures(*source, cap);
            INFO("sm_" << cap << "\n" << *source);
            CHECK(spill_bytes(log) == 0);
        }
    }
}

TEST_CASE("cuda: float atomics are atomicAdd, other floats a compare-and-swap loop",
          "[gpu][cuda]") {
    ImageParam in(UInt(8), 1, "cu_fh_in");
    Var x("x");
    RDom r(0, 4096);
    RVar ro("ro"), ri("ri");
    Func sum("cu_fsum"), mul("cu_fmul"), dsum("cu_dsum");
    sum(x) = 0.0f;
    sum(cast<int>(in(r)) % 8) += 0.5f;
    sum.update().atomic().split(r.x, ro, ri, 64).gpu_blocks(ro).gpu_threads(ri);
    mul(x) = 1.0f;
    mul(cast<int>(in(r)) % 8) *= 1.0001f;
    mul.update().atomic().split(r.x, ro, ri, 64).gpu_blocks(ro).gpu_threads(ri);
    dsum(x) = 0.0;
    dsum(cast<int>(in(r)) % 8) -= 0.25;
    dsum.update().atomic().split(r.x, ro, ri, 64).gpu_blocks(ro).gpu_threads(ri);

    std::string s = sum.device_source({in}, cuda_target());
    CHECK_THAT(s, Contains("atomicAdd((float *)cu_fsum_"));
    CHECK(s.find("atomicCAS") == std::string::npos);
    std::string m = mul.device_source({in}, cuda_target());
    CHECK(m.find("atomicAdd") == std::string::npos);
    CHECK_THAT(m, Contains("unsigned int *_atomic") && Contains("atomicCAS(_atomic"));
    // Doubles: atomicAdd (of the negated operand) from compute capability 6.0.
    std::string d = dsum.device_source({in}, cuda_target());
    CHECK_THAT(d, Contains("atomicAdd((double *)cu_dsum_") && Contains(", -(double)("));
    for (const std::string *source : {&s, &m, &d}) {
        INFO(*source);
        compile_for_75_and_90(*source);
    }
}

TEST_CASE("cuda: dense vectors of narrow types move 16 bytes at a time when aligned",
          "[gpu][cuda]") {
    // in and out start at x = 0 with rows 1024 elements apart (constraints
    // the code knows), and tiles of 64 (RoundUp: no shifted last tile), so
    // every vector of 8 uint16 starts 16 bytes into an aligned row (the
    // pointers' own alignment is checked once per kernel).
    ImageParam in(UInt(16), 2, "cu_vec_in");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func aligned("cu_vec"), shifted("cu_vec_shifted");
    aligned(x, y) = in(x, y) * 3;
    shifted(x, y) = in(x + 1, y) * 3;
    for (Func f : {aligned, shifted}) {
        f.gpu_tile(x, y, xo, yo, xi, yi, 64, 4, TailStrategy::RoundUp).vectorize(xi, 8);
        f.output_buffer().dim(0).set_min(0);
        f.output_buffer().dim(1).set_stride(1024);
    }
    in.dim(0).set_min(0);
    in.dim(1).set_stride(1024);

    std::string a = aligned.device_source({in}, cuda_target());
    {
        INFO(a);
        CHECK(count(a, "uint4 _w") == 2); // one load, one store
        CHECK_THAT(a, Contains("= ((unsigned long long)cu_vec_in_") &&
                          Contains("= ((unsigned long long)cu_vec_"));
        CHECK_THAT(a, Contains("= ((const uint4 *)(((uint16_t *)cu_vec_in_"));
        compile_for_75_and_90(a);
    }

    // x + 1 is not a multiple of 8: the load goes lane by lane; the store
    // stays a vector.
    std::string s = shifted.device_source({in}, cuda_target());
    INFO(s);
    CHECK(count(s, "uint4 _w") == 1);
    CHECK(s.find("= ((unsigned long long)cu_vec_in_") == std::string::npos);
    compile_for_75_and_90(s);

    // Without the constraints the index is a multiple of 8 only when the
    // mins and strides are: one flag per kernel checks them with the
    // pointer, words where it holds, lanes elsewhere.
    ImageParam free_in(UInt(16), 2, "cu_free_in");
    Func unconstrained("cu_vec_free");
    unconstrained(x, y) = free_in(x, y) * 3;
    unconstrained.gpu_tile(x, y, xo, yo, xi, yi, 64, 4, TailStrategy::RoundUp).vectorize(xi, 8);
    std::string u = unconstrained.device_source({free_in}, cuda_target());
    {
        INFO(u);
        CHECK(count(u, "uint4 _w") == 2);
        CHECK_THAT(u, Contains("= ((unsigned long long)cu_free_in_") && Contains(" & 7) == 0"));
        CHECK(count(u, "if (_aligned") == 2);
        compile_for_75_and_90(u);
    }

    // Two lanes: lane by lane. Narrow vectors are often loaded again by
    // unrolled neighbours, which the compiler shares only while unguarded.
    Func pairs("cu_vec_pairs");
    pairs(x, y) = free_in(x, y) * 3;
    pairs.gpu_tile(x, y, xo, yo, xi, yi, 64, 4, TailStrategy::RoundUp).vectorize(xi, 2);
    std::string p2 = pairs.device_source({free_in}, cuda_target());
    INFO(p2);
    CHECK(p2.find("_w") == std::string::npos);
}

TEST_CASE("cuda: sixteen bytes of samples load as one word, lanes are straight-line code",
          "[gpu][cuda]") {
    // A histogram whose threads take 16 samples per step (a vectorized
    // atomic update): one 16-byte load where the input's pointer and min
    // allow; the vector's lanes are printed one statement each, never as
    // loops.
    ImageParam in(UInt(8), 1, "cu_hist4_in");
    Var x("x");
    RDom r(0, 1 << 16);
    Func hist("cu_hist4");
    hist(x) = 0;
    hist(cast<int>(in(r))) += 1;
    gpu_test::schedule_shared_bins_histogram(hist, r, 4096, 64, 16);
    std::string s = hist.device_source({in}, cuda_target());
    INFO(s);
    CHECK(count(s, "uint4 _w") >= 1);
    CHECK_THAT(s, Contains("= ((unsigned long long)cu_hist4_in_") && Contains(" & 15) == 0"));
    // Sixteen lanes: sixteen atomics per step (a guarded copy of the loop
    // for the last steps has its own).
    CHECK(count(s, "atomicAdd((int *)__shared") % 16 == 0);
    CHECK(s.find("for (int _l") == std::string::npos);
    compile_for_75_and_90(s);
}

TEST_CASE("cuda: a pipeline with kernels on both APIs prints both programs", "[gpu][cuda]") {
    Var x("x"), xo("xo"), xi("xi");
    Func on_cl("both_cl"), on_cuda("both_cuda");
    on_cl(x) = x * 2;
    on_cuda(x) = on_cl(x) + 1;
    on_cl.compute_root().gpu_tile(x, xo, xi, 32, TailStrategy::Auto, DeviceAPI::OpenCL);
    on_cuda.gpu_tile(x, xo, xi, 64, TailStrategy::Auto, DeviceAPI::CUDA);
    Target both = cuda_target().with_feature(Target::OpenCL);
    std::string source = on_cuda.device_source({}, both);
    INFO(source);
    CHECK_THAT(source, Contains("__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void "
                                "both_cl_s0_"));
    CHECK_THAT(source,
               Contains("extern \"C\" __global__ void __launch_bounds__(64) both_cuda_s0_"));

    // Default_GPU is OpenCL when the target has both (as in Halide).
    Func d("default_api");
    d(x) = x;
    d.gpu_tile(x, xo, xi, 16);
    CHECK_THAT(d.device_source({}, both), Contains("__kernel"));
    CHECK_THAT(d.device_source({}, cuda_target()), Contains("__global__"));
}

TEST_CASE("cuda: compile_to_device_source writes the CUDA source", "[gpu][cuda]") {
    SharedBlur blur;
    loom_test::ScratchFile file("gpu", "blur.cu");
    blur.blur_y.compile_to_device_source(file.path, {blur.input}, cuda_target());
    std::string written = loom_test::read_text(file.path);
    CHECK_THAT(written, Contains("/* CUDA C kernels generated by Loom for target "));
    CHECK_THAT(written, Contains("__launch_bounds__(320)"));
    CHECK(written == blur.source());
}

TEST_CASE("cuda: the printed source compiles with nvcc too", "[gpu][cuda]") {
    const char *nvcc = "/usr/local/cuda/bin/nvcc";
    INFO("this test needs nvcc at " << nvcc);
    REQUIRE(access(nvcc, X_OK) == 0);
    SharedBlur blur;
    Histogram histogram;
    for (const std::string &program :
         {blur.source(), histogram.hist.device_source({histogram.input}, cuda_target())}) {
        loom_test::ScratchFile cu("gpu", "nvcc_check.cu"), cubin("gpu", "nvcc_check.cubin"),
            log("gpu", "nvcc_check.log");
        {
            std::ofstream out(cu.path);
            out << program;
        }
        std::string command = std::string(nvcc) + " -cubin -arch=sm_75 -o " + cubin.path + " " +
                              cu.path + " > " + log.path + " 2>&1";
        int status = std::system(command.c_str());
        INFO(command << "\n" << loom_test::read_text(log.path) << "\n" << program);
        CHECK(status == 0);
    }
}
