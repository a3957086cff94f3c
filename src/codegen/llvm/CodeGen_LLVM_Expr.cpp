// Expressions: constants, casts, arithmetic (Euclidean integer division),
// comparisons, logic and vector construction.

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "ir/Error.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {

namespace {

llvm::Constant *int_constant(llvm::Type *t, int64_t v) {
    return llvm::ConstantInt::get(t, uint64_t(v), true);
}

bool is_power_of_two(int64_t v) {
    return v > 0 && (v & (v - 1)) == 0;
}

int log2_of(int64_t v) {
    int n = 0;
    while ((int64_t(1) << n) < v) n++;
    return n;
}

// The divisor as a signed or unsigned integer constant, if it is one.
std::optional<int64_t> const_divisor(const Expr &b, Type t) {
    if (t.is_uint()) {
        auto u = as_const_uint(b);
        if (u && *u <= uint64_t(INT64_MAX)) return int64_t(*u);
        return std::nullopt;
    }
    return as_const_int(b);
}

} // namespace

void CodeGen_LLVM::visit(const IntImm *op) {
    value = int_constant(llvm_type_of(op->type), op->value);
}

void CodeGen_LLVM::visit(const UIntImm *op) {
    value = llvm::ConstantInt::get(llvm_type_of(op->type), op->value);
}

void CodeGen_LLVM::visit(const FloatImm *op) {
    value = llvm::ConstantFP::get(llvm_type_of(op->type), op->value);
}

void CodeGen_LLVM::visit(const StringImm *op) {
    value = string_constant(op->value);
}

llvm::Value *CodeGen_LLVM::convert(llvm::Value *v, Type from, Type to) {
    llvm::Type *dst = llvm_type_of(to);
    if (from == to) return v;
    if (to.is_bool()) {
        if (from.is_float())
            return builder->CreateFCmpUNE(v, llvm::Constant::getNullValue(v->getType()));
        return builder->CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    }
    if (from.is_handle() || to.is_handle()) {
        if (from.is_handle() && to.is_handle()) return v;
        if (from.is_handle()) return builder->CreatePtrToInt(v, dst);
        return builder->CreateIntToPtr(v, dst);
    }
    if (from.is_float() && to.is_float()) return builder->CreateFPCast(v, dst);
    if (from.is_float()) {
        // An out-of-range value has no defined result, but it must not be
        // LLVM's poison: poison passes through a clamp(), so a clamped
        // data-dependent index could still read anywhere. freeze makes it
        // some fixed value, which the clamp then bounds (costs nothing).
        llvm::Value *i =
            to.is_int() ? builder->CreateFPToSI(v, dst) : builder->CreateFPToUI(v, dst);
        return builder->CreateFreeze(i);
    }
    if (to.is_float())
        return from.is_int() ? builder->CreateSIToFP(v, dst) : builder->CreateUIToFP(v, dst);
    // Integer to integer: widen by the source's signedness, narrow by wrapping.
    return builder->CreateIntCast(v, dst, from.is_int());
}

void CodeGen_LLVM::visit(const Cast *op) {
    value = convert(codegen(op->value), op->value.type(), op->type);
}

void CodeGen_LLVM::visit(const Reinterpret *op) {
    llvm::Value *v = codegen(op->value);
    Type from = op->value.type(), to = op->type;
    llvm::Type *dst = llvm_type_of(to);
    if (from.is_handle() && !to.is_handle()) {
        value = builder->CreateBitCast(
            builder->CreatePtrToInt(v, llvm_type_of(UInt(64, from.lanes))), dst);
    } else if (!from.is_handle() && to.is_handle()) {
        value = builder->CreateIntToPtr(builder->CreateBitCast(v, llvm_type_of(UInt(64, to.lanes))),
                                        dst);
    } else {
        value = builder->CreateBitCast(v, dst);
    }
}

void CodeGen_LLVM::visit(const Variable *op) {
    value = rematerialized(op->name);
    if (!value) value = sym_get(op->name);
}

