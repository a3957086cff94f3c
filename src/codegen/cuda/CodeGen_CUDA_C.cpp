// The CUDA C dialect of the GPU printer: its hooks only (see
// CodeGen_GPU_C.h); the kernel layout and all expression and statement
// printing are shared with OpenCL C and the C backend.

#include "codegen/cuda/CodeGen_CUDA_C.h"

#include <map>
#include <set>
#include <sstream>

#include "analysis/ModulusRemainder.h"
#include "codegen/gpu/CodeGen_GPU_C.h"
#include "ir/Error.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "lower/CUDACapability.h"

namespace loom {
namespace Internal {

namespace {

// NVRTC has no standard headers: the fixed-width types and the macros the C
// backend prints come from here (nvcc gets them from the system headers).
const char *const standard_definitions = R"(#ifdef __CUDACC_RTC__
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#define INT64_C(c) c##LL
#define UINT64_C(c) c##ULL
#define INT64_MIN (-INT64_C(9223372036854775807) - 1)
#define NAN __int_as_float(0x7fffffff)
#define INFINITY __int_as_float(0x7f800000)
#else
#include <math.h>
#include <stdint.h>
#endif
)";

// IEEE binary16 without cuda_fp16.h (which NVRTC cannot include without the
// toolkit's include folder): stored as 16 bits, computed in float, rounded
// to half by every conversion into it (the PTX cvt instructions, so a
// double or a 32/64-bit integer is rounded once, not through float). An
// operation on two halves computed in float and rounded to half is the
// correctly rounded half result.
const char *const half_definition = R"(struct loom_half {
    unsigned short bits;
    loom_half() = default;
    __device__ loom_half(float f) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(f)); }
    __device__ loom_half(double d) { asm("cvt.rn.f16.f64 %0, %1;" : "=h"(bits) : "d"(d)); }
    __device__ loom_half(int i) { asm("cvt.rn.f16.s32 %0, %1;" : "=h"(bits) : "r"(i)); }
    __device__ loom_half(unsigned int i) { asm("cvt.rn.f16.u32 %0, %1;" : "=h"(bits) : "r"(i)); }
    __device__ loom_half(long long i) { asm("cvt.rn.f16.s64 %0, %1;" : "=h"(bits) : "l"(i)); }
    __device__ loom_half(unsigned long long i) {
        asm("cvt.rn.f16.u64 %0, %1;" : "=h"(bits) : "l"(i));
    }
    __device__ loom_half(long i) : loom_half((long long)i) {}
    __device__ loom_half(unsigned long i) : loom_half((unsigned long long)i) {}
    __device__ operator float() const {
        float f;
        asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(bits));
        return f;
    }
};
)";

class CodeGen_CUDA_C : public CodeGen_GPU_C {
public:
    explicit CodeGen_CUDA_C(const Target &t)
        : CodeGen_GPU_C(t), capability(cuda_capability_for_codegen(t)) {}

protected:
    /** The compute capability the source is for (atomics). */
    const int capability;
    bool uses_half = false;
    /** C names of the current kernel's buffer parameters and shared arrays:
     * the memories vector accesses may use. */
    std::set<std::string> global_buffers, shared_memories;
    /** What the enclosing lets are known to be modulo a constant. */
    Scope<ModulusRemainder> let_alignment;
    /** The same, where the kernel's integer parameters (a buffer's mins and
     * strides, an output's extents) are multiples of 16 ... */
    Scope<ModulusRemainder> let_alignment_if_params_aligned;
    /** ... and which of those parameters each let depends on. */
    Scope<std::set<std::string>> let_parameters;
    /** The current kernel's integer parameters (Loom names). */
    std::set<std::string> integer_parameters;
    /** Flags declared in the current kernel, by their condition. */
    std::map<std::string, std::string> condition_flags;

