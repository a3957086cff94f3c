#include "lower/UnrollLoops.h"

#include <algorithm>
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

/** The most copies of one loop body that unrolling may make, counting
 * unrolled loops inside unrolled loops as their product: past it the code
 * grows beyond what compiles in reasonable time and memory. */
constexpr int64_t max_unrolled_copies = 4096;

class LoopUnroller : public IRMutator {
    // Copies of the current body made by the enclosing unrolled loops.
    int64_t enclosing_copies = 1;
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
        std::string loop = user_loop_name(op->name);
        size_t dot = loop.rfind('.');
        std::string func = dot == std::string::npos ? loop : loop.substr(0, dot);
        std::string var = dot == std::string::npos ? loop : loop.substr(dot + 1);
        if (!extent) {
            user_error("Func " << func << ": cannot unroll loop " << var << " because its extent ("
                               << simplify(op->extent)
                               << ") is not a compile-time constant; use unroll(" << var
                               << ", factor) to split it first, or bound() it to a "
                                  "constant size");
        }
        int64_t copies_made = enclosing_copies * std::max<int64_t>(*extent, 1);
        if (*extent > max_unrolled_copies || copies_made > max_unrolled_copies) {
            user_error("Func " << func << ": cannot unroll loop " << var << " of extent " << *extent
                               << (enclosing_copies > 1 ? " inside other unrolled loops" : "")
                               << ": that makes "
                               << (*extent > max_unrolled_copies ? *extent : copies_made)
                               << " copies of its body, and at most " << max_unrolled_copies
                               << " can be unrolled; unroll a split of it instead (unroll(" << var
                               << ", factor)), or vectorize it");
        }
        // Inner unrolled loops first, so each copy is already flat.
        int64_t saved_copies = enclosing_copies;
        enclosing_copies = copies_made;
        Stmt body = mutate(op->body);
        enclosing_copies = saved_copies;
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