namespace {

// Signed 32- and 64-bit overflow is undefined in Loom (the simplifier relies
// on it too), so their arithmetic is emitted `nsw`. That lets LLVM fold the
// sign extension of an index into the address (one sext per row instead of
// one per load) and spares ScalarEvolution long sext chains at compile time.
// Narrower and unsigned types wrap.
bool overflow_is_undefined(Type t) {
    return t.is_int() && t.bits >= 32;
}

} // namespace

void CodeGen_LLVM::visit(const Add *op) {
    llvm::Value *a = codegen(op->a), *b = codegen(op->b);
    value = op->type.is_float()
                ? builder->CreateFAdd(a, b)
                : builder->CreateAdd(a, b, "", false, overflow_is_undefined(op->type));
}

void CodeGen_LLVM::visit(const Sub *op) {
    llvm::Value *a = codegen(op->a), *b = codegen(op->b);
    value = op->type.is_float()
                ? builder->CreateFSub(a, b)
                : builder->CreateSub(a, b, "", false, overflow_is_undefined(op->type));
}

void CodeGen_LLVM::visit(const Mul *op) {
    llvm::Value *a = codegen(op->a), *b = codegen(op->b);
    value = op->type.is_float()
                ? builder->CreateFMul(a, b)
                : builder->CreateMul(a, b, "", false, overflow_is_undefined(op->type));
}

llvm::Value *CodeGen_LLVM::euclidean_div(llvm::Value *a, llvm::Value *b, Type t,
                                         const Expr &b_expr) {
    if (t.is_float()) return builder->CreateFDiv(a, b);
    llvm::Type *ty = a->getType();
    if (auto c = const_divisor(b_expr, t); c && *c != 0) {
        if (is_power_of_two(*c)) {
            // Flooring shift: Euclidean division by a positive divisor.
            llvm::Value *shift = int_constant(ty, log2_of(*c));
            return t.is_int() ? builder->CreateAShr(a, shift) : builder->CreateLShr(a, shift);
        }
        // Unsigned Euclidean division is plain truncating division, which
        // LLVM turns into a multiply-high for constant divisors.
        if (t.is_uint()) return builder->CreateUDiv(a, b);
        if (*c == -1) return builder->CreateNeg(a);
        if (*c > 0) {
            // Flooring division without branches or overflow: with s = a >> (bits-1)
            // (all ones when a < 0), s ^ a is non-negative, so
            // floor(a / c) == (s ^ a) /u c ^ s, and the udiv becomes a multiply.
            llvm::Value *s = builder->CreateAShr(a, int_constant(ty, t.bits - 1));
            llvm::Value *q = builder->CreateUDiv(builder->CreateXor(s, a), b);
            return builder->CreateXor(q, s);
        }
        llvm::Value *q = builder->CreateSDiv(a, b);
        llvm::Value *r = builder->CreateSRem(a, b);
        llvm::Value *r_negative = builder->CreateICmpSLT(r, llvm::Constant::getNullValue(ty));
        llvm::Value *adjusted = *c > 0 ? builder->CreateSub(q, int_constant(ty, 1))
                                       : builder->CreateAdd(q, int_constant(ty, 1));
        return builder->CreateSelect(r_negative, adjusted, q);
    }
    llvm::Value *zero = llvm::Constant::getNullValue(ty), *one = int_constant(ty, 1);
    llvm::Value *b_is_zero = builder->CreateICmpEQ(b, zero);
    if (t.is_uint()) {
        llvm::Value *safe_b = builder->CreateSelect(b_is_zero, one, b);
        return builder->CreateSelect(b_is_zero, zero, builder->CreateUDiv(a, safe_b));
    }
    // Divide by a safe divisor (0 and -1 become 1: -1 could overflow on the
    // most negative value), then fix up the rounding and the special cases.
    llvm::Value *b_is_minus_one = builder->CreateICmpEQ(b, int_constant(ty, -1));
    llvm::Value *safe_b =
        builder->CreateSelect(builder->CreateOr(b_is_zero, b_is_minus_one), one, b);
    llvm::Value *q = builder->CreateSDiv(a, safe_b);
    llvm::Value *r = builder->CreateSRem(a, safe_b);
    llvm::Value *r_negative = builder->CreateICmpSLT(r, zero);
    llvm::Value *b_positive = builder->CreateICmpSGT(b, zero);
    llvm::Value *step = builder->CreateSelect(b_positive, int_constant(ty, -1), one);
    q = builder->CreateAdd(q, builder->CreateSelect(r_negative, step, zero));
    q = builder->CreateSelect(b_is_minus_one, builder->CreateNeg(a), q);
    return builder->CreateSelect(b_is_zero, zero, q);
}

