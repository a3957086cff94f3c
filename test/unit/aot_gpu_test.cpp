// GPU pipelines ahead of time, without running them: which CUDA
// capabilities get cubins, what an OpenCL library, header and C source
// carry (OpenCL C; for CUDA a bundle of cubins, PTX and source), and the
// device_source files. (Running AOT GPU libraries on PoCL,
// from a program outside the tree, is test/install's consumer.)

#include <catch2/catch.hpp>

#include "Loom.h"
#include "aot/AOTOutputs.h"
#include "aot_test_util.h"
#include "frontend/DeviceSourceFiles.h"
#include "runtime/cuda_compile.h"

using namespace loom;
using Catch::Contains;

namespace {

using aot_test::read_file;
using aot_test::TempDir;

struct GpuAdd {
    ImageParam in{Float(32), 2, "in"};
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func f{"gpu_add"};
    GpuAdd() {
        f(x, y) = in(x, y) + 1.0f;
        f.gpu_tile(x, y, xo, yo, xi, yi, 8, 8, TailStrategy::GuardWithIf);
    }
};

} // namespace

TEST_CASE("aot gpu: the CUDA capabilities that get cubins", "[aot][gpu]") {
    using Internal::aot_cuda_capabilities;
    const std::vector<int> nvrtc13 = {75, 80, 86, 87, 89, 90, 100, 103, 120};
    // None listed: one per major architecture in use, as NVRTC allows.
    CHECK(aot_cuda_capabilities(Target("x86-64-linux-cuda"), nvrtc13) ==
          std::vector<int>{75, 80, 90});
    CHECK(aot_cuda_capabilities(Target("x86-64-linux-cuda"), {80, 86, 90}) ==
          std::vector<int>{80, 90});
    CHECK(aot_cuda_capabilities(Target("x86-64-linux-cuda"), {100, 120}) == std::vector<int>{100});
    // Listed ones, ascending (the lowest also gets PTX).
    CHECK(aot_cuda_capabilities(Target("x86-64-linux-cuda-cuda_capability_90-cuda_capability_75"),
                                nvrtc13) == std::vector<int>{75, 90});
    CHECK_THROWS_WITH(
        aot_cuda_capabilities(Target("x86-64-linux-cuda-cuda_capability_86"), {75, 90}),
        Contains("asks for cuda_capability_86") && Contains("it supports 75, 90"));
}

TEST_CASE("aot gpu: an OpenCL library embeds its kernels' source", "[aot][gpu]") {
    GpuAdd p;
    TempDir dir("gpu_opencl");
    Target t("x86-64-linux-opencl");
    p.f.compile_to_static_library(dir.file("gpu_add"), {p.in}, "", t);
    std::string source = Pipeline(p.f).device_source({p.in}, t);
    REQUIRE_THAT(source, Contains("__kernel"));
    // The OpenCL C is in the object as it is, for the driver to build.
    CHECK_THAT(read_file(dir.file("gpu_add.a")), Contains(source));
    std::string header = read_file(dir.file("gpu_add.h"));
    CHECK_THAT(header, Contains("runs 1 GPU kernel through OpenCL") &&
                           Contains("loom_copy_to_host()") && Contains("loom_error_code_device"));
    // The C source launches the same kernels.
    p.f.compile_to_c(dir.file("gpu_add.c"), {p.in}, "", t);
    std::string c = read_file(dir.file("gpu_add.c"));
    CHECK_THAT(c, Contains("loom_device_run") && Contains("__kernel"));
    // A CPU target's header says nothing of GPUs.
    ImageParam in(Float(32), 2, "in");
    Var x("x"), y("y");
    Func cpu("cpu_add");
    cpu(x, y) = in(x, y) + 1.0f;
    cpu.compile_to_header(dir.file("cpu_add.h"), {in}, "", Target("x86-64-linux"));
    CHECK_THAT(read_file(dir.file("cpu_add.h")), !Contains("GPU"));
}

TEST_CASE("aot gpu: the device_source output writes one file per GPU API", "[aot][gpu]") {
    GpuAdd p;
    TempDir dir("gpu_source");
    Target t("x86-64-linux-opencl");
    CHECK(Internal::device_source_files("a/b", t) == std::vector<std::string>{"a/b.cl"});
    CHECK(Internal::device_source_files("a/b", Target("x86-64-linux-cuda-opencl")) ==
          std::vector<std::string>{"a/b.cl", "a/b.cu"});
    Internal::compile_to_device_source_files(Pipeline(p.f), dir.file("gpu_add"), {p.in}, "", t);
    CHECK(read_file(dir.file("gpu_add.cl")) == Pipeline(p.f).device_source({p.in}, t));
    CHECK_THROWS_WITH(Internal::device_source_files("x", Target("x86-64-linux")),
                      Contains("device_source output needs a GPU target") &&
                          Contains("has neither opencl nor cuda"));
}

namespace {

// The CUDA bundle inside a generated object or library: a C string.
loom_rt::CudaBundle bundle_in(const std::string &binary) {
    size_t start = binary.find("//LOOM_CUDA_BUNDLE");
    REQUIRE(start != std::string::npos);
    std::string text = binary.substr(start, binary.find('\0', start) - start);
    loom_rt::CudaBundle bundle;
    std::string error;
    REQUIRE(loom_rt::cuda_bundle_decode(text.c_str(), &bundle, &error));
    return bundle;
}

std::vector<std::pair<int, bool>> images_of(const loom_rt::CudaBundle &b) {
    std::vector<std::pair<int, bool>> images;
    for (const auto &i : b.images) images.emplace_back(i.capability, i.is_cubin);
    return images;
}

} // namespace

TEST_CASE("aot gpu: a CUDA library embeds cubins, PTX and the source", "[aot][gpu][cuda]") {
    std::string why_not;
    if (!loom_rt::nvrtc_available(&why_not)) {
        WARN("NVRTC is not available, so nothing to check: " << why_not);
        return;
    }
    GpuAdd p;
    TempDir dir("gpu_cuda");
    // No capability listed: cubins for 7.5, 8.0 and 9.0, PTX for 7.5.
    Target t("x86-64-linux-cuda");
    p.f.compile_to_static_library(dir.file("gpu_add"), {p.in}, "", t);
    loom_rt::CudaBundle b = bundle_in(read_file(dir.file("gpu_add.a")));
    CHECK(images_of(b) ==
          std::vector<std::pair<int, bool>>{{75, true}, {80, true}, {90, true}, {75, false}});
    CHECK(b.source == Pipeline(p.f).device_source({p.in}, t));
    CHECK_THAT(b.images.back().data, Contains(".target sm_75"));
    CHECK_THAT(read_file(dir.file("gpu_add.h")), Contains("runs 1 GPU kernel through CUDA"));
    // The C source launches with the same bundle.
    p.f.compile_to_c(dir.file("gpu_add.c"), {p.in}, "", t);
    CHECK_THAT(read_file(dir.file("gpu_add.c")),
               Contains("//LOOM_CUDA_BUNDLE 1") && Contains("//cubin 90 "));
    // Listed capabilities only; the object file carries the same.
    Target t86("x86-64-linux-cuda-cuda_capability_86");
    p.f.compile_to_object(dir.file("gpu_add_86.o"), {p.in}, "", t86);
    CHECK(images_of(bundle_in(read_file(dir.file("gpu_add_86.o")))) ==
          std::vector<std::pair<int, bool>>{{86, true}, {86, false}});
}
