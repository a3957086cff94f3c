#ifndef LOOM_TEST_LOWER_INTERPRETER_H
#define LOOM_TEST_LOWER_INTERPRETER_H

// A small interpreter for lowered statements over int32 buffers, enough to
// run the [lower] tests' pipelines without a code generator: scalar integer
// arithmetic, lets, loops, asserts, allocations, loads and stores.

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "LoomRuntime.h"
#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IRPrinter.h"
#include "lower/LoweredFunc.h"

namespace lower_test {

using namespace loom;
using namespace loom::Internal;

class LoweredInterpreter {
    std::map<std::string, std::vector<int64_t>> env; // scalar bindings (stack per name)
    std::map<std::string, loom_buffer_t *> buffers;  // "b.buffer" handles
    struct Memory {
        int32_t *data = nullptr;
        int64_t size = 0;
    };
    std::map<std::string, Memory> memory; // host pointers and allocations by name
    std::map<std::string, std::vector<int32_t>> allocations;
    std::vector<Memory> hosts;

    struct Failed {
        int code;
    };

    static int64_t wrap(Type t, int64_t v) {
        if (t.is_bool()) return v != 0;
        if (t.bits >= 64) return v;
        if (t.is_int()) return int64_t(uint64_t(v) << (64 - t.bits)) >> (64 - t.bits);
        return int64_t(uint64_t(v) & ((uint64_t(1) << t.bits) - 1));
    }
    static int64_t euclid_div(int64_t a, int64_t b) {
        if (b == 0) return 0;
        int64_t q = a / b, r = a % b;
        if (r < 0) q += b > 0 ? -1 : 1;
        return q;
    }

    int64_t lookup(const std::string &name) const {
        auto it = env.find(name);
        internal_assert(it != env.end() && !it->second.empty(), "unbound variable " << name);
        return it->second.back();
    }

    loom_buffer_t *buffer_arg(const Expr &e) {
        const Variable *v = e.as<Variable>();
        internal_assert(v && buffers.count(v->name), "not a buffer handle: " << e);
        return buffers[v->name];
    }

    int32_t &element(const std::string &name, int64_t index) {
        auto it = memory.find(name);
        internal_assert(it != memory.end() && it->second.data, "no memory named " << name);
        internal_assert(index >= 0 && index < it->second.size,
                        "access to " << name << "[" << index << "] out of bounds");
        return it->second.data[index];
    }

    int64_t call(const Call *op) {
        if (op->call_type == Call::Extern && op->name == "loom_buffer_dim_is_null") {
            // A query, not an error.
            loom_buffer_t *b = buffer_arg(op->args[1]);
            return b->dimensions > 0 && !b->dim ? 1 : 0;
        }
        if (op->call_type == Call::Extern) {
            last_error = op->name;
            for (const Expr &a : op->args) {
                if (const StringImm *s = a.as<StringImm>())
                    error_strings.push_back(s->value);
                else if (a.type() != Handle())
                    error_values.push_back(eval(a));
            }
            return -1;
        }
        switch (op->op) {
        case Intrinsic::likely:
            return eval(op->args[0]);
        case Intrinsic::buffer_get_host: {
            // Handles are indices into `hosts`; a LetStmt binds the name Loads use.
            loom_buffer_t *b = buffer_arg(op->args[0]);
            int64_t size = 1;
            for (int d = 0; d < b->dimensions; d++)
                size += int64_t(b->dim[d].extent - 1) * b->dim[d].stride;
            hosts.push_back(Memory{reinterpret_cast<int32_t *>(b->host), size});
            return int64_t(hosts.size() - 1);
        }
        case Intrinsic::buffer_get_dimensions:
            return buffer_arg(op->args[0])->dimensions;
        case Intrinsic::buffer_get_type_code:
            return buffer_arg(op->args[0])->type.code;
        case Intrinsic::buffer_get_type_bits:
            return buffer_arg(op->args[0])->type.bits;
        case Intrinsic::buffer_get_type_lanes:
            return buffer_arg(op->args[0])->type.lanes;
        case Intrinsic::buffer_get_min:
            return buffer_arg(op->args[0])->dim[eval(op->args[1])].min;
        case Intrinsic::buffer_get_extent:
            return buffer_arg(op->args[0])->dim[eval(op->args[1])].extent;
        case Intrinsic::buffer_get_stride:
            return buffer_arg(op->args[0])->dim[eval(op->args[1])].stride;
        default:
            internal_error("interpreter cannot run call " << op->name);
        }
    }

public:
    std::string last_error;
    std::vector<std::string> error_strings;
    std::vector<int64_t> error_values;
    int64_t loads = 0, stores = 0;

    void bind_buffer(const std::string &name, loom_buffer_t *b) { buffers[name + ".buffer"] = b; }
    void bind_scalar(const std::string &name, int64_t v) { env[name].push_back(v); }