llvm::Value *CodeGen_LLVM::euclidean_mod(llvm::Value *a, llvm::Value *b, Type t,
                                         const Expr &b_expr) {
    if (t.is_float()) {
        llvm::Value *q =
            builder->CreateUnaryIntrinsic(llvm::Intrinsic::floor, builder->CreateFDiv(a, b));
        return builder->CreateFSub(a, builder->CreateFMul(b, q));
    }
    llvm::Type *ty = a->getType();
    llvm::Value *zero = llvm::Constant::getNullValue(ty), *one = int_constant(ty, 1);
    if (auto c = const_divisor(b_expr, t); c && *c != 0) {
        if (is_power_of_two(*c)) return builder->CreateAnd(a, int_constant(ty, *c - 1));
        if (t.is_uint()) return builder->CreateURem(a, b);
        if (*c == -1) return zero;
        if (*c > 0) {
            // As in euclidean_div: r' = (s ^ a) %u c, then a < 0 maps r' to c - 1 - r'.
            llvm::Value *s = builder->CreateAShr(a, int_constant(ty, t.bits - 1));
            llvm::Value *r = builder->CreateURem(builder->CreateXor(s, a), b);
            return builder->CreateAdd(builder->CreateXor(r, s), builder->CreateAnd(s, b));
        }
        llvm::Value *r = builder->CreateSRem(a, b);
        llvm::Value *r_negative = builder->CreateICmpSLT(r, zero);
        return builder->CreateSelect(r_negative,
                                     builder->CreateAdd(r, int_constant(ty, *c < 0 ? -*c : *c)), r);
    }
    llvm::Value *b_is_zero = builder->CreateICmpEQ(b, zero);
    if (t.is_uint()) {
        llvm::Value *safe_b = builder->CreateSelect(b_is_zero, one, b);
        return builder->CreateSelect(b_is_zero, zero, builder->CreateURem(a, safe_b));
    }
    llvm::Value *b_is_minus_one = builder->CreateICmpEQ(b, int_constant(ty, -1));
    llvm::Value *safe_b =
        builder->CreateSelect(builder->CreateOr(b_is_zero, b_is_minus_one), one, b);
    llvm::Value *r = builder->CreateSRem(a, safe_b);
    // |b| wraps for the most negative b, which still gives the right sum.
    llvm::Value *abs_b =
        builder->CreateSelect(builder->CreateICmpSLT(b, zero), builder->CreateNeg(b), b);
    r = builder->CreateSelect(builder->CreateICmpSLT(r, zero), builder->CreateAdd(r, abs_b), r);
    return builder->CreateSelect(b_is_zero, zero, r);
}