    /** The integer parameters that e depends on, through lets too. */
    std::set<std::string> parameters_of(const Expr &e) const {
        std::set<std::string> found;
        for (const std::string &v : free_variables(e)) {
            if (integer_parameters.count(v)) found.insert(v);
            if (const std::set<std::string> *via = let_parameters.find(v))
                found.insert(via->begin(), via->end());
        }
        return found;
    }

    void bind_let_facts(const std::string &name, const Expr &value) {
        let_alignment.push(name, modulus_remainder(value, let_alignment));
        let_alignment_if_params_aligned.push(
            name, modulus_remainder(value, let_alignment_if_params_aligned));
        let_parameters.push(name, parameters_of(value));
    }
    void unbind_let_facts(const std::string &name) {
        let_alignment.pop(name);
        let_alignment_if_params_aligned.pop(name);
        let_parameters.pop(name);
    }

    /** A kernel-scope flag holding `condition` (declared once per kernel). */
    std::string kernel_flag(const std::string &condition) {
        auto it = condition_flags.find(condition);
        if (it != condition_flags.end()) return it->second;
        std::string flag = "_aligned" + std::to_string(condition_flags.size());
        kernel_scope_declarations.push_back("const bool " + flag + " = " + condition + ";");
        condition_flags[condition] = flag;
        return flag;
    }

    static bool is_half(Type t) { return t.is_float() && t.bits == 16; }

    /** CUDA's own name of an atomic operand type (atomicAdd has overloads
     * for these; int64_t is `long` under nvcc, which has none). */
    static std::string atomic_type(Type t) {
        if (t.is_float()) return t.bits == 64 ? "double" : "float";
        switch (t.bits) {
        case 8:
            return t.is_int() ? "signed char" : "unsigned char";
        case 16:
            return t.is_int() ? "short" : "unsigned short";
        case 32:
            return t.is_int() ? "int" : "unsigned int";
        case 64:
            return t.is_int() ? "long long" : "unsigned long long";
        }
        return "";
    }

    // ---- CodeGen_C's dialect hooks ----
    std::string c_type(Type t) const override {
        if (is_half(t)) return "loom_half";
        return CodeGen_C::c_type(t);
    }

    std::string zero_of(Type t) const override {
        return is_half(t) ? "loom_half(0.0f)" : CodeGen_C::zero_of(t);
    }

    std::string helper_prefix() const override { return "static __device__ inline"; }

    std::string warp_shuffle(Type t, const std::string &value, const std::string &lane,
                             const std::string &width) override {
        // __shfl_sync takes 32- and 64-bit values; narrower ones travel as int.
        bool native = t.bits >= 32 && !t.is_bool();
        std::string v = native ? value : "(int)(" + value + ")";
        std::string call = "__shfl_sync(0xffffffffu, " + v + ", " + lane + ", " + width + ")";
        return native ? call : "(" + c_type(t) + ")" + call;
    }

    std::string float_arithmetic(Type t, const std::string &a, const char *op,
                                 const std::string &b) override {
        // A product rounded on its own never contracts into a multiply-add.
        if (target.has_feature(Target::StrictFloat) && std::string(op) == "*" && !is_half(t))
            return std::string(t.bits == 64 ? "__dmul_rn(" : "__fmul_rn(") + a + ", " + b + ")";
        return CodeGen_C::float_arithmetic(t, a, op, b);
    }

    std::string bit_count(Intrinsic op, Type arg, const std::string &x) override {
        bool wide = arg.bits == 64;
        auto popcount = [&](const std::string &v) {
            return wide ? "__popcll((unsigned long long)" + v + ")" : "__popc((unsigned)" + v + ")";
        };
        if (op == Intrinsic::popcount) return popcount(x);
        if (op == Intrinsic::count_leading_zeros) {
            if (wide) return "__clzll((long long)" + x + ")";
            std::string adjust = arg.bits < 32 ? " - " + std::to_string(32 - arg.bits) : "";
            return "(__clz((int)(unsigned)" + x + ")" + adjust + ")";
        }
        // The ones below the lowest set bit: the width at zero.
        return popcount("(" + c_type(arg) + ")(~" + x + " & (" + x + " - 1))");
    }

