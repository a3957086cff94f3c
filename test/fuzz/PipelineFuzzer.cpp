// Fuzz harness 1: random pipelines and schedules (RandomProgram.h), realized
// in the JIT (and every LOOM_FUZZ_C_EVERY-th success again through the C
// backend) and compared value by value with the reference (Reference.h).
// CompileError and RuntimeError are refusals; anything else is a finding.

#include <cstdlib>
#include <cstring>
#include <sstream>

#include "FuzzReport.h"
#include "Loom.h"
#include "RandomProgram.h"
#include "Reference.h"

using namespace loom;
using loom::Internal::ScalarValue;

namespace loom_fuzz {
namespace {

ScalarValue read_output(const Buffer<> &out, Type t, int x, int y) {
    const loom_buffer_t *raw = out.raw_buffer();
    const uint8_t *at = raw->host + (int64_t(x - raw->dim[0].min) * raw->dim[0].stride +
                                     int64_t(y - raw->dim[1].min) * raw->dim[1].stride) *
                                        (t.bits / 8);
    if (t.is_float()) {
        float v;
        std::memcpy(&v, at, 4);
        return ScalarValue::make_float(t, v);
    }
    if (t.is_int()) {
        int32_t v;
        std::memcpy(&v, at, 4);
        return ScalarValue::make_int(t, v);
    }
    if (t.bits == 16) {
        uint16_t v;
        std::memcpy(&v, at, 2);
        return ScalarValue::make_uint(t, v);
    }
    return ScalarValue::make_uint(t, *at);
}

// Sets LOOM_JIT_BACKEND=c for one realization.
struct BackendScope {
    bool c;
    explicit BackendScope(bool c) : c(c) {
        if (c) setenv("LOOM_JIT_BACKEND", "c", 1);
    }
    ~BackendScope() {
        if (c) unsetenv("LOOM_JIT_BACKEND");
    }
};

enum class Outcome { Refused, Ran, Finding };

Outcome run_once(const uint8_t *data, size_t size, bool c_backend) {
    FuzzInput in(data, size);
    Program p;
    const char *backend = c_backend ? "C backend" : "LLVM JIT";
    Buffer<> out;
    Type out_type;
    try {
        decode_algorithm(in, p);
        decode_schedule(in, p);
        if (verbose())
            std::fprintf(stderr, "--- program (%s) ---\n%s", backend, p.text.str().c_str());
        out_type = p.stages.back().type;
        out = Buffer<>(out_type, {p.out_w, p.out_h}, "out");
        out.set_min({p.out_min_x, p.out_min_y});
        BackendScope scope(c_backend);
        // strict_float: without it Loom may fuse a * b + c into an FMA (as
        // Halide does), which the reference does not model.
        Target target = get_jit_target_from_environment().with_feature(Target::StrictFloat);
        p.stages.back().func.realize(Realization({out}), target);
    } catch (const CompileError &e) {
        stats().compile_errors++;
        count_refusal(c_backend ? "[C] compile: " : "compile: ", e.what());
        if (verbose()) std::fprintf(stderr, "CompileError: %s\n", e.what());
        return Outcome::Refused;
    } catch (const RuntimeError &e) {
        stats().runtime_errors++;
        count_refusal(c_backend ? "[C] runtime: " : "runtime: ", e.what());
        if (verbose()) std::fprintf(stderr, "RuntimeError: %s\n", e.what());
        return Outcome::Refused;
    } catch (const InternalError &e) {
        report_finding(std::string("InternalError, ") + backend, e.what(), p.text.str());
        return Outcome::Finding;
    } catch (const std::exception &e) {
        report_finding(std::string("unexpected exception, ") + backend, e.what(), p.text.str());
        return Outcome::Finding;
    }

    Reference ref(p);
    int n = int(p.stages.size()) - 1;
    int wrong = 0;
    std::ostringstream details;
    try {
        for (int y = p.out_min_y; y < p.out_min_y + p.out_h; y++) {
            for (int x = p.out_min_x; x < p.out_min_x + p.out_w; x++) {
                auto [expected, undefined] = ref.value(n, x, y);
                if (undefined) {
                    stats().points_undefined++;
                    continue;
                }
                stats().points_compared++;
                ScalarValue got = read_output(out, out_type, x, y);
                if (!got.same_as(expected)) {
                    if (wrong++ < 5)
                        details << "at (" << x << ", " << y << "): got " << got.to_string()
                                << ", expected " << expected.to_string() << "\n";
                }
            }
        }
    } catch (const std::exception &e) {
        report_finding("the reference failed (a harness bug)", e.what(), p.text.str());
        return Outcome::Finding;
    }
    if (wrong) {
        details << wrong << " of " << p.out_w * p.out_h << " values wrong";
        report_finding(std::string("wrong result, ") + backend, details.str(), p.text.str());
        return Outcome::Finding;
    }
    return Outcome::Ran;
}

long c_backend_every() {
    static const long every = [] {
        const char *v = std::getenv("LOOM_FUZZ_C_EVERY");
        return v && *v ? std::strtol(v, nullptr, 10) : 10L;
    }();
    return every;
}

} // namespace
} // namespace loom_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace loom_fuzz;
    stats().executions++;
    if (run_once(data, size, false) != Outcome::Ran) return 0;
    stats().succeeded++;
    long every = c_backend_every();
    if (every > 0 && stats().succeeded % every == 0) {
        stats().c_backend_runs++;
        run_once(data, size, true);
    }
    return 0;
}