llvm::Value *CodeGen_LLVM::round_to_zero_div_mod(llvm::Value *a, llvm::Value *b, Type t,
                                                 bool want_div) {
    llvm::Type *ty = a->getType();
    llvm::Value *zero = llvm::Constant::getNullValue(ty), *one = int_constant(ty, 1);
    if (t.is_float()) return want_div ? builder->CreateFDiv(a, b) : builder->CreateFRem(a, b);
    llvm::Value *b_is_zero = builder->CreateICmpEQ(b, zero);
    if (t.is_uint()) {
        llvm::Value *safe_b = builder->CreateSelect(b_is_zero, one, b);
        llvm::Value *r = want_div ? builder->CreateUDiv(a, safe_b) : builder->CreateURem(a, safe_b);
        return builder->CreateSelect(b_is_zero, zero, r);
    }
    llvm::Value *b_is_minus_one = builder->CreateICmpEQ(b, int_constant(ty, -1));
    llvm::Value *safe_b =
        builder->CreateSelect(builder->CreateOr(b_is_zero, b_is_minus_one), one, b);
    llvm::Value *r = want_div ? builder->CreateSDiv(a, safe_b) : builder->CreateSRem(a, safe_b);
    if (want_div) r = builder->CreateSelect(b_is_minus_one, builder->CreateNeg(a), r);
    return builder->CreateSelect(b_is_zero, zero, r);
}

void CodeGen_LLVM::visit(const Div *op) {
    llvm::Value *a = codegen(op->a), *b = codegen(op->b);
    value = euclidean_div(a, b, op->type, op->b);
}

void CodeGen_LLVM::visit(const Mod *op) {
    llvm::Value *a = codegen(op->a), *b = codegen(op->b);
    value = euclidean_mod(a, b, op->type, op->b);
}

// Bounds inference and loop partitioning make long chains of scalar min and
// max (a Func's region from its consumers', a steady state's ends). Inside
// LLVM's scalar evolution they become one deep expression per address, and
// loop strength reduction then spent up to 150 ms on a 40-instruction loop
// re-expanding them and searching for existing values to reuse (most of
// nl_means' and lens_blur's compile time). Frozen, each min or max is an
// opaque value there: addresses stay affine in the loop variables, which is
// all strength reduction needs, and a freeze emits no instruction.
llvm::Value *CodeGen_LLVM::freeze_integer_min_max(llvm::Value *v) {
    if (llvm::isa<llvm::Constant>(v)) return v;
    return builder->CreateFreeze(v);
}

void CodeGen_LLVM::visit(const Min *op) {
    llvm::Value *a = codegen(op->a), *b = codegen(op->b);
    if (op->type.is_float()) {
        value = builder->CreateSelect(builder->CreateFCmpOLT(a, b), a, b);
    } else if (op->type.is_handle()) {
        value = builder->CreateSelect(builder->CreateICmpULT(a, b), a, b);
    } else {
        value = builder->CreateBinaryIntrinsic(
            op->type.is_int() ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, a, b);
        if (op->type.is_scalar()) value = freeze_integer_min_max(value);
    }
}

void CodeGen_LLVM::visit(const Max *op) {
    llvm::Value *a = codegen(op->a), *b = codegen(op->b);
    if (op->type.is_float()) {
        value = builder->CreateSelect(builder->CreateFCmpOGT(a, b), a, b);
    } else if (op->type.is_handle()) {
        value = builder->CreateSelect(builder->CreateICmpUGT(a, b), a, b);
    } else {
        value = builder->CreateBinaryIntrinsic(
            op->type.is_int() ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, a, b);
        if (op->type.is_scalar()) value = freeze_integer_min_max(value);
    }
}

llvm::Value *CodeGen_LLVM::compare(IRNodeType op, llvm::Value *a, llvm::Value *b, Type t) {
    using P = llvm::CmpInst::Predicate;
    P p;
    if (t.is_float()) {
        switch (op) {
        case IRNodeType::EQ:
            p = P::FCMP_OEQ;
            break;
        case IRNodeType::NE:
            p = P::FCMP_UNE;
            break;
        case IRNodeType::LT:
            p = P::FCMP_OLT;
            break;
        case IRNodeType::LE:
            p = P::FCMP_OLE;
            break;
        case IRNodeType::GT:
            p = P::FCMP_OGT;
            break;
        default:
            p = P::FCMP_OGE;
            break;
        }
        return builder->CreateFCmp(p, a, b);
    }
    bool s = t.is_int();
    switch (op) {
    case IRNodeType::EQ:
        p = P::ICMP_EQ;
        break;
    case IRNodeType::NE:
        p = P::ICMP_NE;
        break;
    case IRNodeType::LT:
        p = s ? P::ICMP_SLT : P::ICMP_ULT;
        break;
    case IRNodeType::LE:
        p = s ? P::ICMP_SLE : P::ICMP_ULE;
        break;
    case IRNodeType::GT:
        p = s ? P::ICMP_SGT : P::ICMP_UGT;
        break;
    default:
        p = s ? P::ICMP_SGE : P::ICMP_UGE;
        break;
    }
    return builder->CreateICmp(p, a, b);
}