    /** The bytes of each vector access of a dense access of type t (8 or
     * 16), or 0 when it is not done with vector accesses. */
    static int vector_access_bytes(Type t) {
        if (t.is_bool()) return 0;
        int total = t.bytes() * t.lanes;
        if (total == 4 && t.lanes > 1) return 4;
        if (total == 8) return 8;
        if (total % 16 == 0 && total <= 64) return 16;
        return 0;
    }

    /** The condition under which a dense access of type t at base_index
     * in `memory` may use vector accesses of `chunk` bytes: "" when it never
     * may, "true" when always, else a flag computed once per kernel. An
     * index known to be a multiple of the word needs only the pointer's
     * alignment (a crop may start anywhere). An index that is a multiple
     * when the kernel's parameters it depends on are (a buffer's min and
     * stride are parameters) gets a flag that checks those too, once per
     * kernel (a check of each access's address cost more than it saved in
     * tight loops on an H100). */
    std::string vector_access_condition(Type t, const Symbol &memory, const Expr &base_index,
                                        int chunk) {
        if (chunk == 0) return "";
        bool global = global_buffers.count(memory.c_name) > 0;
        if (!global && !shared_memories.count(memory.c_name)) return "";
        const int elements = chunk / t.bytes();
        std::vector<std::string> conditions;
        if (!modulus_remainder(base_index, let_alignment).is_multiple_of(elements)) {
            // Only vectors of 8 or more lanes: narrower ones are often loaded
            // again by unrolled neighbours (a matrix product's rows), which
            // the compiler no longer shares once each copy is guarded.
            if (t.lanes < 8 || !modulus_remainder(base_index, let_alignment_if_params_aligned)
                                    .is_multiple_of(elements))
                return "";
            for (const std::string &p : parameters_of(base_index))
                conditions.push_back("(" + symbol(p).c_name + " & " + std::to_string(elements - 1) +
                                     ") == 0");
        }
        if (global)
            conditions.insert(conditions.begin(),
                              "((unsigned long long)" + memory.c_name + " & 15) == 0");
        if (conditions.empty()) return "true"; // shared arrays are 16-byte aligned
        std::string all;
        for (const std::string &c : conditions) all += (all.empty() ? "" : " && ") + c;
        return kernel_flag(all);
    }

    static const char *vector_word(int chunk) {
        return chunk == 4 ? "unsigned int" : chunk == 8 ? "uint2" : "uint4";
    }

    /** A dense access of type t with vector words: its guard (see
     * vector_access_condition; "" when it may not use them), the typed
     * pointer, the type and number of the words that make the vector, and
     * its lanes. */
    struct VectorAccess {
        std::string condition, ptr, word;
        int chunk = 0, words = 0, lanes = 0;
    };

    VectorAccess vector_access(Type t, const Symbol &memory, const Expr &base_index) {
        VectorAccess a;
        a.chunk = vector_access_bytes(t);
        a.condition = vector_access_condition(t, memory, base_index, a.chunk);
        if (a.condition.empty()) return a;
        a.ptr = memory_pointer(memory, t);
        a.word = vector_word(a.chunk);
        a.words = t.bytes() * t.lanes / a.chunk;
        a.lanes = t.lanes;
        return a;
    }

    /** Prints word_lines(i, w) for each word i of the access (w: a fresh
     * local's name) under its guard, and `fallback`, a loop over the lanes,
     * where the guard does not hold. */
    template <typename F>
    void print_vector_words(const VectorAccess &a, F word_lines, const std::string &fallback) {
        if (a.condition != "true") {
            line() << "if (" << a.condition << ") {\n";
            indent_level++;
        }
        for (int i = 0; i < a.words; i++) word_lines(i, "_w" + std::to_string(next_id++));
        if (a.condition != "true") {
            indent_level--;
            line() << "} else {\n";
            indent_level++;
            lane_loop(a.lanes, fallback);
            indent_level--;
            line() << "}\n";
        }
    }

