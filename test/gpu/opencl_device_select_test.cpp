// Device selection from LOOM_OCL_DEVICE_TYPE and LOOM_OCL_PLATFORM_NAME: the
// runtime is reset (loom_device_reset) so that the next use reads them again.

#include <catch2/catch.hpp>

#include "common/ScopedEnv.h"
#include "runtime_test_util.h"

using namespace gpu_rt_test;

namespace {

// Resets the runtime, then allocates a small buffer; returns the error text
// ("" on success) and frees what it allocated.
std::string try_first_use() {
    ErrorCapture errors;
    REQUIRE(loom_device_reset(errors.uc(), loom_device_api_opencl) == 0);
    HostBuffer<int> b({4});
    int r = loom_device_malloc(errors.uc(), b.raw(), opencl());
    if (r == 0)
        REQUIRE(loom_device_free(errors.uc(), b.raw()) == 0);
    else
        REQUIRE(r == loom_error_code_device);
    return errors.text;
}

} // namespace

TEST_CASE("gpu: an unavailable device type names what was tried", "[gpu][opencl]") {
    std::string text;
    {
        loom_test::ScopedEnv type("LOOM_OCL_DEVICE_TYPE", "accelerator");
        text = try_first_use();
    }
    INFO(text);
    CHECK_THAT(text, Catch::Contains("no device found"));
    CHECK_THAT(text, Catch::Contains("LOOM_OCL_DEVICE_TYPE=accelerator"));
    CHECK_THAT(text, Catch::Contains("libOpenCL"));
    CHECK_THAT(text, Catch::Contains("platforms seen:"));
    // PoCL's (or any) platform is listed with its devices.
    CHECK_THAT(text, Catch::Contains("cpu \"") || Catch::Contains("gpu \""));
    // Without the setting the default (a GPU, else any device) works again.
    CHECK(try_first_use() == "");
}

TEST_CASE("gpu: a platform name that matches nothing is reported", "[gpu][opencl]") {
    std::string text;
    {
        loom_test::ScopedEnv platform("LOOM_OCL_PLATFORM_NAME", "no such platform");
        text = try_first_use();
    }
    CHECK_THAT(text, Catch::Contains("whose name contains \"no such platform\""));
    CHECK(try_first_use() == "");
}

TEST_CASE("gpu: an unknown LOOM_OCL_DEVICE_TYPE lists the valid ones", "[gpu][opencl]") {
    std::string text;
    {
        loom_test::ScopedEnv type("LOOM_OCL_DEVICE_TYPE", "fpga");
        text = try_first_use();
    }
    CHECK_THAT(text,
               Catch::Contains("\"fpga\"") && Catch::Contains("use cpu, gpu, accelerator or all"));
    {
        // The value is case-insensitive, and "all" takes any device.
        loom_test::ScopedEnv type("LOOM_OCL_DEVICE_TYPE", "ALL");
        CHECK(try_first_use() == "");
    }
    CHECK(try_first_use() == "");
}

TEST_CASE("gpu: the runtime cannot be reset under live allocations", "[gpu][opencl]") {
    ErrorCapture errors;
    HostBuffer<int> b({4});
    REQUIRE(loom_device_malloc(errors.uc(), b.raw(), opencl()) == 0);
    REQUIRE(loom_device_reset(errors.uc(), loom_device_api_opencl) == loom_error_code_device);
    CHECK_THAT(errors.text, Catch::Contains("cannot reset") && Catch::Contains("1 device"));
    REQUIRE(loom_device_free(errors.uc(), b.raw()) == 0);
    REQUIRE(loom_device_reset(errors.uc(), loom_device_api_opencl) == 0);
}