void CodeGen_LLVM::visit(const EQ *op) {
    value = compare(IRNodeType::EQ, codegen(op->a), codegen(op->b), op->a.type());
}
void CodeGen_LLVM::visit(const NE *op) {
    value = compare(IRNodeType::NE, codegen(op->a), codegen(op->b), op->a.type());
}
void CodeGen_LLVM::visit(const LT *op) {
    value = compare(IRNodeType::LT, codegen(op->a), codegen(op->b), op->a.type());
}
void CodeGen_LLVM::visit(const LE *op) {
    value = compare(IRNodeType::LE, codegen(op->a), codegen(op->b), op->a.type());
}
void CodeGen_LLVM::visit(const GT *op) {
    value = compare(IRNodeType::GT, codegen(op->a), codegen(op->b), op->a.type());
}
void CodeGen_LLVM::visit(const GE *op) {
    value = compare(IRNodeType::GE, codegen(op->a), codegen(op->b), op->a.type());
}

void CodeGen_LLVM::visit(const And *op) {
    llvm::Value *a = codegen(op->a), *b = codegen(op->b);
    value = builder->CreateAnd(a, b);
}

void CodeGen_LLVM::visit(const Or *op) {
    llvm::Value *a = codegen(op->a), *b = codegen(op->b);
    value = builder->CreateOr(a, b);
}

void CodeGen_LLVM::visit(const Not *op) {
    value = builder->CreateNot(codegen(op->a));
}

void CodeGen_LLVM::visit(const Select *op) {
    llvm::Value *c = codegen(op->condition);
    llvm::Value *t = codegen(op->true_value), *f = codegen(op->false_value);
    value = builder->CreateSelect(c, t, f);
}

llvm::Value *CodeGen_LLVM::broadcast(llvm::Value *v, int lanes) {
    if (lanes == 1) return v;
    if (v->getType()->isVectorTy())
        return concat_vectors(std::vector<llvm::Value *>(size_t(lanes), v));
    return builder->CreateVectorSplat(unsigned(lanes), v);
}

llvm::Value *CodeGen_LLVM::concat_vectors(const std::vector<llvm::Value *> &vs) {
    internal_assert(!vs.empty(), "concat of no vectors");
    std::vector<llvm::Value *> parts;
    for (llvm::Value *v : vs) {
        if (!v->getType()->isVectorTy()) {
            auto *one = llvm::FixedVectorType::get(v->getType(), 1);
            v = builder->CreateInsertElement(llvm::PoisonValue::get(one), v, uint64_t(0));
        }
        parts.push_back(v);
    }
    auto lanes_of = [](llvm::Value *v) {
        return int(llvm::cast<llvm::FixedVectorType>(v->getType())->getNumElements());
    };
    while (parts.size() > 1) {
        std::vector<llvm::Value *> merged;
        for (size_t i = 0; i + 1 < parts.size(); i += 2) {
            llvm::Value *a = parts[i], *b = parts[i + 1];
            int la = lanes_of(a), lb = lanes_of(b), width = std::max(la, lb);
            // shufflevector needs equal input widths: pad the narrower one.
            auto pad = [&](llvm::Value *v, int l) -> llvm::Value * {
                if (l == width) return v;
                std::vector<int> idx;
                for (int k = 0; k < width; k++) idx.push_back(k < l ? k : -1);
                return builder->CreateShuffleVector(v, llvm::PoisonValue::get(v->getType()), idx);
            };
            a = pad(a, la);
            b = pad(b, lb);
            std::vector<int> idx;
            for (int k = 0; k < la; k++) idx.push_back(k);
            for (int k = 0; k < lb; k++) idx.push_back(width + k);
            merged.push_back(builder->CreateShuffleVector(a, b, idx));
        }
        if (parts.size() % 2) merged.push_back(parts.back());
        parts.swap(merged);
    }
    return parts[0];
}

