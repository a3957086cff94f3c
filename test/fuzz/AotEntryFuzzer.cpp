// Fuzz harness 2: garbage where Loom meets the outside world. Each input is
// one of: a target string for Target parsing (and, when it parses, a JIT
// realize for it), a command line for the generator driver, or
// loom_buffer_t contents (types, dimensions, NULL pointers, mins, extents,
// strides, flags) for the entry points of an AOT-compiled pipeline
// (FuzzGenerator.cpp). Every call must succeed or fail with an error code and
// a message; a crash, an InternalError, a write outside the output's
// elements or a wrong value on success is a finding.

#include <sys/mman.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "FuzzInput.h"
#include "FuzzReport.h"
#include "Loom.h"
#include "LoomRuntime.h"
#include "fuzz_aot.h"

using namespace loom;

namespace loom_fuzz {
namespace {

// ---------------------------------------------------------------------------
// Target strings.

std::string garbage_word(FuzzInput &in) {
    std::string w;
    int n = in.range(0, 6);
    for (int i = 0; i < n; i++) w += char(in.byte());
    return w;
}

std::string target_string(FuzzInput &in) {
    static const std::vector<std::string> words = {"host",
                                                   "x86",
                                                   "64",
                                                   "32",
                                                   "arm",
                                                   "riscv",
                                                   "wasm",
                                                   "linux",
                                                   "osx",
                                                   "windows",
                                                   "android",
                                                   "ios",
                                                   "avx",
                                                   "avx2",
                                                   "avx512",
                                                   "sse41",
                                                   "f16c",
                                                   "fma",
                                                   "avx512_skylake",
                                                   "cuda",
                                                   "opencl",
                                                   "cuda_capability_75",
                                                   "cuda_capability_30",
                                                   "strict_float",
                                                   "large_buffers",
                                                   "no_asserts",
                                                   "no_bounds_query",
                                                   "debug",
                                                   "jit",
                                                   "cl_doubles",
                                                   "hexagon",
                                                   "vulkan",
                                                   "metal",
                                                   "trace_all",
                                                   "-",
                                                   "",
                                                   "0",
                                                   "999999999999",
                                                   "x86-64-linux",
                                                   "host-cuda",
                                                   "arm-64-linux",
                                                   "x86-32-linux",
                                                   "x86-64-osx",
                                                   "x86-64-windows",
                                                   "riscv-64-linux"};
    std::string s;
    int n = in.range(0, 6);
    for (int i = 0; i < n; i++) {
        if (i) s += in.chance(15) ? std::string(1, char(in.byte())) : "-";
        s += in.chance(15) ? garbage_word(in) : in.pick(words);
    }
    return s;
}

void fuzz_target(FuzzInput &in, std::string &program) {
    std::string s = target_string(in);
    program = "Target(\"" + s + "\")";
    bool valid = false;
    try {
        valid = Target::validate_target_string(s);
    } catch (const std::exception &e) {
        report_finding("validate_target_string threw", e.what(), program);
        return;
    }
    Target t;
    try {
        t = Target(s);
    } catch (const CompileError &e) {
        stats().compile_errors++;
        count_refusal("target: ", e.what());
        if (valid)
            report_finding("validate_target_string accepts what Target() refuses", e.what(),
                           program);
        return;
    } catch (const std::exception &e) {
        report_finding("Target() threw something other than CompileError", e.what(), program);
        return;
    }
    if (!valid) {
        report_finding("Target() accepts what validate_target_string refuses", t.to_string(),
                       program);
        return;
    }
    try {
        std::string text = t.to_string();
        Target again(text);
        if (!(again == t)) {
            report_finding("Target does not survive to_string() and back",
                           text + " reads back as " + again.to_string(), program);
            return;
        }
        (void)t.validate();
        (void)t.words_without_code_generation();
    } catch (const std::exception &e) {
        report_finding("a parsed Target failed to print or validate", e.what(), program);
        return;
    }
    // Realizing for it: runs, or a CompileError if this host cannot run it.
    if (in.chance(50)) {
        try {
            Var x("x");
            Func f("fuzz_target_func");
            f(x) = x * 3 + 1;
            if (in.chance(50)) f.vectorize(x, 4).parallel(x);
            Buffer<int> out = f.realize({13}, t);
            for (int i = 0; i < 13; i++) {
                if (out(i) != i * 3 + 1) {
                    report_finding("wrong result for a target", "at " + std::to_string(i), program);
                    return;
                }
            }
        } catch (const CompileError &e) {
            stats().compile_errors++;
            count_refusal("target realize: ", e.what());
            return;
        } catch (const RuntimeError &e) {
            stats().runtime_errors++;
            count_refusal("target realize: ", e.what());
            return;
        } catch (const std::exception &e) {
            report_finding("realize for a target threw something else", e.what(), program);
            return;
        }
    }
    stats().succeeded++;
}

// ---------------------------------------------------------------------------
// The generator driver's command line.

std::string scratch_dir() {
    static const std::string dir = [] {
        char tmpl[] = "/tmp/loom_fuzz_driver_XXXXXX";
        const char *d = mkdtemp(tmpl);
        return std::string(d ? d : "/tmp");
    }();
    return dir;
}

void fuzz_driver(FuzzInput &in, std::string &program) {
    static const std::vector<std::string> words = {"-g",
                                                   "-o",
                                                   "-e",
                                                   "-f",
                                                   "-n",
                                                   "--list",
                                                   "--autotune",
                                                   "-x",
                                                   "fuzz_aot",
                                                   "nope",
                                                   "",
                                                   "static_library",
                                                   "h",
                                                   "stmt",
                                                   "c_source",
                                                   "object",
                                                   "assembly",
                                                   "llvm_assembly",
                                                   "bitcode",
                                                   "schedule",
                                                   "device_source",
                                                   "static_library,h",
                                                   ",",
                                                   "stmt,,h",
                                                   "target=host",
                                                   "target=x86-64-linux",
                                                   "target=arm-64-linux",
                                                   "target=host-cuda",
                                                   "target=",
                                                   "target=x86-65",
                                                   "radius=2",
                                                   "radius=9",
                                                   "radius=-1",
                                                   "radius=",
                                                   "radius=1.5",
                                                   "vectorized=false",
                                                   "vectorized=yes",
                                                   "parallel_rows=true",
                                                   "=",
                                                   "==",
                                                   "offset=3",
                                                   "autoscheduler=Loom",
                                                   "autoscheduler=nope",
                                                   "input.type=uint8",
                                                   "output.type=float32",
                                                   "0",
                                                   "-1",
                                                   "1e9",
                                                   "fn",
                                                   "a b",
                                                   "_"};
    std::vector<std::string> args = {"fuzz_aot_entry"};
    int n = in.range(0, 8);
    for (int i = 0; i < n; i++) {
        std::string a = in.chance(15) ? garbage_word(in) : in.pick(words);
        // A garbage path could write anywhere: -o always names the scratch
        // folder, and names are single path components.
        if (!args.empty() && args.back() == "-o") a = scratch_dir();
        if (!args.empty() && (args.back() == "-n" || args.back() == "-f"))
            std::replace(a.begin(), a.end(), '/', '_');
        // --autotune with a valid time runs for that long: keep it invalid.
        if (!args.empty() && args.back() == "--autotune") a = in.chance(50) ? "0" : "x";
        args.push_back(a);
    }
    program = "driver";
    for (size_t i = 1; i < args.size(); i++) program += " '" + args[i] + "'";
    std::vector<char *> argv;
    for (std::string &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::ostringstream out, err;
    int status = 0;
    try {
        status = Internal::generate_filter_main(int(args.size()), argv.data(), out, err);
    } catch (const std::exception &e) {
        report_finding("the driver threw", e.what(), program);
        return;
    }
    std::string message = err.str();
    if (message.find("nternal error") != std::string::npos) {
        report_finding("the driver reported an InternalError", message, program);
        return;
    }
    if (status != 0 && status != 1) {
        report_finding("the driver returned neither 0 nor 1", std::to_string(status), program);
        return;
    }
    if (status == 1 && message.empty()) {
        report_finding("the driver failed without a message", "", program);
        return;
    }
    if (status == 1) {
        stats().compile_errors++;
        std::string line = message.substr(
            message.find("error: ") == std::string::npos ? 0 : message.find("error: ") + 7);
        count_refusal("driver: ", line);
        return;
    }
    stats().succeeded++;
}

// ---------------------------------------------------------------------------
// Garbage buffers for the AOT entry points.

constexpr uint8_t canary = 0xa5;
constexpr size_t guard = 64;

/** A loom_buffer_t and the memory it describes, with guard bytes around it. */
struct FuzzBuffer {
    loom_buffer_t buf{};
    loom_dimension_t dims[8]{};
    uint8_t *base = nullptr; // the allocation (calloc or mmap)
    size_t alloc_bytes = 0;
    bool mapped = false;
    bool checkable = false; // small enough to scan for stray writes
    bool proper = false;    // the type and dimensions the pipeline wants, memory present
    int64_t low = 0;        // element offset of the lowest element from host

    FuzzBuffer() = default;
    FuzzBuffer(const FuzzBuffer &) = delete;
    FuzzBuffer &operator=(const FuzzBuffer &) = delete;
    ~FuzzBuffer() {
        if (mapped) {
            munmap(base, alloc_bytes);
        } else {
            std::free(base);
        }
    }
};

int dim_value(FuzzInput &in, int small_lo, int small_hi) {
    static const std::vector<int> extreme = {0,           -1,          INT_MAX, INT_MIN,
                                             INT_MAX - 5, INT_MIN + 5, 1 << 30, -(1 << 30),
                                             1 << 16,     65535,       1 << 24, 3};
    return in.chance(12) ? in.pick(extreme) : in.range(small_lo, small_hi);
}

// Fill `b` from the input; `elem` is the element type the pipeline expects.
// `fit`, when given, is an output the buffer should cover as the pipeline's
// input (mins and extents of two dimensions), so that some calls succeed.
void make_buffer(FuzzInput &in, FuzzBuffer &b, loom_type_t elem, std::ostream &text,
                 const char *name, const loom_dimension_t *fit = nullptr) {
    b.buf.type = elem;
    if (in.chance(15)) {
        b.buf.type.code = uint8_t(in.range(0, 5));
        static const std::vector<int> bits = {1, 8, 16, 32, 64, 0, 7, 255};
        b.buf.type.bits = uint8_t(in.pick(bits));
        b.buf.type.lanes = uint16_t(in.chance(20) ? in.range(0, 300) : 1);
    }
    b.buf.dimensions = in.chance(12) ? in.range(-2, 8) : 2;
    int dims = std::clamp(b.buf.dimensions, 0, 8);
    for (int d = 0; d < dims; d++) {
        loom_dimension_t &dim = b.dims[d];
        dim.min = in.chance(30) ? dim_value(in, -40, 40) : in.range(-3, 3);
        dim.extent = in.chance(30) ? dim_value(in, -3, 64) : in.range(1, 24);
        if (fit && d < 2 && in.chance(70)) {
            // The pipeline reads x - 1 .. x + 1 and y .. y + 1 (radius 1).
            int64_t m = int64_t(fit[d].min) - (d == 0 ? 1 : 0) - in.range(0, 1);
            int64_t e = int64_t(fit[d].extent) + (d == 0 ? 2 : 1) + in.range(0, 2);
            if (m >= INT_MIN && e <= INT_MAX) {
                dim.min = int(m);
                dim.extent = int(e);
            }
        }
        int dense = 1;
        for (int e = 0; e < d; e++) dense *= std::max(1, b.dims[e].extent);
        dim.stride = in.chance(25) ? dim_value(in, -64, 64) : (d == 0 ? 1 : dense);
        dim.flags = in.chance(5) ? uint32_t(in.byte()) : 0;
    }
    b.buf.dim = in.chance(4) ? nullptr : b.dims;
    b.buf.flags = in.chance(10) ? uint64_t(in.range(0, 3)) : 0;

    text << name << ": type (" << int(b.buf.type.code) << ", " << int(b.buf.type.bits) << ", "
         << b.buf.type.lanes << "), " << b.buf.dimensions << " dims"
         << (b.buf.dim ? "" : " (dim NULL)") << ", flags " << b.buf.flags;
    for (int d = 0; d < dims; d++)
        text << " [" << b.dims[d].min << ", " << b.dims[d].extent << ", " << b.dims[d].stride
             << "]";

    // The memory the shape describes, if it is small enough to give.
    int64_t low = 0, high = 0, points = 1;
    for (int d = 0; d < dims; d++) {
        int64_t e = b.dims[d].extent;
        if (e <= 0) {
            points = 0;
            continue;
        }
        int64_t reach = (e - 1) * int64_t(b.dims[d].stride);
        (reach < 0 ? low : high) += reach;
        points *= e;
    }
    // Offsets are in elements of the type the pipeline expects (it refuses
    // any other type before it reads or writes).
    size_t elem_bytes = size_t(elem.bits / 8);
    int64_t span = high - low + 1;
    bool host_null = in.chance(8) || points > (1 << 16);
    if (host_null || span > (int64_t(1) << 37) / int64_t(elem_bytes)) {
        text << ", host NULL\n";
        return;
    }
    size_t bytes = size_t(span) * elem_bytes + 2 * guard;
    if (bytes <= (size_t(1) << 26)) {
        b.base = static_cast<uint8_t *>(std::malloc(bytes));
        if (!b.base) return;
        b.checkable = bytes <= (size_t(1) << 20);
        std::memset(b.base, canary, b.checkable ? bytes : std::min(bytes, size_t(1) << 20));
    } else {
        void *m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) {
            text << ", host NULL (mmap failed)\n";
            return;
        }
        b.base = static_cast<uint8_t *>(m);
        b.mapped = true;
    }
    b.alloc_bytes = bytes;
    b.low = low;
    b.buf.host = b.base + guard + size_t(-low) * elem_bytes;
    b.proper = b.buf.dim && b.buf.dimensions == 2 && b.buf.type.code == elem.code &&
               b.buf.type.bits == elem.bits && b.buf.type.lanes == 1;
    text << ", " << bytes << " bytes\n";
}

uint16_t input_at(const FuzzBuffer &b, int64_t x, int64_t y) {
    const loom_dimension_t *d = b.buf.dim;
    int64_t off = (x - d[0].min) * d[0].stride + (y - d[1].min) * d[1].stride;
    uint16_t v;
    std::memcpy(&v, b.buf.host + off * 2, 2);
    return v;
}

std::vector<std::string> error_messages;
void capture_error(void *, const char *message) {
    error_messages.push_back(message ? message : "");
}

void fuzz_aot_call(FuzzInput &in, std::string &program) {
    std::ostringstream text;
    FuzzBuffer input, output;
    make_buffer(in, output, loom_type_t{loom_type_int, 32, 1}, text, "output");
    make_buffer(in, input, loom_type_t{loom_type_uint, 16, 1}, text, "input",
                output.buf.dim && output.buf.dimensions >= 2 ? output.dims : nullptr);
    if (input.buf.host && input.checkable) {
        // Inputs get values (the canary bytes are values too, but make them vary).
        SplitMix rng(in.u32());
        for (size_t i = guard; i + guard < input.alloc_bytes; i++)
            input.base[i] = uint8_t(rng.next());
    }
    std::vector<uint8_t> input_before;
    if (input.checkable) input_before.assign(input.base, input.base + input.alloc_bytes);
    int32_t offset = in.chance(20) ? dim_value(in, -5000, 5000) : in.range(-1000, 1000);
    int how = in.range(0, 9); // 9: through _argv
    bool null_input = in.chance(3), null_output = in.chance(3);
    text << "offset " << offset << (how == 9 ? ", through _argv" : "")
         << (null_input ? ", input pointer NULL" : "")
         << (null_output ? ", output pointer NULL" : "") << "\n";
    program = text.str();
    loom_buffer_t *in_ptr = null_input ? nullptr : &input.buf;
    loom_buffer_t *out_ptr = null_output ? nullptr : &output.buf;

    error_messages.clear();
    loom_error_handler_t old = loom_set_error_handler(capture_error);
    int result;
    if (how == 9) {
        bool null_scalar = in.chance(20), null_argv = in.chance(10);
        void *argv[] = {nullptr, in_ptr, null_scalar ? nullptr : &offset, out_ptr};
        program += null_argv ? "argv NULL\n" : null_scalar ? "offset pointer NULL\n" : "";
        result = fuzz_aot_argv(null_argv ? nullptr : argv);
    } else {
        result = fuzz_aot(in_ptr, offset, out_ptr);
    }
    loom_set_error_handler(old);

    if (result > 0) {
        report_finding("AOT entry returned a positive code", std::to_string(result), program);
        return;
    }
    if (result < 0) {
        if (error_messages.empty()) {
            report_finding("AOT entry failed without a message", std::to_string(result), program);
            return;
        }
        stats().runtime_errors++;
        count_refusal("aot: ", error_messages.front());
    }
    // The input is never written; the output only at its elements.
    if (input.checkable && in_ptr &&
        std::memcmp(input_before.data(), input.base, input.alloc_bytes) != 0) {
        report_finding("AOT entry wrote into its input buffer's memory", "", program);
        return;
    }
    if (output.checkable && out_ptr && output.buf.dim && output.buf.dimensions == 2) {
        std::vector<bool> element(output.alloc_bytes, false);
        const loom_dimension_t *d = output.buf.dim;
        for (int64_t j = 0; j < std::max(d[1].extent, 0); j++)
            for (int64_t i = 0; i < std::max(d[0].extent, 0); i++) {
                int64_t at = int64_t(guard) + (-output.low + i * d[0].stride + j * d[1].stride) * 4;
                for (int k = 0; k < 4; k++) element[size_t(at + k)] = true;
            }
        for (size_t k = 0; k < output.alloc_bytes; k++) {
            if (!element[k] && output.base[k] != canary) {
                report_finding("AOT entry wrote outside its output's elements",
                               "byte " + std::to_string(k) + " of " +
                                   std::to_string(output.alloc_bytes),
                               program);
                return;
            }
        }
    }
    if (result < 0) return;
    stats().succeeded++;
    // On success with real buffers the values must be right, unless output
    // elements share memory (a stride of 0, rows that overlap): then which
    // write lands last is the caller's problem, as in Halide.
    if (!input.proper || !output.proper || !in_ptr || !out_ptr) return;
    const loom_dimension_t *d = output.buf.dim;
    std::vector<int64_t> offsets;
    for (int64_t j = 0; j < d[1].extent; j++)
        for (int64_t i = 0; i < d[0].extent; i++)
            offsets.push_back(i * d[0].stride + j * d[1].stride);
    std::sort(offsets.begin(), offsets.end());
    if (std::adjacent_find(offsets.begin(), offsets.end()) != offsets.end()) return;
    for (int64_t j = 0; j < d[1].extent; j++) {
        for (int64_t i = 0; i < d[0].extent; i++) {
            int64_t x = d[0].min + i, y = d[1].min + j;
            int32_t got;
            std::memcpy(&got, output.buf.host + (i * d[0].stride + j * d[1].stride) * 4, 4);
            int32_t want = int32_t(input_at(input, x - 1, y)) +
                           int32_t(input_at(input, x + 1, y + 1)) + offset;
            stats().points_compared++;
            if (got != want) {
                report_finding("AOT entry computed a wrong value",
                               "at (" + std::to_string(x) + ", " + std::to_string(y) + "): got " +
                                   std::to_string(got) + ", expected " + std::to_string(want),
                               program);
                return;
            }
        }
    }
}

} // namespace
} // namespace loom_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace loom_fuzz;
    stats().executions++;
    FuzzInput in(data, size);
    std::string program;
    int which = in.range(0, 9);
    if (which == 0) {
        fuzz_target(in, program);
    } else if (which == 1) {
        fuzz_driver(in, program);
    } else {
        fuzz_aot_call(in, program);
    }
    if (verbose()) std::fprintf(stderr, "--- case ---\n%s\n", program.c_str());
    return 0;
}
