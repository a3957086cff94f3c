#include "lower/StreamingStores.h"

#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "analysis/Simplify.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/Substitute.h"
#include "lower/LowerUtil.h"
#include "lower/UnpackBuffers.h"

namespace loom {
namespace Internal {

int streaming_store_max_vector_bytes(const Target &target) {
    if (target.has_feature(Target::NoStreamingStores)) return 0;
    if (target.arch == Target::X86) return target.natural_vector_size(UInt(8));
    if (target.arch == Target::ARM && target.bits == 64) return 16;
    return 0;
}

namespace {

/** An output buffer the pass may write with streaming stores. */
struct StreamingOutput {
    const LoweredArgument *arg;
    int elem_bytes;
};

/** How an index moves with a loop variable v: under `conditions` (loop
 * invariant), e(v) == e(min) + slope * (v - min) modulo the modulus it was
 * computed for, for every v of the loop; `slope` is e's exact step where no
 * min/max clamp binds. */
struct Progression {
    int64_t slope = 0;
    std::vector<Expr> conditions;
};

std::optional<Progression> progression(const Expr &e, const std::string &v, const Expr &v_min,
                                       int64_t modulus);

std::optional<Progression> sum(const std::optional<Progression> &a,
                               const std::optional<Progression> &b, int64_t sign) {
    if (!a || !b) return std::nullopt;
    Progression p = *a;
    p.slope += sign * b->slope;
    p.conditions.insert(p.conditions.end(), b->conditions.begin(), b->conditions.end());
    return p;
}

// min(a, b) or max(a, b): the ShiftInwards clamp `min(lanes * v, extent - lanes)`.
// Each side must stay put modulo `modulus`, and the two sides must agree
// modulo `modulus` (checked at run time at the loop's first iteration).
std::optional<Progression> clamp(const Expr &a, const Expr &b, const std::string &v,
                                 const Expr &v_min, int64_t modulus) {
    auto pa = progression(a, v, v_min, modulus), pb = progression(b, v, v_min, modulus);
    if (!pa || !pb) return std::nullopt;
    if (pa->slope % modulus != 0 || pb->slope % modulus != 0) return std::nullopt;
    Progression p;
    if (pa->slope == 0 || pa->slope == pb->slope) {
        p.slope = pb->slope;
    } else if (pb->slope == 0) {
        p.slope = pa->slope;
    } else {
        return std::nullopt;
    }
    p.conditions = pa->conditions;
    p.conditions.insert(p.conditions.end(), pb->conditions.begin(), pb->conditions.end());
    if (modulus > 1) {
        Expr gap = substitute(v, v_min, sub(a, b));
        Expr agree = simplify(EQ::make(mod(gap, make_const(Int(32), modulus)), make_zero(Int(32))));
        if (is_const_false(agree)) return std::nullopt;
        if (!is_const_true(agree)) p.conditions.push_back(agree);
    }
    return p;
}

std::optional<Progression> progression(const Expr &e, const std::string &v, const Expr &v_min,
                                       int64_t modulus) {
    if (!expr_uses_var(e, v)) return Progression{};
    if (e.as<Variable>()) return Progression{1, {}};
    if (const Add *a = e.as<Add>())
        return sum(progression(a->a, v, v_min, modulus), progression(a->b, v, v_min, modulus), 1);
    if (const Sub *s = e.as<Sub>())
        return sum(progression(s->a, v, v_min, modulus), progression(s->b, v, v_min, modulus), -1);
    if (const Mul *m = e.as<Mul>()) {
        Expr x = m->a;
        std::optional<int64_t> k = as_const_int(m->b);
        if (!k) {
            k = as_const_int(m->a);
            x = m->b;
        }
        if (!k) return std::nullopt;
        // k * x only needs x modulo modulus / gcd(modulus, k).
        auto p = progression(x, v, v_min, modulus / std::gcd(modulus, *k));
        if (p) p->slope *= *k;
        return p;
    }
    if (const Min *m = e.as<Min>()) return clamp(m->a, m->b, v, v_min, modulus);
    if (const Max *m = e.as<Max>()) return clamp(m->a, m->b, v, v_min, modulus);
    return std::nullopt;
}

Stmt memory_fence() {
    return Evaluate::make(Call::make(Int(32), Intrinsic::memory_fence, {}, Call::Intrinsic));
}

/** Gives each store of one innermost loop body that may stream a streaming
 * twin, chosen by the loop-invariant Bool `choice`, and gathers the run-time
 * conditions under which every streaming store of the loop is aligned. */
class MarkStreamingStores : public IRMutator {
public:
    MarkStreamingStores(const For *loop, std::string choice,
                        const std::map<std::string, StreamingOutput> &outputs, int max_vector_bytes)
        : loop(loop), choice(std::move(choice)), outputs(outputs),
          max_vector_bytes(max_vector_bytes) {}