llvm::Value *CodeGen_LLVM::slice_vector(llvm::Value *v, int begin, int size) {
    if (size == 1) return builder->CreateExtractElement(v, uint64_t(begin));
    std::vector<int> idx;
    for (int k = 0; k < size; k++) idx.push_back(begin + k);
    return builder->CreateShuffleVector(v, llvm::PoisonValue::get(v->getType()), idx);
}

void CodeGen_LLVM::visit(const Ramp *op) {
    llvm::Value *base = codegen(op->base), *stride = codegen(op->stride);
    Type et = op->base.type();
    bool is_float = et.is_float();
    if (et.is_scalar()) {
        // base + stride * <0, 1, ..., lanes - 1>
        std::vector<llvm::Constant *> iota;
        for (int i = 0; i < op->lanes; i++) {
            iota.push_back(is_float ? llvm::ConstantFP::get(base->getType(), double(i))
                                    : int_constant(base->getType(), i));
        }
        llvm::Value *steps = llvm::ConstantVector::get(iota);
        llvm::Value *b = builder->CreateVectorSplat(unsigned(op->lanes), base);
        llvm::Value *s = builder->CreateVectorSplat(unsigned(op->lanes), stride);
        value = is_float ? builder->CreateFAdd(b, builder->CreateFMul(s, steps))
                         : builder->CreateAdd(b, builder->CreateMul(s, steps));
        return;
    }
    // A ramp of vectors: concatenate base, base + stride, ...
    std::vector<llvm::Value *> parts{base};
    for (int i = 1; i < op->lanes; i++) {
        llvm::Value *prev = parts.back();
        parts.push_back(is_float ? builder->CreateFAdd(prev, stride)
                                 : builder->CreateAdd(prev, stride));
    }
    value = concat_vectors(parts);
}

void CodeGen_LLVM::visit(const Broadcast *op) {
    value = broadcast(codegen(op->value), op->lanes);
}

void CodeGen_LLVM::visit(const Shuffle *op) {
    std::vector<llvm::Value *> vs;
    for (const Expr &e : op->vectors) vs.push_back(codegen(e));
    int total = 0;
    for (const Expr &e : op->vectors) total += e.type().lanes;
    if (op->indices.size() == 1 && vs.size() == 1 && total == 1) {
        value = vs[0];
        return;
    }
    llvm::Value *all = concat_vectors(vs);
    if (op->indices.size() == 1) {
        value = builder->CreateExtractElement(all, uint64_t(op->indices[0]));
        return;
    }
    bool identity = int(op->indices.size()) == total;
    for (size_t i = 0; identity && i < op->indices.size(); i++) identity = op->indices[i] == int(i);
    value = identity ? all
                     : builder->CreateShuffleVector(all, llvm::PoisonValue::get(all->getType()),
                                                    op->indices);
}

void CodeGen_LLVM::visit(const Let *op) {
    llvm::Value *v = codegen(op->value);
    ScopedBinding<llvm::Value *> bind(symbols, op->name, v);
    if (op->value.type().is_vector()) {
        ScopedBinding<Expr> bind_expr(vector_lets, op->name, op->value);
        value = codegen(op->body);
        return;
    }
    if (op->value.type().is_handle()) {
        ScopedBinding<std::string> root(memory_roots, op->name, memory_root_of(op->value));
        value = codegen(op->body);
        return;
    }
    value = codegen(op->body);
}

} // namespace Internal
} // namespace loom
