#ifndef LOOM_TEST_GPU_OPENCL_TEST_DEVICE_H
#define LOOM_TEST_GPU_OPENCL_TEST_DEVICE_H

// The first OpenCL device (PoCL in CI), through libOpenCL loaded with dlopen,
// for the GPU printer's tests: build printed source, run one kernel on
// buffers and read them back. Independent of Loom's device runtime, so the
// printer is tested on its own.

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>

#include <cstring>
#include <string>
#include <vector>

namespace loom_test {

class OpenCLTestDevice {
public:
    /** The process's device; check ok() (why() says what is missing). */
    static OpenCLTestDevice &get() {
        static OpenCLTestDevice device;
        return device;
    }
    bool ok() const { return queue != nullptr; }
    const std::string &why() const { return error; }
    const std::string &extensions() const { return device_extensions; }

    /** Builds `source`; returns the program (null on failure, with the
     * build log in *log). */
    cl_program build(const std::string &source, std::string *log) {
        const char *text = source.c_str();
        size_t length = source.size();
        cl_int err = 0;
        cl_program p = fn.clCreateProgramWithSource(context, 1, &text, &length, &err);
        if (err != CL_SUCCESS) {
            *log = "clCreateProgramWithSource failed: " + std::to_string(err);
            return nullptr;
        }
        err = fn.clBuildProgram(p, 1, &device, "-cl-std=CL1.2 -Werror", nullptr, nullptr);
        size_t size = 0;
        fn.clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string text_log(size, '\0');
        fn.clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, size, &text_log[0], nullptr);
        *log = text_log;
        if (err != CL_SUCCESS) {
            *log = "clBuildProgram failed (" + std::to_string(err) + "):\n" + text_log;
            fn.clReleaseProgram(p);
            return nullptr;
        }
        return p;
    }

    /** One kernel argument: a buffer (host data copied in, and back out
     * after the run), a scalar value, or bytes of local memory. */
    struct Arg {
        void *host = nullptr;
        size_t bytes = 0;
        enum Kind { Buffer, Scalar, Local } kind = Buffer;
    };
    template <typename T> static Arg buffer(std::vector<T> &v) {
        return {v.data(), v.size() * sizeof(T), Arg::Buffer};
    }
    template <typename T> static Arg scalar(T &v) { return {&v, sizeof(T), Arg::Scalar}; }
    static Arg local(size_t bytes) { return {nullptr, bytes, Arg::Local}; }

    /** Runs `kernel` of program p over blocks x threads (3-D); returns "" or
     * what failed. */
    std::string run(cl_program p, const char *kernel, std::vector<Arg> args, const size_t blocks[3],
                    const size_t threads[3]) {
        cl_int err = 0;
        cl_kernel k = fn.clCreateKernel(p, kernel, &err);
        if (err != CL_SUCCESS) return "clCreateKernel failed: " + std::to_string(err);
        std::vector<cl_mem> mems(args.size(), nullptr);
        std::string failure;
        for (size_t i = 0; i < args.size() && failure.empty(); i++) {
            Arg &a = args[i];
            if (a.kind == Arg::Buffer) {
                mems[i] = fn.clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                            a.bytes, a.host, &err);
                if (err == CL_SUCCESS)
                    err = fn.clSetKernelArg(k, cl_uint(i), sizeof(cl_mem), &mems[i]);
            } else {
                err = fn.clSetKernelArg(k, cl_uint(i), a.bytes,
                                        a.kind == Arg::Scalar ? a.host : nullptr);
            }
            if (err != CL_SUCCESS)
                failure = "argument " + std::to_string(i) + ": " + std::to_string(err);
        }
        if (failure.empty()) {
            size_t global[3];
            for (int d = 0; d < 3; d++) global[d] = blocks[d] * threads[d];
            err = fn.clEnqueueNDRangeKernel(queue, k, 3, nullptr, global, threads, 0, nullptr,
                                            nullptr);
            if (err != CL_SUCCESS)
                failure = "clEnqueueNDRangeKernel failed: " + std::to_string(err);
        }
        for (size_t i = 0; i < args.size() && failure.empty(); i++) {
            if (!mems[i]) continue;
            err = fn.clEnqueueReadBuffer(queue, mems[i], CL_TRUE, 0, args[i].bytes, args[i].host, 0,
                                         nullptr, nullptr);
            if (err != CL_SUCCESS) failure = "clEnqueueReadBuffer failed: " + std::to_string(err);
        }
        for (cl_mem m : mems)
            if (m) fn.clReleaseMemObject(m);
        fn.clReleaseKernel(k);
        return failure;
    }

    void release(cl_program p) {
        if (p) fn.clReleaseProgram(p);
    }