    std::vector<Expr> conditions;
    std::set<std::string> outputs_streamed;

protected:
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        // Store indices name lets of the loop body; the conditions are
        // evaluated outside it, so they see the lets' values instead.
        Expr value = substitute(lets, op->value);
        std::optional<Expr> shadowed;
        if (auto it = lets.find(op->name); it != lets.end()) shadowed = it->second;
        lets[op->name] = value;
        Stmt body = mutate(op->body);
        if (shadowed) {
            lets[op->name] = *shadowed;
        } else {
            lets.erase(op->name);
        }
        if (body.same_as(op->body)) return op;
        return LetStmt::make(op->name, op->value, body);
    }

    Stmt visit(const Store *op) override {
        auto out = outputs.find(op->name);
        if (out == outputs.end() || op->streaming) return op;
        if (op->predicate.defined() && !is_const_true(op->predicate)) return op;
        Type t = op->value.type();
        int64_t vector_bytes = int64_t(t.lanes) * out->second.elem_bytes;
        if (t.lanes < 2 || t.element_of().bits != out->second.elem_bytes * 8 ||
            vector_bytes > max_vector_bytes ||
            (vector_bytes != 16 && vector_bytes != 32 && vector_bytes != 64))
            return op;
        Expr index = substitute(lets, op->index);
        const Ramp *ramp = index.as<Ramp>();
        if (!ramp || !is_const(ramp->stride, 1) || ramp->base.type() != Int(32)) return op;
        // Consecutive iterations store consecutive vectors, and every store
        // of the loop is as aligned as the first one.
        auto p = progression(ramp->base, loop->name, loop->min, t.lanes);
        if (!p || p->slope != t.lanes) return op;

        Expr first = simplify(substitute(loop->name, loop->min, ramp->base));
        Expr host = Reinterpret::make(UInt(64), Variable::make(Handle(), op->name));
        Expr offset = Mul::make(Cast::make(UInt(64), Cast::make(Int(64), first)),
                                make_const(UInt(64), int64_t(out->second.elem_bytes)));
        Expr misalignment = Mod::make(Add::make(host, offset), make_const(UInt(64), vector_bytes));
        conditions.push_back(EQ::make(misalignment, make_zero(UInt(64))));
        conditions.insert(conditions.end(), p->conditions.begin(), p->conditions.end());
        outputs_streamed.insert(op->name);

        // Not two copies of the loop: one value, two stores, a branch that
        // never changes direction within the loop (and costs far less than
        // compiling the loop twice).
        std::string value_name = op->name + ".stored_value";
        Expr value = Variable::make(t, value_name);
        Stmt streaming =
            Store::make(op->name, value, op->index, op->image, op->param, Expr(), true);
        Stmt normal = Store::make(op->name, value, op->index, op->image, op->param, op->predicate);
        return LetStmt::make(value_name, op->value,
                             IfThenElse::make(Variable::make(Bool(), choice), streaming, normal));
    }

private:
    const For *loop;
    std::string choice;
    const std::map<std::string, StreamingOutput> &outputs;
    int max_vector_bytes;
    std::map<std::string, Expr> lets;
};

class StreamingStores : public IRMutator {
public:
    StreamingStores(std::map<std::string, StreamingOutput> outputs, int max_vector_bytes)
        : outputs(std::move(outputs)), max_vector_bytes(max_vector_bytes) {}

protected:
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        bool host_loop = (op->for_type == ForType::Serial || op->for_type == ForType::Parallel) &&
                         (op->device_api == DeviceAPI::None || op->device_api == DeviceAPI::Host);
        if (!host_loop) return op;
        bool outermost = loop_depth == 0;
        if (outermost) {
            nest++;
            ok_lets.clear();
        }
        bool streamed_before = streamed;
        streamed = false;

