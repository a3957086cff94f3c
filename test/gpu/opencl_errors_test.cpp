// Failures of the OpenCL runtime say what went wrong in words: the kernel,
// the limit, the CL error by name, the offending source line.

#include <catch2/catch.hpp>

#include "runtime/opencl_internal.h"
#include "runtime_test_util.h"

using namespace gpu_rt_test;

namespace {

const std::string &copy_source() {
    static const std::string s = unique_source(R"(
__kernel void copy(__global const int *in, __global int *out) {
    int i = get_global_id(0);
    out[i] = in[i];
}
)");
    return s;
}

} // namespace

TEST_CASE("gpu: a build failure quotes the log and the offending line", "[gpu][opencl]") {
    const std::string source = unique_source(R"(__kernel void broken(__global int *out) {
    int fine = 1;
    out[0] = fine + undeclared_thing;
}
)");
    HostBuffer<int> out({1});
    ErrorCapture errors;
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), opencl()) == 0);
    errors.text.clear();
    REQUIRE(run_1d(errors.uc(), source, "broken", 1, 1, "b", {out.arg()}) ==
            loom_error_code_device);
    INFO(errors.text);
    CHECK_THAT(errors.text, Catch::Contains("building the program of kernel broken failed"));
    CHECK_THAT(errors.text, Catch::Contains("CL_BUILD_PROGRAM_FAILURE"));
    CHECK_THAT(errors.text, Catch::Contains("Build log:"));
    CHECK_THAT(errors.text, Catch::Contains("undeclared_thing"));
    // Line 4 of the source (after the unique comment line), quoted with its number.
    CHECK_THAT(errors.text, Catch::Contains("4 |     out[0] = fine + undeclared_thing;"));
    // The failure is not cached: the next launch fails the same way.
    errors.text.clear();
    REQUIRE(run_1d(errors.uc(), source, "broken", 1, 1, "b", {out.arg()}) ==
            loom_error_code_device);
    CHECK_THAT(errors.text, Catch::Contains("Build log:"));
    loom_device_free(errors.uc(), out.raw());
}

TEST_CASE("gpu: build logs point at source lines", "[gpu][opencl]") {
    const std::string source = "int a;\nint b = c;\n\tint d = e;\n";
    const std::string log = "In file included from /pocl/_kernel.h:1:\n"
                            "/pocl/_kernel.h:5:3: note: something in a header\n"
                            "<source>:2:9: error: use of undeclared identifier 'c'\n"
                            "<source>:3:10: error: use of undeclared identifier 'e'\n"
                            "<source>:2:1: note: again line 2\n"
                            "<source>:99:1: error: past the end\n";
    std::string quoted = loom_rt::quote_source_lines_from_log(source, log);
    CHECK(quoted == "  2 | int b = c;\n"
                    "    |         ^\n"
                    "  3 | \tint d = e;\n"
                    "    | \t        ^");
    CHECK(loom_rt::quote_source_lines_from_log(source, "no locations here").empty());
}

TEST_CASE("gpu: OpenCL errors are reported by name", "[gpu][opencl]") {
    CHECK(loom_rt::cl_error_name(CL_OUT_OF_RESOURCES) == "CL_OUT_OF_RESOURCES");
    CHECK(loom_rt::cl_error_name(-54) == "CL_INVALID_WORK_GROUP_SIZE");
    CHECK(loom_rt::cl_error_name(-1001) == "CL_PLATFORM_NOT_FOUND_KHR");
    CHECK(loom_rt::cl_error_name(-4242) == "unknown OpenCL error -4242");
}

