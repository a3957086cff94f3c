// NVRTC through dlopen (cubin and PTX, errors with the offending line) and
// the AOT CUDA bundle (round trip, image selection, malformed input). NVRTC
// must be loadable where these tests run: a missing NVRTC fails them, with
// the loader's reasons, rather than skipping.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/cuda_compile.h"

using namespace loom_rt;
using Catch::Contains;

namespace {

void require_nvrtc() {
    std::string why;
    bool available = nvrtc_available(&why);
    INFO("These tests need NVRTC: " << why);
    REQUIRE(available);
}

const char *saxpy_source = R"(
extern "C" __global__ void __launch_bounds__(128)
saxpy(float a, const float *__restrict__ x, float *__restrict__ y, int n) {
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
)";

CudaBundle sample_bundle() {
    CudaBundle b;
    // Every byte value, and lengths that leave 0, 1 and 2 bytes over in base64.
    std::string all_bytes;
    for (int i = 0; i < 256; i++) all_bytes += char(i);
    b.images.push_back({75, true, all_bytes});
    b.images.push_back({80, true, all_bytes.substr(0, 254)});
    b.images.push_back({90, true, all_bytes.substr(7, 5)});
    b.images.push_back({75, false, std::string(".version 8.0\n.target sm_75\n") + '\0'});
    b.source = "extern \"C\" __global__ void k() {}\n";
    return b;
}

} // namespace

TEST_CASE("cuda_compile: NVRTC loads and reports its version and capabilities", "[cuda_compile]") {
    require_nvrtc();
    CHECK(nvrtc_version() >= 11020);
    std::vector<int> caps = nvrtc_supported_capabilities();
    REQUIRE(!caps.empty());
    CHECK(std::is_sorted(caps.begin(), caps.end()));
    CHECK(std::count(caps.begin(), caps.end(), 75) == 1);
    CHECK(std::count(caps.begin(), caps.end(), 90) == 1);
}

TEST_CASE("cuda_compile: a kernel compiles to cubin for sm_75 and sm_90, and to PTX",
          "[cuda_compile]") {
    require_nvrtc();
    for (int cap : {75, 90}) {
        NvrtcOutput out = nvrtc_compile(saxpy_source, cap, true, {"--ptxas-options=--verbose"});
        INFO("sm_" << cap << ": " << out.error);
        REQUIRE(out.ok);
        CHECK(out.is_cubin);
        REQUIRE(out.binary.size() > 4);
        CHECK(out.binary.compare(0, 4,
                                 "\x7f"
                                 "ELF") == 0);
        // ptxas's figures for the kernel are in the log.
        CHECK_THAT(out.log, Contains("saxpy") && Contains("registers"));
    }
    NvrtcOutput ptx = nvrtc_compile(saxpy_source, 75, false);
    INFO(ptx.error);
    REQUIRE(ptx.ok);
    CHECK(!ptx.is_cubin);
    REQUIRE(!ptx.binary.empty());
    CHECK(ptx.binary.back() == '\0');
    CHECK_THAT(ptx.binary, Contains(".target sm_75") && Contains(".entry saxpy"));
}

TEST_CASE("cuda_compile: a syntax error gives NVRTC's log and the offending line",
          "[cuda_compile]") {
    require_nvrtc();
    std::string source = "extern \"C\" __global__ void broken(float *p) {\n"
                         "    p[0] = 1.0f;\n"
                         "    p[1] = undeclared_name * 2;\n"
                         "}\n";
    NvrtcOutput out = nvrtc_compile(source, 75, true);
    CHECK(!out.ok);
    CHECK(out.binary.empty());
    CHECK_THAT(out.log, Contains("undeclared_name"));
    CHECK_THAT(out.error, Contains("NVRTC could not compile") && Contains("sm_75") &&
                              Contains("undeclared_name") &&
                              Contains("line 3:     p[1] = undeclared_name * 2;"));
}

TEST_CASE("cuda_compile: an architecture NVRTC does not know is an error naming it",
          "[cuda_compile]") {
    require_nvrtc();
    NvrtcOutput out = nvrtc_compile(saxpy_source, 11, true);
    CHECK(!out.ok);
    CHECK_THAT(out.error, Contains("sm_11"));
}

TEST_CASE("cuda_compile: LOOM_NVRTC_LIBRARY naming no library says what was tried",
          "[cuda_compile]") {
    // The library is loaded once per process, so the failure is checked in a
    // child process where the variable names a missing file.
    char self[4096] = {0};
    REQUIRE(readlink("/proc/self/exe", self, sizeof self - 1) > 0);
    std::string command = "LOOM_NVRTC_LIBRARY=/nonexistent/libnvrtc.so.99 \"" + std::string(self) +
                          "\" '[cuda_compile_missing_child]' > /dev/null 2>&1";
    CHECK(std::system(command.c_str()) == 0);
}