    std::string dense_vector_load(Type t, const Symbol &memory, const Expr &base_index,
                                  const std::string &base) override {
        VectorAccess a = vector_access(t, memory, base_index);
        if (a.condition.empty()) return "";
        std::string v = vector_local(t);
        print_vector_words(
            a,
            [&](int i, const std::string &w) {
                line() << a.word << " " << w << " = ((const " << a.word << " *)(" << a.ptr << " + "
                       << base << "))[" << i << "];\n";
                line() << "memcpy((char *)" << v << " + " << i * a.chunk << ", &" << w << ", "
                       << a.chunk << ");\n";
            },
            v + "[_l] = " + a.ptr + "[" + base + " + _l];");
        return v;
    }

    bool dense_vector_store(Type t, const Symbol &memory, const Expr &base_index,
                            const std::string &base, const std::string &v) override {
        VectorAccess a = vector_access(t, memory, base_index);
        if (a.condition.empty()) return false;
        print_vector_words(
            a,
            [&](int i, const std::string &w) {
                line() << a.word << " " << w << ";\n";
                line() << "memcpy(&" << w << ", (const char *)" << v << " + " << i * a.chunk << ", "
                       << a.chunk << ");\n";
                line() << "((" << a.word << " *)(" << a.ptr << " + " << base << "))[" << i
                       << "] = " << w << ";\n";
            },
            a.ptr + "[" + base + " + _l] = " + v + "[_l];");
        return true;
    }

    // ---- CodeGen_GPU_C's dialect hooks ----
    std::string dialect_name() const override { return "CUDA C"; }

    std::string preamble() override {
        std::ostringstream s;
        s << "/* CUDA C kernels generated by Loom for target " << target.to_string()
          << " (compute capability " << capability / 10 << "." << capability % 10
          << " or later). IEEE floats: compile without --use_fast_math. */\n"
          << standard_definitions;
        if (uses_half) s << half_definition;
        s << "\n";
        return s.str();
    }

    void check_kernel(const DeviceKernel &k) override {
        global_buffers.clear();
        shared_memories.clear();
        condition_flags.clear();
        integer_parameters.clear();
        let_alignment_if_params_aligned = Scope<ModulusRemainder>();
        for (const DeviceKernelArg &a : k.args) {
            if (a.is_buffer || !a.type.is_int_or_uint() || a.type.is_vector()) continue;
            integer_parameters.insert(a.name);
            let_alignment_if_params_aligned.push(a.name, ModulusRemainder{16, 0});
        }
        uses_half = uses_half || uses_type(k, [](Type t) { return is_half(t); });
    }

    std::string kernel_declaration(const DeviceKernel &k) override {
        int64_t threads = int64_t(k.threads[0]) * k.threads[1] * k.threads[2];
        // The exact block size lets ptxas budget registers for it; a size
        // unknown here (or over CUDA's 1024) gets no bound.
        if (threads <= 0 || threads > 1024) return "extern \"C\" __global__ void";
        return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(threads) + ")";
    }

    std::string buffer_parameter(const DeviceKernelArg &a, const std::string &c_name) override {
        global_buffers.insert(c_name);
        bool read_only = a.read && !a.written;
        return std::string(read_only ? "const " : "") + c_memory_type(a.type) + " *__restrict__ " +
               c_name;
    }

    std::string dynamic_shared_parameter(const std::string &) override { return ""; }

    std::string shared_declaration(const std::string &c_name, int64_t bytes) override {
        shared_memories.insert(c_name);
        if (bytes < 0) return "extern __shared__ __align__(16) unsigned char " + c_name + "[];";
        return "__shared__ __align__(16) unsigned char " + c_name + "[" + std::to_string(bytes) +
               "];";
    }

    std::string global_address_space() const override { return ""; }
    std::string shared_address_space() const override { return ""; }

