// wrap_native/detach_native with a cl_mem the test creates itself in the
// runtime's context (found through a runtime allocation's CL_MEM_CONTEXT),
// calling the driver through dlopen as the runtime does.

#include <catch2/catch.hpp>

#include <dlfcn.h>

#include "runtime/opencl_internal.h"
#include "runtime_test_util.h"

using namespace gpu_rt_test;

namespace {

struct Driver {
    decltype(&::clGetMemObjectInfo) get_info = nullptr;
    decltype(&::clCreateBuffer) create = nullptr;
    decltype(&::clReleaseMemObject) release = nullptr;
    decltype(&::clRetainMemObject) retain = nullptr;
    Driver() {
        void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
        REQUIRE(lib != nullptr);
        get_info = reinterpret_cast<decltype(get_info)>(dlsym(lib, "clGetMemObjectInfo"));
        create = reinterpret_cast<decltype(create)>(dlsym(lib, "clCreateBuffer"));
        release = reinterpret_cast<decltype(release)>(dlsym(lib, "clReleaseMemObject"));
        retain = reinterpret_cast<decltype(retain)>(dlsym(lib, "clRetainMemObject"));
        REQUIRE((get_info && create && release && retain));
    }
    cl_uint ref_count(cl_mem m) const {
        cl_uint n = 0;
        get_info(m, CL_MEM_REFERENCE_COUNT, sizeof(n), &n, nullptr);
        return n;
    }
};

} // namespace

TEST_CASE("gpu: a wrapped cl_mem is used by kernels and never freed by Loom", "[gpu][opencl]") {
    Driver cl;
    ErrorCapture errors;
    HostBuffer<int> probe({4});
    REQUIRE(loom_device_malloc(errors.uc(), probe.raw(), opencl()) == 0);
    cl_context context = nullptr;
    cl_mem probe_mem = reinterpret_cast<cl_mem>(uintptr_t(probe.buf.device));
    REQUIRE(cl.get_info(probe_mem, CL_MEM_CONTEXT, sizeof(context), &context, nullptr) ==
            CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    cl_mem mine = cl.create(context, CL_MEM_READ_WRITE, 64 * sizeof(int), nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    const int64_t live = loom_device_live_allocations();

    HostBuffer<int> b({64});
    REQUIRE(loom_device_wrap_native(errors.uc(), b.raw(), opencl(), uint64_t(uintptr_t(mine))) ==
            0);
    REQUIRE(b.buf.device == uint64_t(uintptr_t(mine)));
    const std::string source = unique_source(R"(
__kernel void iota(__global int *out) { out[get_global_id(0)] = 3 * get_global_id(0); }
)");
    REQUIRE(run_1d(errors.uc(), source, "iota", 64, 1, "b", {b.arg()}) == 0);
    b.buf.flags |= loom_buffer_flag_device_dirty;
    REQUIRE(loom_copy_to_host(errors.uc(), b.raw()) == 0);
    INFO(errors.text);
    REQUIRE(b[63] == 189);
    REQUIRE(loom_device_live_allocations() == live); // not an allocation of Loom's
    REQUIRE(loom_device_detach_native(errors.uc(), b.raw()) == 0);
    REQUIRE(b.buf.device == 0);
    REQUIRE(cl.ref_count(mine) == 1); // still the test's own reference only

    // device_free of a wrapped buffer forgets the handle without releasing it.
    REQUIRE(loom_device_wrap_native(errors.uc(), b.raw(), opencl(), uint64_t(uintptr_t(mine))) ==
            0);
    REQUIRE(loom_device_free(errors.uc(), b.raw()) == 0);
    REQUIRE(cl.ref_count(mine) == 1);

    // Too small for the buffer; and detach of memory Loom allocated.
    HostBuffer<int> big({65});
    REQUIRE(loom_device_wrap_native(errors.uc(), big.raw(), opencl(), uint64_t(uintptr_t(mine))) ==
            loom_error_code_device);
    CHECK_THAT(errors.text, Catch::Contains("holds 256 bytes") && Catch::Contains("spans 260"));
    REQUIRE(loom_device_detach_native(errors.uc(), probe.raw()) == loom_error_code_device);
    CHECK_THAT(errors.text, Catch::Contains("was not wrapped"));
    REQUIRE(loom_device_free(errors.uc(), probe.raw()) == 0);
    cl.release(mine);
}
