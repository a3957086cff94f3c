#ifndef LOOM_TEST_CODEGEN_TEST_UTIL_H
#define LOOM_TEST_CODEGEN_TEST_UTIL_H

// Helpers for codegen/JIT tests: build LoweredFuncs by hand the way lowering
// does (buffer fields bound by LetStmts) and run them through NAME_argv.

#include <string>
#include <vector>

#include "ir/IR.h"
#include "ir/IROperator.h"
#include "jit/JITModule.h"
#include "lower/LoweredFunc.h"

namespace loom {
namespace test {

using namespace Internal;

inline Expr var(const std::string &name, Type t = Int(32)) {
    return Variable::make(t, name);
}

inline Expr buffer_field(Intrinsic op, const std::string &buffer, int dim = -1) {
    std::vector<Expr> args{Variable::make(Handle(), buffer + ".buffer")};
    if (dim >= 0) args.push_back(Expr(dim));
    Type t = op == Intrinsic::buffer_get_host ? Handle() : Int(32);
    return Call::make(t, op, args, Call::PureIntrinsic);
}

/** Wrap body in the LetStmts that bind b, b.min.d, b.extent.d, b.stride.d. */
inline Stmt bind_buffer(const std::string &b, int dims, Stmt body) {
    for (int d = dims - 1; d >= 0; d--) {
        std::string s = std::to_string(d);
        body = LetStmt::make(b + ".stride." + s, buffer_field(Intrinsic::buffer_get_stride, b, d),
                             body);
        body = LetStmt::make(b + ".extent." + s, buffer_field(Intrinsic::buffer_get_extent, b, d),
                             body);
        body = LetStmt::make(b + ".min." + s, buffer_field(Intrinsic::buffer_get_min, b, d), body);
    }
    return LetStmt::make(b, buffer_field(Intrinsic::buffer_get_host, b), body);
}

/** Flat index of coordinate x (1-D) relative to the buffer's min. */
inline Expr flat_index(const std::string &b, const Expr &x) {
    return Mul::make(Sub::make(x, var(b + ".min.0")), var(b + ".stride.0"));
}

/** A loop over the output's first dimension storing value(x). */
inline Stmt loop_over(const std::string &out, const std::string &x, Stmt body) {
    return For::make(x, var(out + ".min.0"), var(out + ".extent.0"), ForType::Serial,
                     DeviceAPI::None, body);
}

inline LoweredArgument buffer_arg(const std::string &name, Type t, int dims, bool output) {
    LoweredArgument a;
    a.name = name;
    a.kind = output ? LoweredArgument::OutputBuffer : LoweredArgument::InputBuffer;
    a.type = t;
    a.dimensions = dims;
    return a;
}

inline LoweredArgument scalar_arg(const std::string &name, Type t) {
    LoweredArgument a;
    a.name = name;
    a.type = t;
    return a;
}

/** out(x) = value(x) over a 1-D output "out"; extra inputs are 1-D buffers bound like out. */
inline LoweredFunc pointwise(const std::string &name, Type out_type,
                             const std::vector<LoweredArgument> &inputs, const Expr &value_of_x) {
    Stmt body = loop_over(
        "out", "x",
        Store::make("out", value_of_x, flat_index("out", var("x")), Buffer<>(), Parameter()));
    body = bind_buffer("out", 1, body);
    LoweredFunc f;
    f.name = name;
    for (const auto &a : inputs) {
        if (a.is_buffer()) body = bind_buffer(a.name, a.dimensions, body);
        f.args.push_back(a);
    }
    f.args.push_back(buffer_arg("out", out_type, 1, true));
    f.body = body;
    return f;
}

inline Expr load(Type t, const std::string &b, const Expr &x) {
    return Load::make(t, b, flat_index(b, x), Buffer<>(), Parameter());
}

} // namespace test
} // namespace loom

#endif
