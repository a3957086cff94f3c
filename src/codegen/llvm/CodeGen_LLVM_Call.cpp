// Calls: intrinsics of the Intrinsic enum, buffer fields, math functions
// ("sqrt_f32", ...) and extern C functions. CodeGenVisitor::codegen_call
// routes each Call to one of these emitters.

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "ir/Error.h"
#include "ir/IROperator.h"
#include "ir/LowerIntrinsics.h"

namespace loom {
namespace Internal {

namespace {

// Math routines LLVM has intrinsics for, by stem; the others call the libm
// function codegen/CodeGenCalls.cpp names for them.
struct MathIntrinsic {
    const char *stem;
    llvm::Intrinsic::ID id;
};

const MathIntrinsic math_intrinsics[] = {
    {"sqrt", llvm::Intrinsic::sqrt},    {"exp", llvm::Intrinsic::exp},
    {"log", llvm::Intrinsic::log},      {"pow", llvm::Intrinsic::pow},
    {"sin", llvm::Intrinsic::sin},      {"cos", llvm::Intrinsic::cos},
    {"floor", llvm::Intrinsic::floor},  {"ceil", llvm::Intrinsic::ceil},
    {"trunc", llvm::Intrinsic::trunc},  {"round", llvm::Intrinsic::roundeven},
    {"abs", llvm::Intrinsic::fabs},     {"fast_exp", llvm::Intrinsic::exp},
    {"fast_log", llvm::Intrinsic::log}, {"fast_pow", llvm::Intrinsic::pow},
    {"fma", llvm::Intrinsic::fma},
};

} // namespace

llvm::Value *CodeGen_LLVM::scalarized_libm_call(const std::string &fn,
                                                const std::vector<llvm::Value *> &args,
                                                llvm::Type *t) {
    auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(t);
    if (!vt) return call_c_function(fn, t, args);
    llvm::Value *result = llvm::PoisonValue::get(t);
    for (unsigned i = 0; i < vt->getNumElements(); i++) {
        std::vector<llvm::Value *> lane_args;
        for (llvm::Value *a : args)
            lane_args.push_back(builder->CreateExtractElement(a, uint64_t(i)));
        llvm::Value *lane = call_c_function(fn, vt->getElementType(), lane_args);
        result = builder->CreateInsertElement(result, lane, uint64_t(i));
    }
    return result;
}

llvm::Value *CodeGen_LLVM::codegen_math(const Call *op, const MathCall &math) {
    const std::string &stem = math.stem;
    std::vector<llvm::Value *> args;
    for (const Expr &a : op->args) args.push_back(codegen(a));
    Type arg_type = op->args[0].type();
    // Half precision computes in float.
    Type compute_type = math.bits == 16 ? Float(32, arg_type.lanes) : arg_type;
    if (math.bits == 16) {
        for (auto &a : args) a = builder->CreateFPExt(a, llvm_type_of(compute_type));
    }
    llvm::Type *ct = llvm_type_of(compute_type);
    auto finish = [&](llvm::Value *v) {
        Type vt =
            v->getType()->getScalarType()->isIntegerTy(1) ? Bool(compute_type.lanes) : compute_type;
        return convert(v, vt, op->type);
    };

    llvm::Value *x = args[0];
    llvm::Constant *inf = llvm::ConstantFP::getInfinity(ct);
    if (stem == "is_nan") return finish(builder->CreateFCmpUNO(x, x));
    if (stem == "is_inf") {
        return finish(
            builder->CreateFCmpOEQ(builder->CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), inf));
    }
    if (stem == "is_finite") {
        return finish(
            builder->CreateFCmpOLT(builder->CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), inf));
    }
    llvm::FastMathFlags approx;
    approx.setApproxFunc();
    approx.setAllowReciprocal();
    if (stem == "fast_inverse") {
        auto *div = builder->CreateFDiv(llvm::ConstantFP::get(ct, 1.0), x);
        llvm::cast<llvm::Instruction>(div)->setFastMathFlags(approx);
        return finish(div);
    }
    if (stem == "fast_inverse_sqrt") {
        auto *root = builder->CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);
        llvm::cast<llvm::Instruction>(root)->setFastMathFlags(approx);
        auto *div = builder->CreateFDiv(llvm::ConstantFP::get(ct, 1.0), root);
        llvm::cast<llvm::Instruction>(div)->setFastMathFlags(approx);
        return finish(div);
    }

    for (const MathIntrinsic &m : math_intrinsics) {
        if (stem != m.stem) continue;
        llvm::CallInst *call = builder->CreateIntrinsic(m.id, {ct}, args);
        if (stem.compare(0, 5, "fast_") == 0) call->setFastMathFlags(approx);
        return finish(call);
    }
    internal_assert(math.libm, "codegen: no way to compute " << op->name);
    std::string fn = std::string(math.libm) + (compute_type.bits == 32 ? "f" : "");
    return finish(scalarized_libm_call(fn, args, ct));
}

