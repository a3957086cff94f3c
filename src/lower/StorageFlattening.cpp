#include "lower/StorageFlattening.h"

#include <algorithm>
#include <optional>
#include <set>

#include "ir/Error.h"
#include "ir/IREquality.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

/** Flat index of a coordinate in storage whose per-dimension min and stride
 * are the Variables "<prefix>.min.<d>" and "<prefix>.stride.<d>". With
 * large_buffers (`wide`), the sum is Int(64), as in Halide: coordinates and
 * their offsets from the mins stay Int(32), each offset and stride is
 * widened, and the products and their sum are 64-bit. Strides of internal
 * allocations are then Int(64) lets themselves (`wide_strides`). */
Expr flat_index(const std::string &prefix, const std::vector<Expr> &args, bool wide,
                bool wide_strides) {
    Expr index;
    for (size_t d = 0; d < args.size(); d++) {
        std::string d_name = std::to_string(d);
        Expr offset = sub(args[d], int_var(prefix + ".min." + d_name));
        Expr term;
        if (wide) {
            Expr stride = wide_strides ? Variable::make(Int(64), prefix + ".stride." + d_name)
                                       : Cast::make(Int(64), int_var(prefix + ".stride." + d_name));
            term = Mul::make(Cast::make(Int(64), offset), stride);
        } else {
            term = mul(offset, int_var(prefix + ".stride." + d_name));
        }
        index = d == 0 ? term : wide ? Add::make(index, term) : add(index, term);
    }
    if (!index.defined()) index = make_zero(wide ? Int(64) : Int(32));
    return index;
}

/** The largest number of elements one allocation may hold: flat indices are
 * Int(32) without large_buffers; with it, byte counts must fit an int64. */
int64_t max_allocation_elements(bool large_buffers, const std::vector<Type> &types) {
    if (!large_buffers) return INT32_MAX;
    int64_t widest = 1;
    for (const Type &t : types) widest = std::max<int64_t>(widest, t.bytes());
    return INT64_MAX / widest;
}

/** The Stores of an atomic() update stage as atomic_update intrinsics: the
 * load of the element being stored becomes the "old value" variable. */
class MakeStoresAtomic : public IRMutator {
    const Store *store = nullptr;
    std::string old_name;

protected:
    using IRMutator::visit;
    Expr visit(const Load *op) override {
        if (store && op->name == store->name && equal(op->index, store->index))
            return Variable::make(op->type, old_name);
        return IRMutator::visit(op);
    }
    Stmt visit(const Store *op) override {
        store = op;
        old_name = unique_name(op->name + ".old");
        Expr value = mutate(op->value);
        store = nullptr;
        Expr call =
            Call::make(op->value.type(), Intrinsic::atomic_update,
                       {StringImm::make(op->name), op->index, StringImm::make(old_name), value},
                       Call::Intrinsic);
        Stmt s = Evaluate::make(call);
        if (op->predicate.defined()) s = IfThenElse::make(op->predicate, s);
        return s;
    }
};

class FlattenStorage : public IRMutator {
    const std::vector<Function> &outputs;
    const Environment &env;
    const bool large_buffers;
    const bool asserts;             // no no_asserts feature
    std::set<std::string> realized; // Funcs with an Allocate in scope
    int device_loops = 0;           // GPU loops around the node being visited

    /** The dimensions of a Realize from innermost to outermost in memory:
     * reorder_storage's order (storage_dims), else the pure argument order. */
    std::vector<size_t> storage_dimension_order(const std::string &func, size_t n) const {
        std::vector<size_t> order;
        auto it = env.find(func);
        if (it != env.end()) {
            const Function &f = it->second;
            for (const std::string &v : f.schedule().storage_dims) {
                for (size_t d = 0; d < f.args().size(); d++) {
                    if (f.args()[d] == v && std::find(order.begin(), order.end(), d) == order.end())
                        order.push_back(d);
                }
            }
        }
        // Dimensions the schedule does not list keep their relative order, outermost.
        for (size_t d = 0; d < n; d++) {
            if (std::find(order.begin(), order.end(), d) == order.end()) order.push_back(d);
        }
        return order;
    }