TEST_CASE("gpu: a block larger than the kernel allows is refused", "[gpu][opencl]") {
    HostBuffer<int> in({16}), out({16});
    ErrorCapture errors;
    REQUIRE(loom_copy_to_device(errors.uc(), in.raw(), opencl()) == 0);
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), opencl()) == 0);
    REQUIRE(run_1d(errors.uc(), copy_source(), "copy", 1, 1 << 20, "bb", {in.arg(), out.arg()}) ==
            loom_error_code_device);
    CHECK_THAT(errors.text, Catch::Contains("OpenCL kernel copy") &&
                                Catch::Contains("1048576x1x1 = 1048576 threads") &&
                                Catch::Contains("CL_KERNEL_WORK_GROUP_SIZE"));
    errors.text.clear();
    REQUIRE(run_1d(errors.uc(), copy_source(), "copy", 1, 0, "bb", {in.arg(), out.arg()}) ==
            loom_error_code_device);
    CHECK_THAT(errors.text, Catch::Contains("threads must be >= 1"));
    loom_device_free(errors.uc(), in.raw());
    loom_device_free(errors.uc(), out.raw());
}

TEST_CASE("gpu: local memory beyond the device's is refused", "[gpu][opencl]") {
    const std::string source = unique_source(R"(
__kernel void uses_local(__global int *out, __local int *tmp) {
    tmp[get_local_id(0)] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[0];
}
)");
    HostBuffer<int> out({4});
    ErrorCapture errors;
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), opencl()) == 0);
    REQUIRE(run_1d(errors.uc(), source, "uses_local", 1, 4, "bs", {out.arg(), 0}, 1 << 30) ==
            loom_error_code_device);
    CHECK_THAT(errors.text, Catch::Contains("OpenCL kernel uses_local") &&
                                Catch::Contains("1073741824 dynamic") &&
                                Catch::Contains("CL_DEVICE_LOCAL_MEM_SIZE"));
    // Shared bytes without an 's' argument are a contract violation.
    errors.text.clear();
    REQUIRE(run_1d(errors.uc(), copy_source(), "copy", 1, 1, "bb", {out.arg(), out.arg()}, 64) ==
            loom_error_code_device);
    CHECK_THAT(errors.text, Catch::Contains("no 's' argument"));
    loom_device_free(errors.uc(), out.raw());
}

TEST_CASE("gpu: bad kernel arguments are refused before the launch", "[gpu][opencl]") {
    HostBuffer<int> in({16}), out({16});
    ErrorCapture errors;
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), opencl()) == 0);
    // `in` has no device memory.
    REQUIRE(run_1d(errors.uc(), copy_source(), "copy", 16, 1, "bb", {in.arg(), out.arg()}) ==
            loom_error_code_device);
    CHECK_THAT(errors.text, Catch::Contains("OpenCL kernel copy: buffer argument 0") &&
                                Catch::Contains("has no device memory"));
    errors.text.clear();
    REQUIRE(run_1d(errors.uc(), copy_source(), "copy", 16, 1, "b", {out.arg()}) ==
            loom_error_code_device);
    CHECK_THAT(errors.text, Catch::Contains("given 1 arguments") && Catch::Contains("takes 2"));
    errors.text.clear();
    REQUIRE(run_1d(errors.uc(), copy_source(), "copy", 16, 1, "bx", {out.arg(), 0}) ==
            loom_error_code_device);
    CHECK_THAT(errors.text, Catch::Contains("unknown kind 'x'"));
    errors.text.clear();
    REQUIRE(run_1d(errors.uc(), copy_source(), "no_such_kernel", 16, 1, "bb",
                   {out.arg(), out.arg()}) == loom_error_code_device);
    CHECK_THAT(errors.text,
               Catch::Contains("no kernel named no_such_kernel") && Catch::Contains("copy"));
    errors.text.clear();
    // A device API this runtime has no interface for (CUDA has one: cuda_runtime_test.cpp).
    REQUIRE(loom_device_run(errors.uc(), 7, copy_source().c_str(), "copy", 1, 1, 1, 1, 1, 1, 0, "",
                            nullptr) == loom_error_code_device);
    CHECK_THAT(errors.text, Catch::Contains("No device interface for an unknown device API "
                                            "(device API 7)"));
    loom_device_free(errors.uc(), out.raw());
}