TEST_CASE("cuda_compile: (child) a missing NVRTC is reported with its path",
          "[.][cuda_compile_missing_child]") {
    std::string why;
    REQUIRE(!nvrtc_available(&why));
    CHECK_THAT(why, Contains("/nonexistent/libnvrtc.so.99") && Contains("LOOM_NVRTC_LIBRARY"));
    CHECK(nvrtc_version() == 0);
    CHECK(nvrtc_supported_capabilities().empty());
    NvrtcOutput out = nvrtc_compile(saxpy_source, 75, true);
    CHECK(!out.ok);
    CHECK_THAT(out.error, Contains("could not load NVRTC"));
}

TEST_CASE("cuda_compile: a bundle round-trips through its text", "[cuda_compile]") {
    CudaBundle b = sample_bundle();
    std::string text = cuda_bundle_encode(b);
    CHECK(text.find('\0') == std::string::npos);
    CHECK(text.rfind("//LOOM_CUDA_BUNDLE 1\n//cubin 75 ", 0) == 0);
    CHECK(is_cuda_bundle(text.c_str()));
    CHECK(!is_cuda_bundle(b.source.c_str()));
    CHECK(!is_cuda_bundle(nullptr));

    CudaBundle decoded;
    std::string error;
    REQUIRE(cuda_bundle_decode(text.c_str(), &decoded, &error));
    CHECK(error.empty());
    REQUIRE(decoded.images.size() == b.images.size());
    for (size_t i = 0; i < b.images.size(); i++) {
        CHECK(decoded.images[i].capability == b.images[i].capability);
        CHECK(decoded.images[i].is_cubin == b.images[i].is_cubin);
        CHECK(decoded.images[i].data == b.images[i].data);
    }
    CHECK(decoded.source == b.source);

    CudaBundle source_only;
    source_only.source = "// just source\n";
    REQUIRE(cuda_bundle_decode(cuda_bundle_encode(source_only).c_str(), &decoded, &error));
    CHECK(decoded.images.empty());
    CHECK(decoded.source == source_only.source);
}

TEST_CASE("cuda_compile: the bundle image for a device: same-major cubin, else PTX",
          "[cuda_compile]") {
    CudaBundle b;
    b.images = {{75, true, "c75"}, {80, true, "c80"},  {86, true, "c86"},
                {90, true, "c90"}, {70, false, "p70"}, {86, false, "p86"}};
    auto pick = [&](int device) {
        const CudaBundle::Image *image = cuda_bundle_select(b, device);
        return image ? image->data : std::string("none");
    };
    CHECK(pick(75) == "c75");
    CHECK(pick(80) == "c80");
    CHECK(pick(86) == "c86");
    CHECK(pick(89) == "c86"); // highest same-major cubin at or below
    CHECK(pick(90) == "c90");
    CHECK(pick(100) == "p86"); // no sm_10x cubin: the newest PTX that fits
    CHECK(pick(120) == "p86");
    CHECK(pick(72) == "p70"); // sm_75 cubin is newer than the device
    CHECK(pick(61) == "none");

    CudaBundle cubins_only;
    cubins_only.images = {{75, true, "c75"}};
    CHECK(cuda_bundle_select(cubins_only, 90) == nullptr); // a cubin never crosses majors
    CHECK(cuda_bundle_select(CudaBundle(), 90) == nullptr);
}

TEST_CASE("cuda_compile: malformed bundles are errors that say what is wrong", "[cuda_compile]") {
    auto decode_error = [](const std::string &text) {
        CudaBundle b;
        b.source = "unchanged";
        std::string error;
        bool ok = cuda_bundle_decode(text.c_str(), &b, &error);
        CHECK(!ok);
        CHECK(b.source == "unchanged"); // a failed decode leaves the bundle alone
        return error;
    };
    CHECK_THAT(decode_error("extern \"C\" __global__ void k() {}"),
               Contains("malformed CUDA device-code bundle") &&
                   Contains("does not start with \"//LOOM_CUDA_BUNDLE 1\""));
    CHECK_THAT(decode_error("//LOOM_CUDA_BUNDLE 2\n"), Contains("does not start with"));
    CHECK_THAT(decode_error("//LOOM_CUDA_BUNDLE 1\n//cubin AQID\n"),
               Contains("line 2") && Contains("compute capability"));
    CHECK_THAT(decode_error("//LOOM_CUDA_BUNDLE 1\n//ptx 75\n"),
               Contains("line 2") && Contains("compute capability"));
    CHECK_THAT(decode_error("//LOOM_CUDA_BUNDLE 1\n//cubin 75 AQID\n//cubin 90 AQ*D\n"),
               Contains("line 3") && Contains("cubin for 90") && Contains("not valid base64"));
    CHECK_THAT(decode_error("//LOOM_CUDA_BUNDLE 1\n//ptx 75 AQI\n"),
               Contains("PTX for 75") && Contains("not valid base64"));
    CHECK_THAT(decode_error("//LOOM_CUDA_BUNDLE 1\n//ptx 75 A=ID\n"), Contains("not valid base64"));
    CHECK_THAT(decode_error("//LOOM_CUDA_BUNDLE 1\n//ptx 75 \n"), Contains("not valid base64"));
    CHECK_THAT(decode_error("//LOOM_CUDA_BUNDLE 1\n//cubin 75 AQID"),
               Contains("line 2") && Contains("no end of line"));
}