    const Function *find_func(const std::string &name) const {
        for (const Function &o : outputs) {
            if (o.name() == name) return &o;
        }
        return nullptr;
    }

protected:
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        if (op->name.rfind("loom.atomic.", 0) != 0) return IRMutator::visit(op);
        return MakeStoresAtomic().mutate(mutate(op->body));
    }

    Stmt visit(const For *op) override {
        bool device = op->for_type == ForType::GPUBlock || op->for_type == ForType::GPUThread ||
                      op->for_type == ForType::GPULane;
        device_loops += device;
        Stmt s = IRMutator::visit(op);
        device_loops -= device;
        return s;
    }

    Expr index_of(const std::string &prefix, const std::vector<Expr> &args) const {
        return flat_index(prefix, args, large_buffers, large_buffers && realized.count(prefix));
    }

    /** The Realize's element count fits the flat indices. The product of
     * the extents is computed in Int(64), saturating: without large_buffers
     * each partial product is capped at 2^32 before the next (int32) extent
     * multiplies it, which cannot wrap and keeps every count up to 2^32
     * exact; with it, a product that would pass the maximum becomes
     * maximum + 1. Host code only: kernels cannot report errors, and their
     * allocations (shared memory, registers) are small. */
    Stmt size_check(const Realize *op) const {
        int64_t max = max_allocation_elements(large_buffers, op->types);
        // Constant sizes are checked now, and need no code.
        int64_t constant_elements = 1;
        bool constant = true, overflow = false;
        for (const Range &r : op->bounds) {
            std::optional<int64_t> c = as_const_int(r.extent);
            constant = constant && c;
            if (c)
                overflow |= __builtin_mul_overflow(constant_elements, std::max<int64_t>(*c, 0),
                                                   &constant_elements);
        }
        if (constant) {
            if (overflow || constant_elements > max)
                user_error("Func " << op->name << " needs storage for "
                                   << (overflow ? std::string("more than 2^63")
                                                : std::to_string(constant_elements))
                                   << " elements, more than the maximum of " << max
                                   << (large_buffers ? ""
                                                     : " (flat indices are 32-bit; add the "
                                                       "large_buffers target feature for 64-bit "
                                                       "ones)"));
            return Stmt();
        }
        if (!asserts) return Stmt();
        Expr max_expr = make_const(Int(64), max);
        Expr cap = make_const(Int(64), int64_t(1) << 32);
        Expr elements = make_one(Int(64));
        for (size_t d = 0; d < op->bounds.size(); d++) {
            Expr extent = Cast::make(Int(64), int_var(op->name + ".extent." + std::to_string(d)));
            if (large_buffers) {
                Expr too_many = And::make(GT::make(extent, make_zero(Int(64))),
                                          GT::make(elements, Div::make(max_expr, extent)));
                elements = Select::make(too_many, Add::make(max_expr, make_one(Int(64))),
                                        Mul::make(elements, extent));
            } else {
                elements = Mul::make(Min::make(elements, cap), extent);
            }
        }
        Expr fits = LE::make(elements, max_expr);
        if (op->condition.defined() && !is_const_true(op->condition))
            fits = Or::make(Not::make(op->condition), fits);
        Expr error = Call::make(
            Int(32), "loom_error_allocation_too_large",
            {user_context_var(), StringImm::make(op->name), elements, make_const(Int(64), max)},
            Call::Extern);
        return AssertStmt::make(fits, error);
    }

    Stmt visit(const Realize *op) override {
        realized.insert(op->name);
        Stmt body = mutate(op->body);
        realized.erase(op->name);

        size_t n = op->bounds.size();
        std::vector<size_t> storage_order = storage_dimension_order(op->name, n);
        std::vector<Expr> extents;
        for (size_t i = 0; i < n; i++)
            extents.push_back(int_var(op->name + ".extent." + std::to_string(i)));

        for (size_t v = 0; v < op->types.size(); v++) {
            std::string alloc =
                op->types.size() > 1 ? op->name + "." + std::to_string(v) : op->name;
            body =
                Allocate::make(alloc, op->types[v], op->memory_type, extents, op->condition, body);
        }
        if (Stmt check = device_loops == 0 ? size_check(op) : Stmt(); check.defined())
            body = Block::make(check, body);
        // Dense strides: each dimension's stride is the product of the extents
        // of the dimensions stored inside it (Int(64) with large_buffers).
        std::vector<std::pair<std::string, Expr>> lets;
        Expr stride = make_one(large_buffers ? Int(64) : Int(32));
        for (size_t k = 0; k < n; k++) {
            size_t d = storage_order[k];
            lets.emplace_back(op->name + ".stride." + std::to_string(d), stride);
            Expr extent = int_var(op->name + ".extent." + std::to_string(d));
            stride = large_buffers ? Mul::make(stride, Cast::make(Int(64), extent))
                                   : mul(stride, extent);
        }
        for (size_t d = 0; d < n; d++) {
            lets.emplace_back(op->name + ".min." + std::to_string(d), op->bounds[d].min);
            lets.emplace_back(op->name + ".extent." + std::to_string(d), op->bounds[d].extent);
        }
        // Mins and extents outermost; strides use the extents.
        Stmt s = body;
        for (size_t i = 0; i < n; i++) s = LetStmt::make(lets[i].first, lets[i].second, s);
        for (size_t i = lets.size(); i > n; i--)
            s = LetStmt::make(lets[i - 1].first, lets[i - 1].second, s);
        return s;
    }

    Stmt visit(const Provide *op) override {
        std::vector<Expr> args = mutate_exprs(op->args);
        std::vector<Expr> values = mutate_exprs(op->values);
        const Function *out = find_func(op->name);
        bool realized_here = realized.count(op->name) > 0;
        internal_assert(out || realized_here,
                        "Provide to Func " << op->name << ", which has no storage");

        std::vector<Stmt> stores;
        std::vector<std::pair<std::string, Expr>> value_lets;
        for (size_t v = 0; v < values.size(); v++) {
            std::string name, prefix;
            if (realized_here) {
                name = values.size() > 1 ? op->name + "." + std::to_string(v) : op->name;
                prefix = op->name;
            } else {
                name = buffer_name(*out, int(v));
                prefix = name;
            }
            Expr value = values[v];
            // undef() leaves the element as it is: no store (as in Halide).
            const auto *undef_value = value.as<Call>();
            if (undef_value && undef_value->is_intrinsic(Intrinsic::undef)) continue;
            if (values.size() > 1) {
                // Every element of a tuple is computed before any is stored.
                std::string tmp = unique_name(op->name + ".value");
                value_lets.emplace_back(tmp, value);
                value = Variable::make(value.type(), tmp);
            }
            stores.push_back(
                Store::make(name, value, index_of(prefix, args), Buffer<>(), Parameter()));
        }
        Stmt s = stores.empty() ? Evaluate::make(make_zero(Int(32))) : Block::make(stores);
        for (auto it = value_lets.rbegin(); it != value_lets.rend(); ++it) {
            s = LetStmt::make(it->first, it->second, s);
        }
        if (op->predicate.defined()) s = IfThenElse::make(mutate(op->predicate), s);
        return s;
    }

    Expr visit(const Call *op) override {
        if (op->call_type == Call::Image) {
            std::vector<Expr> args = mutate_exprs(op->args);
            return Load::make(op->type, op->name, index_of(op->name, args), op->image, op->param);
        }
        if (op->call_type == Call::Loom) {
            std::vector<Expr> args = mutate_exprs(op->args);
            internal_assert(op->func.defined(),
                            "call to Func " << op->name << " without a Function");
            if (realized.count(op->name)) {
                std::string name = op->func.outputs() > 1
                                       ? op->name + "." + std::to_string(op->value_index)
                                       : op->name;
                return Load::make(op->type, name, index_of(op->name, args), Buffer<>(),
                                  Parameter());
            }
            internal_assert(is_output(op->func, outputs),
                            "call to Func " << op->name << ", which has no storage");
            std::string name = buffer_name(op->func, op->value_index);
            return Load::make(op->type, name, index_of(name, args), Buffer<>(), Parameter());
        }
        return IRMutator::visit(op);
    }

public:
    FlattenStorage(const std::vector<Function> &o, const Environment &e, const Target &t)
        : outputs(o), env(e), large_buffers(t.has_feature(Target::LargeBuffers)),
          asserts(!t.has_feature(Target::NoAsserts)) {}
};

} // namespace

Stmt storage_flattening(const Stmt &s, const std::vector<Function> &outputs, const Environment &env,
                        const Target &target) {
    return FlattenStorage(outputs, env, target).mutate(s);
}

} // namespace Internal
} // namespace loom