llvm::Value *CodeGen_LLVM::codegen_extern(const Call *op) {
    std::vector<llvm::Value *> args;
    std::vector<Type> arg_types;
    for (const Expr &a : op->args) {
        args.push_back(codegen(a));
        arg_types.push_back(a.type());
    }
    llvm::Type *result = op->type.is_void() ? void_t : llvm_type_of(op->type);
    if (op->type.is_vector()) {
        // C functions are scalar: call once per lane.
        return scalarized_libm_call(op->name, args, result);
    }
    llvm::Value *v = call_c_function(op->name, result, args, arg_types);
    note_field_write(op);
    if (op->type.is_void()) return llvm::ConstantInt::get(i32_t, 0);
    return v;
}

llvm::Value *CodeGen_LLVM::codegen_buffer_field(const Call *op) {
    internal_assert(!op->args.empty(), "buffer field intrinsic without a buffer");
    llvm::Value *buf = codegen(op->args[0]);
    auto field = [&](unsigned i) { return builder->CreateStructGEP(buffer_t_type, buf, i); };
    // Volatile where read again at each use (CodeGen_LLVM_Rematerialize.cpp).
    auto load = [&](llvm::Type *t, llvm::Value *p) {
        return builder->CreateLoad(t, p, rematerializing);
    };
    auto type_field = [&](unsigned i, llvm::Type *t) {
        llvm::Value *p =
            builder->CreateGEP(buffer_t_type, buf,
                               {llvm::ConstantInt::get(i32_t, 0), llvm::ConstantInt::get(i32_t, 4),
                                llvm::ConstantInt::get(i32_t, i)});
        return load(t, p);
    };
    auto dim_field = [&](unsigned i) {
        internal_assert(op->args.size() == 2, "buffer dimension intrinsic needs a dimension");
        llvm::Value *dims = load(ptr_t, field(6));
        llvm::Value *d = builder->CreateSExtOrTrunc(codegen(op->args[1]), i32_t);
        llvm::Value *p =
            builder->CreateGEP(dimension_t_type, dims, {d, llvm::ConstantInt::get(i32_t, i)});
        return load(i32_t, p);
    };
    llvm::Value *v = nullptr;
    Type from = Int(32);
    switch (op->op) {
    case Intrinsic::buffer_get_host:
        return load(ptr_t, field(2));
    case Intrinsic::buffer_get_min:
        v = dim_field(0);
        break;
    case Intrinsic::buffer_get_extent:
        v = dim_field(1);
        break;
    case Intrinsic::buffer_get_stride:
        v = dim_field(2);
        break;
    case Intrinsic::buffer_get_dimensions:
        v = load(i32_t, field(5));
        break;
    case Intrinsic::buffer_get_type_code:
        v = type_field(0, i8_t), from = UInt(8);
        break;
    case Intrinsic::buffer_get_type_bits:
        v = type_field(1, i8_t), from = UInt(8);
        break;
    case Intrinsic::buffer_get_type_lanes:
        v = type_field(2, i16_t), from = UInt(16);
        break;
    default:
        internal_error("not a buffer field intrinsic: " << intrinsic_name(op->op));
    }
    return convert(v, from, op->type);
}