    std::string block_id(int dim) const override {
        return std::string("(int)blockIdx.") + "xyz"[dim];
    }
    std::string thread_id(int dim) const override {
        return std::string("(int)threadIdx.") + "xyz"[dim];
    }

    std::string barrier() const override { return "__syncthreads();"; }
    std::string memory_fence() const override { return "__threadfence();"; }

    std::string atomic_pointer_type(Type t, const std::string &) const override {
        std::string name = atomic_type(t);
        internal_assert(!name.empty(), "CUDA C: no atomic type for " << type_to_string(t));
        return name + " *";
    }

    std::string atomic_rmw(AtomicOp op, Type t, const std::string &ptr,
                           const std::string &operand) override {
        if (t.bits < 32) return "";
        std::string T = atomic_type(t);
        std::string x = "(" + T + ")(" + operand + ")";
        if (t.is_float()) {
            // atomicAdd on doubles is native from compute capability 6.0.
            if (t.bits == 64 && capability < 60) return "";
            if (op == AtomicOp::Add) return "atomicAdd(" + ptr + ", " + x + ");";
            if (op == AtomicOp::Sub) return "atomicAdd(" + ptr + ", -" + x + ");";
            return "";
        }
        if (t.bits == 32) {
            static const char *const names[] = {"atomicAdd", "atomicSub", "atomicMin", "atomicMax",
                                                "atomicAnd", "atomicOr",  "atomicXor"};
            return std::string(names[int(op)]) + "(" + ptr + ", " + x + ");";
        }
        // 64 bits: add, subtract and bitwise operations wrap the same in
        // unsigned long long, which has them all.
        std::string u = "(unsigned long long *)(" + ptr + ")";
        std::string ux = "(unsigned long long)(" + operand + ")";
        switch (op) {
        case AtomicOp::Add:
            return "atomicAdd(" + u + ", " + ux + ");";
        case AtomicOp::Sub:
            return "atomicAdd(" + u + ", 0ull - " + ux + ");";
        case AtomicOp::Min:
        case AtomicOp::Max:
            if (capability < 35) return "";
            return std::string(op == AtomicOp::Min ? "atomicMin(" : "atomicMax(") + ptr + ", " + x +
                   ");";
        case AtomicOp::And:
            return "atomicAnd(" + u + ", " + ux + ");";
        case AtomicOp::Or:
            return "atomicOr(" + u + ", " + ux + ");";
        case AtomicOp::Xor:
            return "atomicXor(" + u + ", " + ux + ");";
        }
        return "";
    }

    std::string atomic_cas(Type bits, const std::string &ptr, const std::string &expected,
                           const std::string &desired) override {
        if (bits.bits < 16) return "";
        if (bits.bits == 16 && capability < 70) {
            user_error(kernel_description()
                       << " updates memory atomically with 16-bit values, which CUDA devices "
                          "can do from compute capability 7.0 (cuda_capability_70) on, but the "
                          "target asks for "
                       << capability / 10 << "." << capability % 10
                       << ": name cuda_capability_70 or later, or update 32-bit values");
        }
        std::string T = atomic_type(bits);
        return "atomicCAS(" + ptr + ", (" + T + ")(" + expected + "), (" + T + ")(" + desired +
               "))";
    }

public:
    using CodeGen_GPU_C::visit;
    void visit(const LetStmt *op) override {
        bind_let_facts(op->name, op->value);
        CodeGen_GPU_C::visit(op);
        unbind_let_facts(op->name);
    }
    void visit(const Let *op) override {
        bind_let_facts(op->name, op->value);
        CodeGen_GPU_C::visit(op);
        unbind_let_facts(op->name);
    }
};

} // namespace

std::string codegen_cuda_c(const std::vector<DeviceKernel> &kernels, const Target &target) {
    CodeGen_CUDA_C cg(target);
    for (const DeviceKernel &k : kernels) cg.add_kernel(k);
    return cg.program();
}

} // namespace Internal
} // namespace loom
