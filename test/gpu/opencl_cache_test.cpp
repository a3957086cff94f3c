// The program caches: a second build of the same source in one context comes
// from memory, a build after release() from the disk cache (no compiler),
// a corrupt cache file falls back to the source, the build options are part
// of the cache key, and LOOM_DEBUG prints a program's source once.

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <unistd.h>

#include "common/ScopedEnv.h"
#include "runtime_test_util.h"

using namespace gpu_rt_test;

namespace {

using Stats = gpu_rt_test::ProgramStats;
Stats stats() {
    return gpu_rt_test::program_stats(loom_device_api_opencl);
}

std::string make_temp_dir() {
    std::string pattern = "/tmp/loom_gpu_cache_XXXXXX";
    REQUIRE(mkdtemp(&pattern[0]) != nullptr);
    return pattern;
}

std::vector<std::string> files_in(const std::string &dir) {
    std::vector<std::string> names;
    if (DIR *d = opendir(dir.c_str())) {
        while (dirent *e = readdir(d))
            if (e->d_name[0] != '.') names.push_back(dir + "/" + e->d_name);
        closedir(d);
    }
    return names;
}

// Runs `kernel` writing one int and returns it.
int run_value_kernel(const std::string &source, const char *kernel) {
    HostBuffer<int> out({1});
    ErrorCapture errors;
    REQUIRE(loom_device_malloc(errors.uc(), out.raw(), opencl()) == 0);
    int r = run_1d(errors.uc(), source, kernel, 1, 1, "b", {out.arg()});
    INFO(errors.text);
    REQUIRE(r == 0);
    out.buf.flags |= loom_buffer_flag_device_dirty;
    REQUIRE(loom_copy_to_host(errors.uc(), out.raw()) == 0);
    REQUIRE(loom_device_free(errors.uc(), out.raw()) == 0);
    return out[0];
}

} // namespace

TEST_CASE("gpu: programs are built once and then loaded from the disk cache", "[gpu][opencl]") {
    const std::string dir = make_temp_dir();
    loom_test::ScopedEnv cache_dir("LOOM_KERNEL_CACHE_DIR", dir.c_str());
    const std::string source = unique_source(R"(
__kernel void seven(__global int *out) { out[0] = 7; }
)");
    Stats s0 = stats();
    REQUIRE(run_value_kernel(source, "seven") == 7);
    Stats s1 = stats();
    CHECK(s1.from_source == s0.from_source + 1);
    CHECK(s1.from_cache == s0.from_cache);
    std::vector<std::string> files = files_in(dir);
    REQUIRE(files.size() == 1);

    // The same source again: the in-memory program, no build at all.
    REQUIRE(run_value_kernel(std::string(source), "seven") == 7);
    Stats s2 = stats();
    CHECK(s2.from_source == s1.from_source);
    CHECK(s2.from_cache == s1.from_cache);

    // After release() (as in a new process) it comes from the disk.
    opencl()->release(nullptr);
    REQUIRE(run_value_kernel(source, "seven") == 7);
    Stats s3 = stats();
    CHECK(s3.from_source == s2.from_source);
    CHECK(s3.from_cache == s2.from_cache + 1);

    // A corrupt file is ignored: built from source again, and rewritten.
    {
        std::ofstream corrupt(files[0], std::ios::binary | std::ios::trunc);
        corrupt << "LOOMKC01 but then garbage";
    }
    opencl()->release(nullptr);
    REQUIRE(run_value_kernel(source, "seven") == 7);
    Stats s4 = stats();
    CHECK(s4.from_source == s3.from_source + 1);
    CHECK(s4.from_cache == s3.from_cache);
    opencl()->release(nullptr);
    REQUIRE(run_value_kernel(source, "seven") == 7);
    CHECK(stats().from_cache == s4.from_cache + 1);

    for (const std::string &f : files_in(dir)) std::remove(f.c_str());
    rmdir(dir.c_str());
}

TEST_CASE("gpu: build options apply and are part of the cache key", "[gpu][opencl]") {
    const std::string dir = make_temp_dir();
    loom_test::ScopedEnv cache_dir("LOOM_KERNEL_CACHE_DIR", dir.c_str());
    const std::string source = unique_source(R"(
__kernel void value(__global int *out) { out[0] = VALUE; }
)");
    {
        loom_test::ScopedEnv options("LOOM_OCL_BUILD_OPTIONS", "-DVALUE=7");
        REQUIRE(run_value_kernel(source, "value") == 7);
    }
    opencl()->release(nullptr);
    {
        loom_test::ScopedEnv options("LOOM_OCL_BUILD_OPTIONS", "-DVALUE=9");
        Stats before = stats();
        REQUIRE(run_value_kernel(source, "value") == 9);
        CHECK(stats().from_source == before.from_source + 1);
    }
    CHECK(files_in(dir).size() == 2);
    opencl()->release(nullptr);
    for (const std::string &f : files_in(dir)) std::remove(f.c_str());
    rmdir(dir.c_str());
}

TEST_CASE("gpu: an empty LOOM_KERNEL_CACHE_DIR turns the disk cache off", "[gpu][opencl]") {
    loom_test::ScopedEnv cache_dir("LOOM_KERNEL_CACHE_DIR", "");
    const std::string source = unique_source(R"(
__kernel void eight(__global int *out) { out[0] = 8; }
)");
    REQUIRE(run_value_kernel(source, "eight") == 8);
    opencl()->release(nullptr);
    Stats before = stats();
    REQUIRE(run_value_kernel(source, "eight") == 8);
    CHECK(stats().from_source == before.from_source + 1);
    CHECK(stats().from_cache == before.from_cache);
}

TEST_CASE("gpu: LOOM_DEBUG=1 prints each program's source once per process", "[gpu][opencl]") {
    const std::string source = unique_source(R"(
__kernel void debug_me(__global int *out) { out[0] = 31; }
)");
    // Standard error goes to a file while the program is built twice.
    char path[] = "/tmp/loom_gpu_stderr_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    std::fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    {
        loom_test::ScopedEnv debug("LOOM_DEBUG", "1");
        run_value_kernel(source, "debug_me");
        opencl()->release(nullptr);
        run_value_kernel(source, "debug_me");
    }
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(path);
    INFO(text);
    CHECK_THAT(text, Catch::Contains("Loom: OpenCL program") && Catch::Contains("out[0] = 31;"));
    const size_t first = text.find("debug_me");
    REQUIRE(first != std::string::npos);
    CHECK(text.find("debug_me", first + 1) == std::string::npos);
}