llvm::Value *CodeGen_LLVM::codegen_if_then_else(const Call *op) {
    internal_assert(op->args.size() >= 2, "if_then_else needs a condition and a value");
    if (op->args[0].type().is_vector()) {
        // No branching on vectors: evaluate both sides.
        llvm::Value *c = codegen(op->args[0]), *t = codegen(op->args[1]);
        llvm::Value *f =
            op->args.size() > 2 ? codegen(op->args[2]) : llvm::Constant::getNullValue(t->getType());
        return builder->CreateSelect(c, t, f);
    }
    llvm::Value *c = codegen(op->args[0]);
    llvm::BasicBlock *then_block = llvm::BasicBlock::Create(context, "if_then", function);
    llvm::BasicBlock *else_block = llvm::BasicBlock::Create(context, "if_else", function);
    llvm::BasicBlock *after = llvm::BasicBlock::Create(context, "if_after", function);
    builder->CreateCondBr(c, then_block, else_block);
    builder->SetInsertPoint(then_block);
    llvm::Value *t = codegen(op->args[1]);
    llvm::BasicBlock *then_end = builder->GetInsertBlock();
    builder->CreateBr(after);
    builder->SetInsertPoint(else_block);
    llvm::Value *f =
        op->args.size() > 2 ? codegen(op->args[2]) : llvm::Constant::getNullValue(t->getType());
    llvm::BasicBlock *else_end = builder->GetInsertBlock();
    builder->CreateBr(after);
    builder->SetInsertPoint(after);
    llvm::PHINode *phi = builder->CreatePHI(t->getType(), 2);
    phi->addIncoming(t, then_end);
    phi->addIncoming(f, else_end);
    return phi;
}

llvm::Value *CodeGen_LLVM::codegen_debug_print(const Call *op) {
    llvm::Value *first = nullptr;
    llvm::Value *buffer = format_message(op, 0, &first);
    call_c_function("loom_print", void_t, {user_context(), buffer});
    // print() returns its first value.
    if (first && !op->args.empty() && op->args[0].type() == op->type) return first;
    return llvm::Constant::getNullValue(llvm_type_of(op->type));
}

llvm::Value *CodeGen_LLVM::format_message(const Call *op, size_t first_arg,
                                          llvm::Value **first_value) {
    std::vector<Expr> parts(op->args.begin() + first_arg, op->args.end());
    Expr message = Call::make(op->type, Intrinsic::debug_print, parts, Call::Intrinsic);
    const Call *call = message.as<Call>();
    PrintFormat print = print_format(call);
    std::vector<llvm::Value *> args(call->args.size(), nullptr);
    llvm::Value *first = nullptr;
    for (size_t i = 0; i < call->args.size(); i++) {
        if (call->args[i].as<StringImm>()) continue;
        args[i] = codegen(call->args[i]);
        if (!first) first = args[i];
    }
    if (first_value) *first_value = first;
    std::vector<llvm::Value *> values;
    for (const PrintFormat::Value &v : print.values) {
        llvm::Value *x = args[v.arg];
        if (call->args[v.arg].type().is_vector())
            x = builder->CreateExtractElement(x, uint64_t(v.lane));
        switch (v.conversion) {
        case PrintFormat::AsDouble:
            values.push_back(builder->CreateFPExt(x, f64_t));
            break;
        case PrintFormat::AsPointer:
            values.push_back(x);
            break;
        case PrintFormat::AsSigned:
            values.push_back(builder->CreateSExt(x, i64_t));
            break;
        case PrintFormat::AsUnsigned:
            values.push_back(builder->CreateZExt(x, i64_t));
            break;
        }
    }
    const int buffer_size = 1024;
    llvm::Value *buffer =
        create_entry_alloca(i8_t, llvm::ConstantInt::get(i32_t, buffer_size), 16, "print_buffer");
    std::vector<llvm::Value *> snprintf_args{buffer, llvm::ConstantInt::get(i64_t, buffer_size),
                                             string_constant(print.format)};
    snprintf_args.insert(snprintf_args.end(), values.begin(), values.end());
    llvm::Function *snprintf_fn = module->getFunction("snprintf");
    auto *snprintf_type = llvm::FunctionType::get(i32_t, {ptr_t, i64_t, ptr_t}, true);
    if (!snprintf_fn) {
        snprintf_fn = llvm::Function::Create(snprintf_type, llvm::GlobalValue::ExternalLinkage,
                                             "snprintf", module.get());
    }
    builder->CreateCall(snprintf_type, snprintf_fn, snprintf_args);
    return buffer;
}