    int64_t eval(const Expr &e) {
        Type t = e.type();
        switch (e.node_type()) {
        case IRNodeType::IntImm:
            return e.as<IntImm>()->value;
        case IRNodeType::UIntImm:
            return int64_t(e.as<UIntImm>()->value);
        case IRNodeType::Variable:
            return lookup(e.as<Variable>()->name);
        case IRNodeType::Cast:
            return wrap(t, eval(e.as<Cast>()->value));
        case IRNodeType::Reinterpret: {
            // Only handle -> uint64 (null checks): non-null when bound; a
            // host pointer is null in bounds queries only.
            const Call *host = e.as<Reinterpret>()->value.as<Call>();
            if (host && host->is_intrinsic(Intrinsic::buffer_get_host))
                return buffer_arg(host->args[0])->host ? 1 : 0;
            const Variable *v = e.as<Reinterpret>()->value.as<Variable>();
            return v && buffers.count(v->name) && buffers[v->name] ? 1 : 0;
        }
#define LOOM_BIN(N, OP)                                                                            \
    case IRNodeType::N: {                                                                          \
        int64_t a = eval(e.as<N>()->a), b = eval(e.as<N>()->b);                                    \
        return wrap(t, OP);                                                                        \
    }
            LOOM_BIN(Add, a + b)
            LOOM_BIN(Sub, a - b)
            LOOM_BIN(Mul, a * b)
            LOOM_BIN(Div, euclid_div(a, b))
            LOOM_BIN(Mod, b == 0 ? 0 : a - euclid_div(a, b) * b)
            LOOM_BIN(Min, std::min(a, b))
            LOOM_BIN(Max, std::max(a, b))
            LOOM_BIN(EQ, a == b)
            LOOM_BIN(NE, a != b)
            LOOM_BIN(LT, a < b)
            LOOM_BIN(LE, a <= b)
            LOOM_BIN(GT, a > b)
            LOOM_BIN(GE, a >= b)
            LOOM_BIN(And, a && b)
            LOOM_BIN(Or, a || b)
#undef LOOM_BIN
        case IRNodeType::Not:
            return !eval(e.as<Not>()->a);
        case IRNodeType::Select: {
            const Select *s = e.as<Select>();
            return eval(s->condition) ? eval(s->true_value) : eval(s->false_value);
        }
        case IRNodeType::Let: {
            const Let *l = e.as<Let>();
            env[l->name].push_back(eval(l->value));
            int64_t v = eval(l->body);
            env[l->name].pop_back();
            return v;
        }
        case IRNodeType::Load: {
            const Load *l = e.as<Load>();
            internal_assert(l->type == Int(32), "interpreter loads int32 only");
            loads++;
            return element(l->name, eval(l->index));
        }
        case IRNodeType::Call:
            return call(e.as<Call>());
        default:
            internal_error("interpreter cannot evaluate " << e);
        }
    }

    void exec(const Stmt &s) {
        switch (s.node_type()) {
        case IRNodeType::LetStmt: {
            const LetStmt *l = s.as<LetStmt>();
            int64_t v = eval(l->value);
            if (l->value.type().is_handle()) {
                Memory saved = memory.count(l->name) ? memory[l->name] : Memory{};
                memory[l->name] = hosts.at(size_t(v));
                exec(l->body);
                memory[l->name] = saved;
                return;
            }
            env[l->name].push_back(v);
            exec(l->body);
            env[l->name].pop_back();
            return;
        }
        case IRNodeType::AssertStmt: {
            const AssertStmt *a = s.as<AssertStmt>();
            if (!eval(a->condition)) throw Failed{int(eval(a->message))};
            return;
        }
        case IRNodeType::ProducerConsumer:
            exec(s.as<ProducerConsumer>()->body);
            return;
        case IRNodeType::For: {
            const For *f = s.as<For>();
            int64_t lo = eval(f->min), n = eval(f->extent);
            for (int64_t i = lo; i < lo + n; i++) {
                env[f->name].push_back(i);
                exec(f->body);
                env[f->name].pop_back();
            }
            return;
        }
        case IRNodeType::Store: {
            const Store *st = s.as<Store>();
            stores++;
            element(st->name, eval(st->index)) = int32_t(eval(st->value));
            return;
        }
        case IRNodeType::Allocate: {
            const Allocate *a = s.as<Allocate>();
            int64_t n = 1;
            for (const Expr &e : a->extents) n *= eval(e);
            allocations[a->name].assign(size_t(n), 0);
            memory[a->name] = Memory{allocations[a->name].data(), n};
            exec(a->body);
            memory.erase(a->name);
            return;
        }
        case IRNodeType::Free:
            // Early frees (inject_early_frees): a later access finds no memory.
            memory.erase(s.as<Free>()->name);
            return;
        case IRNodeType::Block:
            exec(s.as<Block>()->first);
            exec(s.as<Block>()->rest);
            return;
        case IRNodeType::IfThenElse: {
            const IfThenElse *i = s.as<IfThenElse>();
            if (eval(i->condition))
                exec(i->then_case);
            else if (i->else_case.defined())
                exec(i->else_case);
            return;
        }
        case IRNodeType::Evaluate:
            eval(s.as<Evaluate>()->value);
            return;
        default:
            internal_error("interpreter cannot run " << s);
        }
    }

    /** Runs the entry point; returns 0 or the failing assert's code. */
    int run(const LoweredFunc &f) {
        try {
            exec(f.body);
            return 0;
        } catch (const Failed &failed) {
            return failed.code;
        }
    }
};

/** A dense int32 buffer with the given mins and extents. */
struct TestBuffer {
    std::vector<int32_t> data;
    std::vector<loom_dimension_t> dims;
    loom_buffer_t raw{};

    TestBuffer(const TestBuffer &) = delete;
    TestBuffer &operator=(const TestBuffer &) = delete;
    TestBuffer(const std::vector<int> &mins, const std::vector<int> &extents) {
        int stride = 1;
        for (size_t d = 0; d < extents.size(); d++) {
            dims.push_back(loom_dimension_t{mins[d], extents[d], stride, 0});
            stride *= extents[d];
        }
        data.assign(size_t(stride), 0);
        raw.host = reinterpret_cast<uint8_t *>(data.data());
        raw.type = loom_type_t{loom_type_int, 32, 1};
        raw.dimensions = int32_t(dims.size());
        raw.dim = dims.data();
    }
    int32_t &at(const std::vector<int> &c) {
        int64_t off = 0;
        for (size_t d = 0; d < c.size(); d++) off += int64_t(c[d] - dims[d].min) * dims[d].stride;
        return data[size_t(off)];
    }
};

} // namespace lower_test

#endif
