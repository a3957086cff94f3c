#include "lower/UnpackBuffers.h"

#include <map>
#include <string>
#include <utility>

#include "ir/IROperator.h"
#include "ir/IRUtil.h"
#include "ir/Substitute.h"
#include "lower/LowerUtil.h"

namespace loom {
namespace Internal {

Expr buffer_handle(const LoweredArgument &arg) {
    return Variable::make(Handle(), arg.name + ".buffer", arg.buffer, arg.param);
}

Expr innermost_stride_constraint(const LoweredArgument &arg) {
    if (!arg.is_buffer() || arg.dimensions == 0) return Expr();
    if (arg.param.defined() && arg.param.is_buffer()) {
        if (arg.param.dimensions() > 0 && arg.param.constraint(0).stride.defined())
            return arg.param.constraint(0).stride;
        if (arg.param.stride0_unconstrained()) return Expr();
        return make_const(Int(32), 1);
    }
    if (arg.buffer.defined() && arg.buffer.dimensions() > 0 && arg.buffer.dim(0).stride() == 1)
        return make_const(Int(32), 1);
    return Expr();
}

Stmt unpack_buffers(const Stmt &s, const std::vector<LoweredArgument> &args) {
    std::vector<std::pair<std::string, Expr>> lets; // outermost first
    // Put in with one walk of the pipeline (one per field costs N^2 with N
    // buffers).
    std::map<std::string, Expr> promised;
    for (const LoweredArgument &arg : args) {
        if (!arg.is_buffer()) continue;
        Expr stride0 = innermost_stride_constraint(arg);
        if (stride0.defined() && is_const(stride0)) {
            // The let below still reads the real stride, for the check.
            promised[arg.name + ".stride.0"] = as_int32(stride0);
        }
        // As in Halide, the code uses the constrained mins and extents and
        // the constant strides the user promised (set_min, set_extent,
        // set_stride), which the checks guarantee: bounds depending on them
        // are known, index arithmetic folds, and the GPU printers can prove
        // vector accesses aligned. The lets keep the real values for the
        // constraint checks.
        if (arg.param.defined() && arg.param.is_buffer()) {
            for (int d = 0; d < arg.dimensions && d < arg.param.dimensions(); d++) {
                const BufferConstraint &c = arg.param.constraint(d);
                const std::string dim = "." + std::to_string(d);
                if (c.min.defined()) promised[arg.name + ".min" + dim] = as_int32(c.min);
                if (c.extent.defined()) promised[arg.name + ".extent" + dim] = as_int32(c.extent);
                if (d > 0 && c.stride.defined() && is_const(c.stride))
                    promised[arg.name + ".stride" + dim] = as_int32(c.stride);
            }
        }
        Expr handle = buffer_handle(arg);
        const std::pair<const char *, Intrinsic> fields[] = {
            {"min", Intrinsic::buffer_get_min},
            {"extent", Intrinsic::buffer_get_extent},
            {"stride", Intrinsic::buffer_get_stride}};
        for (int d = 0; d < arg.dimensions; d++) {
            for (const auto &[field, op] : fields) {
                lets.emplace_back(
                    arg.name + "." + field + "." + std::to_string(d),
                    Call::make(Int(32), op, {handle, make_const(Int(32), d)}, Call::PureIntrinsic));
            }
        }
    }
    // A promise may be written in terms of another buffer's promised field.
    for (auto &[name, value] : promised)
        if (!expr_uses_var(value, name)) value = substitute_through(promised, value);
    Stmt result = promised.empty() ? s : substitute(promised, s);
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
        result = LetStmt::make(it->first, it->second, result);
    }
    return result;
}

Stmt bind_host_pointers(const Stmt &s, const std::vector<LoweredArgument> &args) {
    if (const auto *block = s.as<Block>()) {
        if (block->first.as<AssertStmt>()) {
            return Block::make(block->first, bind_host_pointers(block->rest, args));
        }
    }
    if (s.as<AssertStmt>()) return s;
    Stmt result = s;
    for (auto it = args.rbegin(); it != args.rend(); ++it) {
        if (!it->is_buffer()) continue;
        Expr host = Call::make(Handle(), Intrinsic::buffer_get_host, {buffer_handle(*it)},
                               Call::PureIntrinsic);
        result = LetStmt::make(it->name, host, result);
    }
    return result;
}

} // namespace Internal
} // namespace loom
