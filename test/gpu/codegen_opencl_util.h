#ifndef LOOM_TEST_GPU_CODEGEN_OPENCL_UTIL_H
#define LOOM_TEST_GPU_CODEGEN_OPENCL_UTIL_H

// Helpers of the OpenCL C printer's tests (codegen_opencl*.cpp): kernels
// built by hand from IR as device lowering outlines them
// (lower/DeviceKernel.h), the text of one printed kernel, and printed
// programs built and run on the first OpenCL device.

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "Loom.h"
#include "codegen/opencl/CodeGen_OpenCL_C.h"
#include "ir/IR.h"
#include "ir/IROperator.h"
#include "kernel_text_util.h"
#include "opencl_test_device.h"

namespace loom_test {

using namespace loom;
using namespace loom::Internal;

// ---- Building kernels ----

inline Expr var(const std::string &name, Type t = Int(32)) {
    return Variable::make(t, name);
}
inline Expr block_x() {
    return var("__block_id_x");
}
inline Expr thread_x() {
    return var("__thread_id_x");
}
inline Expr load(Type t, const std::string &buffer, Expr index, Expr predicate = Expr()) {
    return Load::make(t, buffer, std::move(index), Buffer<>(), Parameter(), std::move(predicate));
}
inline Stmt store(const std::string &buffer, Expr value, Expr index, Expr predicate = Expr()) {
    return Store::make(buffer, std::move(value), std::move(index), Buffer<>(), Parameter(),
                       std::move(predicate));
}
inline Stmt barrier() {
    return Evaluate::make(Call::make(Int(32), Intrinsic::gpu_thread_barrier, {}, Call::Intrinsic));
}
/** buffer[index] = value(old), atomically; `old` names the old value. */
inline Stmt atomic(const std::string &buffer, Expr index, const std::string &old, Expr value) {
    Type t = value.type();
    return Evaluate::make(Call::make(
        t, Intrinsic::atomic_update,
        {StringImm::make(buffer), std::move(index), StringImm::make(old), std::move(value)},
        Call::Intrinsic));
}
/** let i = __block_id_x * threads + __thread_id_x in body(i). */
inline Stmt for_each_thread(int threads, const std::function<Stmt(Expr)> &body) {
    return LetStmt::make("i", block_x() * threads + thread_x(), body(var("i")));
}

inline DeviceKernelArg buffer_arg(const std::string &name, Type t, bool read, bool written) {
    DeviceKernelArg a;
    a.name = name;
    a.type = t;
    a.is_buffer = true;
    a.read = read;
    a.written = written;
    return a;
}
inline DeviceKernelArg input(const std::string &name, Type t) {
    return buffer_arg(name, t, true, false);
}
inline DeviceKernelArg output(const std::string &name, Type t) {
    return buffer_arg(name, t, false, true);
}
inline DeviceKernelArg scalar(const std::string &name, Type t) {
    DeviceKernelArg a;
    a.name = name;
    a.type = t;
    return a;
}
inline DeviceKernelArg dynamic_shared() {
    DeviceKernelArg a = buffer_arg("__shared", UInt(8), true, true);
    a.is_dynamic_shared = true;
    return a;
}

inline DeviceKernel kernel(const std::string &name, std::vector<DeviceKernelArg> args, Stmt body,
                           int threads = 64) {
    DeviceKernel k;
    k.name = name;
    k.func_name = "f_" + name;
    k.args = std::move(args);
    k.body = std::move(body);
    k.threads[0] = threads;
    return k;
}

inline Target opencl(std::vector<Target::Feature> features = {}) {
    Target t = get_host_target().with_feature(Target::OpenCL);
    for (auto f : features) t = t.with_feature(f);
    return t;
}

// ---- Errors (kernel_text and count: kernel_text_util.h) ----

/** The message of the error `f` throws as E, or "" when it throws none. */
template <typename E> std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const E &e) {
        return e.what();
    }
    return "";
}

// ---- The device ----

/** The program built on the device (the test fails if it does not build). */
struct Program {
    cl_program program = nullptr;
    explicit Program(const std::string &source) {
        OpenCLTestDevice &device = OpenCLTestDevice::get();
        INFO(device.why());
        REQUIRE(device.ok());
        std::string log;
        program = device.build(source, &log);
        INFO(log << "\n" << source);
        REQUIRE(program);
    }
    ~Program() { OpenCLTestDevice::get().release(program); }
    Program(const Program &) = delete;
    Program &operator=(const Program &) = delete;

    void run(const std::string &kernel, std::vector<OpenCLTestDevice::Arg> args, size_t blocks,
             size_t threads) {
        size_t b[3] = {blocks, 1, 1}, t[3] = {threads, 1, 1};
        std::string failure = OpenCLTestDevice::get().run(program, kernel.c_str(), args, b, t);
        INFO(failure);
        REQUIRE(failure.empty());
    }
};

} // namespace loom_test

#endif