llvm::Value *CodeGen_LLVM::codegen_require(const Call *op) {
    internal_assert(op->args.size() >= 3, "require needs a condition, a value and a message");
    llvm::Value *ok = codegen(op->args[0]);
    if (op->args[0].type().is_vector()) ok = builder->CreateAndReduce(ok);
    llvm::BasicBlock *failed = llvm::BasicBlock::Create(context, "require_failed", function);
    llvm::BasicBlock *passed = llvm::BasicBlock::Create(context, "require_passed", function);
    llvm::MDBuilder md(context);
    builder->CreateCondBr(ok, passed, failed, md.createLikelyBranchWeights());
    builder->SetInsertPoint(failed);
    llvm::Value *message = format_message(op, 2, nullptr);
    return_with_cleanup(call_c_function("loom_error_message", i32_t, {user_context(), message}));
    builder->SetInsertPoint(passed);
    return codegen(op->args[1]);
}

llvm::Value *CodeGen_LLVM::codegen_intrinsic(const Call *op) {
    const auto &args = op->args;
    Type t = op->type;
    auto arg = [&](size_t i) {
        internal_assert(i < args.size(),
                        "intrinsic " << intrinsic_name(op->op) << " is missing argument " << i);
        return codegen(args[i]);
    };
    switch (op->op) {
    case Intrinsic::abs: {
        Type at = args.at(0).type();
        llvm::Value *a = arg(0);
        if (at.is_float()) return builder->CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a);
        if (at.is_uint()) return convert(a, at, t);
        // |INT_MIN| wraps to the right unsigned value.
        llvm::Value *neg = builder->CreateICmpSLT(a, llvm::Constant::getNullValue(a->getType()));
        return convert(builder->CreateSelect(neg, builder->CreateNeg(a), a),
                       at.with_code(Type::UInt), t);
    }
    case Intrinsic::absd: {
        Type at = args.at(0).type();
        llvm::Value *a = arg(0), *b = arg(1);
        if (at.is_float())
            return builder->CreateUnaryIntrinsic(llvm::Intrinsic::fabs, builder->CreateFSub(a, b));
        llvm::Value *less = compare(IRNodeType::LT, a, b, at);
        llvm::Value *d =
            builder->CreateSelect(less, builder->CreateSub(b, a), builder->CreateSub(a, b));
        return convert(d, at.with_code(Type::UInt), t);
    }
    case Intrinsic::bitwise_and:
        return builder->CreateAnd(arg(0), arg(1));
    case Intrinsic::bitwise_or:
        return builder->CreateOr(arg(0), arg(1));
    case Intrinsic::bitwise_xor:
        return builder->CreateXor(arg(0), arg(1));
    case Intrinsic::bitwise_not:
        return builder->CreateNot(arg(0));
    case Intrinsic::shift_left:
    case Intrinsic::shift_right: {
        llvm::Value *a = arg(0), *b = arg(1);
        Type bt = args.at(1).type();
        bool left = op->op == Intrinsic::shift_left;
        auto shift = [&](bool to_left, llvm::Value *amount) {
            if (to_left) return builder->CreateShl(a, amount);
            return t.is_int() ? builder->CreateAShr(a, amount) : builder->CreateLShr(a, amount);
        };
        auto c = as_const_int(args[1]);
        if (!bt.is_int() || (c && *c >= 0)) return shift(left, b);
        // A negative signed amount shifts the other way.
        llvm::Value *negative =
            builder->CreateICmpSLT(b, llvm::Constant::getNullValue(b->getType()));
        return builder->CreateSelect(negative, shift(!left, builder->CreateNeg(b)), shift(left, b));
    }
    case Intrinsic::count_leading_zeros:
    case Intrinsic::count_trailing_zeros:
    case Intrinsic::popcount: {
        Type at = args.at(0).type();
        llvm::Value *a = arg(0), *r;
        if (op->op == Intrinsic::popcount) {
            r = builder->CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, a);
        } else {
            auto id = op->op == Intrinsic::count_leading_zeros ? llvm::Intrinsic::ctlz
                                                               : llvm::Intrinsic::cttz;
            r = builder->CreateBinaryIntrinsic(id, a, llvm::ConstantInt::getFalse(context));
        }
        return convert(r, at.with_code(Type::UInt), t);
    }
    case Intrinsic::div_round_to_zero:
        return round_to_zero_div_mod(arg(0), arg(1), t, true);
    case Intrinsic::mod_round_to_zero:
        return round_to_zero_div_mod(arg(0), arg(1), t, false);
    case Intrinsic::likely:
    case Intrinsic::likely_if_innermost:
    case Intrinsic::promise_clamped:
    case Intrinsic::unsafe_promise_clamped:
        return arg(0);
    case Intrinsic::strict_float: {
        // IEEE semantics: no `contract` flag, so nothing fuses into an FMA.
        llvm::IRBuilderBase::FastMathFlagGuard guard(*builder);
        builder->clearFastMathFlags();
        return arg(0);
    }
    case Intrinsic::saturating_add:
    case Intrinsic::saturating_sub: {
        Type at = args.at(0).type();
        llvm::Value *a = arg(0), *b = arg(1);
        bool add = op->op == Intrinsic::saturating_add;
        if (at.is_float()) return add ? builder->CreateFAdd(a, b) : builder->CreateFSub(a, b);
        auto id = add ? (at.is_int() ? llvm::Intrinsic::sadd_sat : llvm::Intrinsic::uadd_sat)
                      : (at.is_int() ? llvm::Intrinsic::ssub_sat : llvm::Intrinsic::usub_sat);
        return builder->CreateBinaryIntrinsic(id, a, b);
    }
    case Intrinsic::halving_add:
    case Intrinsic::rounding_halving_add:
    case Intrinsic::halving_sub:
        // Widened arithmetic that LLVM matches (pavgb/pavgw), or bit tricks.
        return codegen(lower_fixed_point_intrinsic(op));
    case Intrinsic::require:
        return codegen_require(op);
    case Intrinsic::trace:
        return codegen_trace(op);
    case Intrinsic::unreachable:
        return llvm::Constant::getNullValue(llvm_type_of(t));
    case Intrinsic::return_second: {
        arg(0);
        return arg(1);
    }
    case Intrinsic::undef:
        return llvm::UndefValue::get(llvm_type_of(t));
    case Intrinsic::memory_fence:
        // After streaming (non-temporal) stores, which x86 orders weakly:
        // MFENCE there.
        builder->CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
        return llvm::ConstantInt::get(i32_t, 0);
    case Intrinsic::prefetch: {
        // A read prefetch into all cache levels (prefetcht0 on x86).
        const auto *buffer = args.at(0).as<StringImm>();
        internal_assert(buffer, "prefetch needs a buffer name");
        llvm::Value *ptr =
            element_pointer(buffer->value, llvm_memory_type_of(t), codegen(args.at(1)));
        llvm::Function *prefetch = llvm::Intrinsic::getDeclaration(
            module.get(), llvm::Intrinsic::prefetch, {ptr->getType()});
        builder->CreateCall(
            prefetch, {ptr, builder->getInt32(0), builder->getInt32(3), builder->getInt32(1)});
        return llvm::Constant::getNullValue(llvm_type_of(t));
    }
    default: // the other emitters' intrinsics (CodeGenVisitor::codegen_call)
        break;
    }
    internal_error("codegen: unhandled intrinsic " << intrinsic_name(op->op));
}

} // namespace Internal
} // namespace loom
