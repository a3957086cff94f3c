// Inspecting GPU pipelines: the lowered statement shows copies, launches and
// kernel bodies; the device source of every kernel is available as text and
// as a file.

#include <catch2/catch.hpp>

#include <string>

#include "Loom.h"
#include "common/ScratchFile.h"
#include "gpu/gpu_test_util.h"

using namespace loom;
using Catch::Matchers::Contains;
using gpu_test::opencl_target;

namespace {

struct Blur {
    ImageParam in{UInt(16), 2, "blur_in"};
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func bx{"insp_bx"}, by{"insp_by"};
    Blur() {
        bx(x, y) = in(x, y) + in(x + 1, y);
        by(x, y) = bx(x, y) + bx(x, y + 1);
        by.gpu_tile(x, y, xo, yo, xi, yi, 16, 8, TailStrategy::GuardWithIf);
        bx.compute_at(by, xo).gpu_threads(x, y);
    }
};

} // namespace

TEST_CASE("device source of a GPU pipeline", "[gpu]") {
    Blur b;
    std::string src = b.by.device_source({b.in}, opencl_target());
    CHECK_THAT(src, Contains("__kernel"));
    CHECK_THAT(src, Contains("reqd_work_group_size(16, 9, 1)"));
    CHECK_THAT(src, Contains("barrier(CLK_LOCAL_MEM_FENCE)"));
    CHECK_THAT(src, Contains("__local"));
    CHECK_THAT(src, Contains("Func insp_by"));

    loom_test::ScratchFile file("gpu", "insp.cl");
    b.by.compile_to_device_source(file.path, {b.in}, opencl_target());
    std::string written = loom_test::read_text(file.path);
    CHECK_THAT(written, Contains("__kernel"));
    CHECK_THAT(written, Contains("reqd_work_group_size(16, 9, 1)"));

    // A CPU pipeline has no kernels, and says so.
    Func cpu("insp_cpu");
    cpu(b.x) = b.x;
    CHECK_THAT(cpu.device_source({}, get_host_target()), Contains("no GPU kernels"));
}

TEST_CASE("lowered statement shows copies, launches and kernels", "[gpu]") {
    Blur b;
    loom_test::ScratchFile file("gpu", "insp.stmt");
    b.by.compile_to_lowered_stmt(file.path, {b.in}, StmtOutputFormat::Text, opencl_target());
    std::string stmt = loom_test::read_text(file.path);
    CHECK_THAT(stmt, Contains("loom_buffer_prepare_device_input(__user_context, blur_in.buffer"));
    CHECK_THAT(stmt, Contains("loom_device_run("));
    CHECK_THAT(stmt, Contains("<loom device source: OpenCL>"));
    CHECK_THAT(stmt, Contains("loom_buffer_set_device_dirty(__user_context, insp_by.buffer"));
    CHECK_THAT(stmt, Contains("kernel insp_by_s0_y_yo of Func insp_by"));
    CHECK_THAT(stmt, Contains("gpu_thread_barrier()"));
}