        Stmt result;
        if (op->for_type == ForType::Serial && !contains_loop(op->body)) {
            result = version(op);
        } else {
            loop_depth++;
            Stmt body = mutate(op->body);
            loop_depth--;
            // Make this task's streaming stores visible before it reports
            // completion to the thread that waits for it.
            if (streamed && op->for_type == ForType::Parallel)
                body = Block::make(body, fence_if_streaming());
            result = body.same_as(op->body) ? Stmt(op)
                                            : For::make(op->name, op->min, op->extent, op->for_type,
                                                        op->device_api, body);
        }
        if (outermost && streamed) {
            result = Block::make(result, fence_if_streaming());
            for (const auto &[name, value] : ok_lets) result = LetStmt::make(name, value, result);
        }
        streamed = streamed || streamed_before;
        return result;
    }

private:
    std::map<std::string, StreamingOutput> outputs;
    int max_vector_bytes;
    int loop_depth = 0;
    int nest = 0;
    bool streamed = false;               // the statement just mutated contains streaming stores
    std::map<std::string, Expr> ok_lets; // streaming_ok lets of the current outermost nest

    // A fence when some output of the current nest is large enough to
    // stream (small outputs skip it: it costs tens of cycles).
    Stmt fence_if_streaming() const {
        Expr any;
        for (const auto &[name, value] : ok_lets) {
            Expr ok = Variable::make(Bool(), name);
            any = any.defined() ? Or::make(any, ok) : ok;
        }
        return IfThenElse::make(any, memory_fence());
    }

    // "<out>.streaming_ok.<nest>": is the output large enough to stream?
    Expr streaming_ok(const StreamingOutput &out) {
        const LoweredArgument &arg = *out.arg;
        std::string name = arg.name + ".streaming_ok." + std::to_string(nest);
        if (!ok_lets.count(name)) {
            Expr bytes = make_const(Int(64), int64_t(out.elem_bytes));
            for (int d = 0; d < arg.dimensions; d++) {
                Expr extent =
                    Call::make(Int(32), Intrinsic::buffer_get_extent,
                               {buffer_handle(arg), make_const(Int(32), d)}, Call::PureIntrinsic);
                bytes = Mul::make(bytes, Cast::make(Int(64), extent));
            }
            Expr threshold = Call::make(Int(64), "loom_streaming_store_threshold",
                                        {user_context_var()}, Call::Extern);
            ok_lets[name] = GE::make(bytes, threshold);
        }
        return Variable::make(Bool(), name);
    }

    Stmt version(const For *op) {
        std::string choice = op->name + ".streaming";
        MarkStreamingStores mark(op, choice, outputs, max_vector_bytes);
        Stmt body = mark.mutate(op->body);
        if (mark.outputs_streamed.empty()) return op;
        Expr condition;
        for (const std::string &name : mark.outputs_streamed) {
            Expr ok = streaming_ok(outputs.at(name));
            condition = condition.defined() ? And::make(condition, ok) : ok;
        }
        for (const Expr &c : mark.conditions) condition = And::make(condition, c);
        streamed = true;
        Stmt loop = For::make(op->name, op->min, op->extent, op->for_type, op->device_api, body);
        return LetStmt::make(choice, condition, loop);
    }
};

/** Names of the buffers s reads. */
std::set<std::string> buffers_read(const Stmt &s) {
    std::set<std::string> read;
    visit_all(s, [&](const IRNode *n) {
        if (n->node_type == IRNodeType::Load) {
            read.insert(static_cast<const Load *>(n)->name);
        } else if (n->node_type == IRNodeType::Call) {
            const Call *c = static_cast<const Call *>(n);
            if (c->is_intrinsic(Intrinsic::atomic_update) && !c->args.empty()) {
                if (const StringImm *name = c->args[0].as<StringImm>()) read.insert(name->value);
            }
        }
    });
    return read;
}

} // namespace

Stmt streaming_stores(const Stmt &s, const std::vector<LoweredArgument> &args,
                      const Target &target) {
    int max_vector_bytes = streaming_store_max_vector_bytes(target);
    if (max_vector_bytes == 0) return s;
    std::set<std::string> read = buffers_read(s);
    std::map<std::string, StreamingOutput> outputs;
    for (const LoweredArgument &arg : args) {
        Type t = arg.type;
        // Outputs the pipeline reads back (update stages) would then read
        // from memory what a normal store leaves in cache.
        if (arg.kind != LoweredArgument::OutputBuffer || read.count(arg.name)) continue;
        if (t.is_handle() || t.is_bool() || t.bits < 8 || t.lanes != 1) continue;
        outputs[arg.name] = StreamingOutput{&arg, t.bits / 8};
    }
    if (outputs.empty()) return s;
    return StreamingStores(std::move(outputs), max_vector_bytes).mutate(s);
}

} // namespace Internal
} // namespace loom