private:
    struct Functions {
#define LOOM_CL_FUNCTION(name) decltype(&::name) name = nullptr;
        LOOM_CL_FUNCTION(clGetPlatformIDs)
        LOOM_CL_FUNCTION(clGetDeviceIDs)
        LOOM_CL_FUNCTION(clGetDeviceInfo)
        LOOM_CL_FUNCTION(clCreateContext)
        LOOM_CL_FUNCTION(clCreateCommandQueue)
        LOOM_CL_FUNCTION(clCreateProgramWithSource)
        LOOM_CL_FUNCTION(clBuildProgram)
        LOOM_CL_FUNCTION(clGetProgramBuildInfo)
        LOOM_CL_FUNCTION(clReleaseProgram)
        LOOM_CL_FUNCTION(clCreateKernel)
        LOOM_CL_FUNCTION(clReleaseKernel)
        LOOM_CL_FUNCTION(clSetKernelArg)
        LOOM_CL_FUNCTION(clCreateBuffer)
        LOOM_CL_FUNCTION(clReleaseMemObject)
        LOOM_CL_FUNCTION(clEnqueueNDRangeKernel)
        LOOM_CL_FUNCTION(clEnqueueReadBuffer)
#undef LOOM_CL_FUNCTION
    } fn;
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    std::string error, device_extensions;

    OpenCLTestDevice() {
        void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) lib = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            error = "libOpenCL.so.1 not found (install ocl-icd-libopencl1 and pocl-opencl-icd)";
            return;
        }
        bool all = true;
#define LOOM_CL_LOAD(name)                                                                         \
    fn.name = reinterpret_cast<decltype(fn.name)>(dlsym(lib, #name));                              \
    all = all && fn.name;
        LOOM_CL_LOAD(clGetPlatformIDs)
        LOOM_CL_LOAD(clGetDeviceIDs)
        LOOM_CL_LOAD(clGetDeviceInfo)
        LOOM_CL_LOAD(clCreateContext)
        LOOM_CL_LOAD(clCreateCommandQueue)
        LOOM_CL_LOAD(clCreateProgramWithSource)
        LOOM_CL_LOAD(clBuildProgram)
        LOOM_CL_LOAD(clGetProgramBuildInfo)
        LOOM_CL_LOAD(clReleaseProgram)
        LOOM_CL_LOAD(clCreateKernel)
        LOOM_CL_LOAD(clReleaseKernel)
        LOOM_CL_LOAD(clSetKernelArg)
        LOOM_CL_LOAD(clCreateBuffer)
        LOOM_CL_LOAD(clReleaseMemObject)
        LOOM_CL_LOAD(clEnqueueNDRangeKernel)
        LOOM_CL_LOAD(clEnqueueReadBuffer)
#undef LOOM_CL_LOAD
        if (!all) {
            error = "libOpenCL lacks an OpenCL 1.2 function";
            return;
        }
        cl_platform_id platform = nullptr;
        cl_uint count = 0;
        if (fn.clGetPlatformIDs(1, &platform, &count) != CL_SUCCESS || count == 0) {
            error = "no OpenCL platform (install pocl-opencl-icd)";
            return;
        }
        if (fn.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &count) != CL_SUCCESS ||
            count == 0) {
            error = "no OpenCL device";
            return;
        }
        size_t size = 0;
        fn.clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size);
        device_extensions.assign(size, '\0');
        fn.clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, &device_extensions[0], nullptr);
        cl_int err = 0;
        context = fn.clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
        if (err != CL_SUCCESS) {
            error = "clCreateContext failed: " + std::to_string(err);
            return;
        }
        queue = fn.clCreateCommandQueue(context, device, 0, &err);
        if (err != CL_SUCCESS) {
            queue = nullptr;
            error = "clCreateCommandQueue failed: " + std::to_string(err);
        }
    }
};

} // namespace loom_test

#endif
