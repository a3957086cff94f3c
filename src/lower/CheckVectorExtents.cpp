#include "lower/CheckVectorExtents.h"

#include <map>

#include "analysis/Simplify.h"
#include "ir/Error.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "ir/Substitute.h"
#include "lower/ComputeLevels.h"

namespace loom {
namespace Internal {

namespace {

class CheckExtents : public IRMutator {
    std::map<std::string, Expr> lets; // enclosing lets, values substituted

    Expr expand(const Expr &e) const { return lets.empty() ? e : substitute(lets, e); }

protected:
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        Expr value = expand(op->value);
        auto old = lets.find(op->name);
        bool had = old != lets.end();
        Expr saved = had ? old->second : Expr();
        lets[op->name] = value;
        Stmt body = mutate(op->body);
        if (had) {
            lets[op->name] = saved;
        } else {
            lets.erase(op->name);
        }
        return body.same_as(op->body) ? Stmt(op) : LetStmt::make(op->name, op->value, body);
    }

    Stmt visit(const For *op) override {
        Expr extent = op->extent;
        if (op->for_type == ForType::Vectorized) {
            extent = simplify(expand(op->extent));
            std::string loop = user_loop_name(op->name);
            size_t dot = loop.rfind('.');
            std::string func = dot == std::string::npos ? loop : loop.substr(0, dot);
            std::string var = dot == std::string::npos ? loop : loop.substr(dot + 1);
            if (auto lanes = as_const_int(extent); lanes && *lanes > max_vector_lanes()) {
                user_error("Func " << func << ": cannot vectorize loop " << var << " of extent "
                                   << *lanes << "; a vector has at most " << max_vector_lanes()
                                   << " lanes, so use vectorize(" << var
                                   << ", factor) with a smaller factor");
            }
            if (!is_const(extent)) {
                user_error("Func " << func << ": cannot vectorize loop " << var
                                   << " because its extent (" << extent
                                   << ") is not a compile-time constant; use vectorize(" << var
                                   << ", factor) to split it first, or bound() it to a "
                                      "constant size");
            }
        }
        Stmt body = mutate(op->body);
        if (extent.same_as(op->extent) && body.same_as(op->body)) return op;
        return For::make(op->name, op->min, extent, op->for_type, op->device_api, body);
    }
};

} // namespace

Stmt check_vector_extents(const Stmt &s) {
    return CheckExtents().mutate(s);
}

} // namespace Internal
} // namespace loom
