#include "lower/UnrollLoops.h"

#include <optional>
#include <vector>

#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/Substitute.h"
#include "lower/ComputeLevels.h"

namespace loom {
namespace Internal {

namespace {

class LoopUnroller : public IRMutator {
    // Enclosing lets, innermost last: an extent written in terms of a
    // Func's bounds (f.s1.y.max - f.s1.y.min + 1) is often constant once
    // they are substituted.
    std::vector<std::pair<std::string, Expr>> lets;

    std::optional<int64_t> constant_extent(const Expr &extent) const {
        std::optional<int64_t> c = as_const_int(extent);
        if (c) return c;
        Expr e = simplify(extent);
        if ((c = as_const_int(e))) return c;
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            if (!it->second.type().is_scalar() || !(it->second.type().is_int())) continue;
            e = substitute(it->first, it->second, e);
        }
        return as_const_int(simplify(e));
    }

protected:
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        lets.emplace_back(op->name, op->value);
        Stmt body = mutate(op->body);
        lets.pop_back();
        if (body.same_as(op->body)) return op;
        return LetStmt::make(op->name, op->value, body);
    }

    Stmt visit(const For *op) override {
        if (op->for_type != ForType::Unrolled) return IRMutator::visit(op);

        std::optional<int64_t> extent = constant_extent(op->extent);
        if (!extent) {
            std::string loop = user_loop_name(op->name);
            size_t dot = loop.rfind('.');
            std::string func = dot == std::string::npos ? loop : loop.substr(0, dot);
            std::string var = dot == std::string::npos ? loop : loop.substr(dot + 1);
            user_error("Func " << func << ": cannot unroll loop " << var << " because its extent ("
                               << simplify(op->extent)
                               << ") is not a compile-time constant; use unroll(" << var
                               << ", factor) to split it first, or bound() it to a "
                                  "constant size");
        }
        // Inner unrolled loops first, so each copy is already flat.
        Stmt body = mutate(op->body);
        if (*extent <= 0) return Evaluate::make(make_zero(Int(32)));

        // A symbolic min is bound once rather than copied into every iteration.
        Expr min = op->min;
        std::string min_name;
        if (!is_const(min) && min.node_type() != IRNodeType::Variable) {
            min_name = unique_name(op->name + ".unrolled_min");
            min = Variable::make(op->min.type(), min_name);
        }
        std::vector<Stmt> copies;
        for (int64_t i = 0; i < *extent; i++) {
            Expr value = i == 0 ? min : Add::make(min, make_const(min.type(), i));
            copies.push_back(substitute(op->name, value, body));
        }
        Stmt result = Block::make(copies);
        if (!min_name.empty()) result = LetStmt::make(min_name, op->min, result);
        return result;
    }
};

} // namespace

Stmt unroll_loops(const Stmt &s) {
    return LoopUnroller().mutate(s);
}

} // namespace Internal
} // namespace loom
