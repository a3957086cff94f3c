// codegen_llvm(): module set-up, the four entry points of a LoweredFunc and
// the helpers every part of the visitor shares.

#include "codegen/llvm/CodeGen_LLVM.h"
#include "codegen/llvm/LaneGathers.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>

#include "codegen/ArgvMessages.h"
#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "ir/Error.h"
#include "ir/IRVisitor.h"
#include "ir/StackGuard.h"

namespace loom {
namespace Internal {

CodeGen_LLVM::CodeGen_LLVM(const Target &t, llvm::LLVMContext &ctx, llvm::TargetMachine &tm)
    : target(t), context(ctx), target_machine(tm) {
    init_types();
}

void CodeGen_LLVM::init_types() {
    void_t = llvm::Type::getVoidTy(context);
    i1_t = llvm::Type::getInt1Ty(context);
    i8_t = llvm::Type::getInt8Ty(context);
    i16_t = llvm::Type::getInt16Ty(context);
    i32_t = llvm::Type::getInt32Ty(context);
    i64_t = llvm::Type::getInt64Ty(context);
    f32_t = llvm::Type::getFloatTy(context);
    f64_t = llvm::Type::getDoubleTy(context);
    ptr_t = llvm::PointerType::get(context, 0);
    // These mirror include/LoomRuntime.h field by field; LLVM's natural
    // alignment rules give the C layout on LP64 targets.
    type_t_type = llvm::StructType::create(context, {i8_t, i8_t, i16_t}, "loom_type_t");
    dimension_t_type =
        llvm::StructType::create(context, {i32_t, i32_t, i32_t, i32_t}, "loom_dimension_t");
    buffer_t_type = llvm::StructType::create(
        context, {i64_t, ptr_t, ptr_t, i64_t, type_t_type, i32_t, ptr_t, ptr_t}, "loom_buffer_t");
    argument_t_type =
        llvm::StructType::create(context, {ptr_t, i32_t, i32_t, type_t_type}, "loom_argument_t");
    metadata_t_type = llvm::StructType::create(context, {i32_t, i32_t, ptr_t, ptr_t, ptr_t},
                                               "loom_pipeline_metadata_t");
}

llvm::Type *CodeGen_LLVM::llvm_type_of(Type t) const {
    llvm::Type *scalar = nullptr;
    switch (t.code) {
    case Type::Int:
    case Type::UInt:
        scalar = llvm::Type::getIntNTy(context, t.bits);
        break;
    case Type::Float:
        scalar = t.bits == 16   ? llvm::Type::getHalfTy(context)
                 : t.bits == 32 ? f32_t
                 : t.bits == 64 ? f64_t
                                : nullptr;
        break;
    case Type::BFloat:
        // Brain floats are bits here: lowering computes with them in float
        // (EmulateFloat16Math).
        scalar = llvm::Type::getInt16Ty(context);
        break;
    case Type::Handle:
        scalar = ptr_t;
        break;
    }
    internal_assert(scalar && t.bits > 0, "no LLVM type for " << type_to_string(t));
    if (t.lanes > 1) return llvm::FixedVectorType::get(scalar, t.lanes);
    return scalar;
}

llvm::Type *CodeGen_LLVM::llvm_memory_type_of(Type t) const {
    if (t.is_bool()) return llvm_type_of(UInt(8, t.lanes));
    return llvm_type_of(t);
}

llvm::Value *CodeGen_LLVM::to_memory(llvm::Value *v, Type t) {
    if (t.is_bool()) return builder->CreateZExt(v, llvm_memory_type_of(t));
    return v;
}

llvm::Value *CodeGen_LLVM::from_memory(llvm::Value *v, Type t) {
    if (t.is_bool()) return builder->CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    return v;
}

llvm::Constant *CodeGen_LLVM::string_constant(const std::string &s) {
    auto it = string_constants.find(s);
    if (it != string_constants.end()) return it->second;
    llvm::Constant *data = llvm::ConstantDataArray::getString(context, s, true);
    auto *global = new llvm::GlobalVariable(*module, data->getType(), true,
                                            llvm::GlobalValue::PrivateLinkage, data, "str");
    global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    global->setAlignment(llvm::Align(1));
    string_constants[s] = global;
    return global;
}

llvm::Value *CodeGen_LLVM::user_context() {
    return sym_get("__user_context");
}

llvm::Value *CodeGen_LLVM::sym_get(const std::string &name) const {
    const auto *v = symbols.find(name);
    internal_assert(v, "codegen: symbol \"" << name << "\" is not bound");
    return *v;
}

llvm::Value *CodeGen_LLVM::codegen(const Expr &e) {
    internal_assert(e.defined(), "codegen of an undefined Expr");
    value = nullptr;
    e.accept(this);
    internal_assert(value, "codegen produced no value for an expression of type "
                               << type_to_string(e.type()));
    llvm::Value *result = value;
    value = nullptr;
    return result;
}

void CodeGen_LLVM::codegen(const Stmt &s) {
    if (s.defined()) s.accept(this);
}

llvm::Value *CodeGen_LLVM::call_c_function(const std::string &name, llvm::Type *result,
                                           const std::vector<llvm::Value *> &args,
                                           const std::vector<Type> &arg_types) {
    std::vector<llvm::Type *> params;
    for (llvm::Value *a : args) params.push_back(a->getType());
    auto *fn_type = llvm::FunctionType::get(result, params, false);
    llvm::Function *fn = module->getFunction(name);
    if (!fn) {
        fn =
            llvm::Function::Create(fn_type, llvm::GlobalValue::ExternalLinkage, name, module.get());
        fn->addFnAttr(llvm::Attribute::NoUnwind);
        // The C ABI wants narrow integer arguments extended by the caller.
        for (size_t i = 0; i < arg_types.size() && i < params.size(); i++) {
            Type t = arg_types[i];
            if (t.is_scalar() && (t.is_int() || t.is_uint()) && t.bits < 32) {
                fn->addParamAttr(unsigned(i),
                                 t.is_int() ? llvm::Attribute::SExt : llvm::Attribute::ZExt);
            }
        }
    }
    llvm::CallInst *call = builder->CreateCall(fn_type, fn, args);
    call->setAttributes(fn->getAttributes());
    return call;
}

void CodeGen_LLVM::make_cleanup_blocks(size_t i) {
    // From the innermost allocation without a block outwards, up to one that
    // has a block already (whose outer ones have theirs) or the outermost.
    size_t first = i;
    while (first > 0 && !heap_allocations[first - 1].cleanup) first--;
    if (heap_allocations[first].cleanup) first++;
    llvm::BasicBlock *saved = builder->GetInsertBlock();
    for (size_t k = first; k <= i; k++) {
        HeapRelease &h = heap_allocations[k];
        h.cleanup = llvm::BasicBlock::Create(context, "release", function);
        builder->SetInsertPoint(h.cleanup);
        h.code = builder->CreatePHI(i32_t, 2, "return_code");
    }
    for (size_t k = first; k <= i; k++) {
        HeapRelease &h = heap_allocations[k];
        builder->SetInsertPoint(h.cleanup);
        bool is_free = std::string(h.function) == "loom_free";
        call_c_function(h.function, is_free ? void_t : i32_t, {user_context(), h.value});
        if (k == 0) {
            builder->CreateRet(h.code);
        } else {
            HeapRelease &outer = heap_allocations[k - 1];
            outer.code->addIncoming(h.code, builder->GetInsertBlock());
            builder->CreateBr(outer.cleanup);
        }
    }
    builder->SetInsertPoint(saved);
}

void CodeGen_LLVM::return_with_cleanup(llvm::Value *code) {
    if (heap_allocations.empty()) {
        builder->CreateRet(code);
        return;
    }
    size_t inner = heap_allocations.size() - 1;
    if (!heap_allocations[inner].cleanup) make_cleanup_blocks(inner);
    heap_allocations[inner].code->addIncoming(code, builder->GetInsertBlock());
    builder->CreateBr(heap_allocations[inner].cleanup);
}

llvm::AllocaInst *CodeGen_LLVM::create_entry_alloca(llvm::Type *t, llvm::Value *count, int align,
                                                    const std::string &name) {
    llvm::IRBuilder<> entry(entry_block, entry_block->getFirstInsertionPt());
    llvm::AllocaInst *a = entry.CreateAlloca(t, count, name);
    a->setAlignment(llvm::Align(align));
    return a;
}

namespace {

/** Loops not inside another loop. */
int count_loop_nests(const Stmt &s) {
    struct Counter : public IRVisitor {
        int nests = 0;
        using IRVisitor::visit;
        void visit(const For *) override { nests++; }
    } counter;
    s.accept(&counter);
    return counter.nests;
}

/** Beyond this many loop nests, each gets a function of its own (see
 * codegen_outlined_loop); below it, one function leaves LLVM free to share
 * values between nests. */
constexpr int max_loop_nests_per_function = 32;

} // namespace

void CodeGen_LLVM::set_function_attributes(llvm::Function *fn) {
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    fn->addFnAttr("target-cpu", target_machine.getTargetCPU());
    fn->addFnAttr("target-features", target_machine.getTargetFeatureString());
}

llvm::Function *CodeGen_LLVM::define_body_function(const LoweredFunc &f) {
    std::vector<llvm::Type *> params{ptr_t};
    for (const auto &a : f.args) params.push_back(a.is_buffer() ? ptr_t : llvm_type_of(a.type));
    auto *fn_type = llvm::FunctionType::get(i32_t, params, false);
    function = llvm::Function::Create(fn_type, llvm::GlobalValue::ExternalLinkage,
                                      f.name + "_with_context", module.get());
    set_function_attributes(function);
    // The wrappers call this; inlining it into both would double the code to
    // optimize and compile.
    function->addFnAttr(llvm::Attribute::NoInline);
    function->getArg(0)->setName("__user_context");
    for (size_t i = 0; i < f.args.size(); i++) {
        const auto &a = f.args[i];
        llvm::Argument *arg = function->getArg(unsigned(i + 1));
        arg->setName(a.is_buffer() ? a.name + ".buffer" : a.name);
        if (!a.is_buffer() && a.type.is_bool()) arg->addAttr(llvm::Attribute::ZExt);
    }

    entry_block = llvm::BasicBlock::Create(context, "entry", function);
    builder->SetInsertPoint(entry_block);
    symbols.push("__user_context", function->getArg(0));
    entry_arguments = {"__user_context"};
    written_fields.clear();
    written_log.clear();
    for (size_t i = 0; i < f.args.size(); i++) {
        const auto &a = f.args[i];
        std::string name = a.is_buffer() ? a.name + ".buffer" : a.name;
        symbols.push(name, function->getArg(unsigned(i + 1)));
        entry_arguments.insert(name);
    }
    push_embedded_buffers(f);
    // The loop nests leave this function (each in a function of its own, or
    // with many nests, in runs of a few), and what remains is glue: buffer
    // checks and field reads, allocations, calls. It runs once per call and
    // is compiled without optimization (optnone; the JIT uses an
    // unoptimizing target machine, src/jit/ModuleSplit.h): LLVM's optimizing
    // code generation costs about twice as much per instruction of glue (its
    // calls and branches) as of a loop, a third to a half of a small
    // pipeline's IR (blur, wavelet, matmul), and is not linear in its size
    // (2000 outputs: 10 s instead of 30). Without optimization it costs a
    // quarter of that; a call of a pipeline takes as long as before.
    function->addFnAttr(llvm::Attribute::OptimizeNone);
    int nests = count_loop_nests(f.body);
    outline_loop_nests = nests > max_loop_nests_per_function;
    single_loop_nest = nests == 1;
    if (outline_loop_nests) {
        codegen_region(f.body);
    } else {
        PiecesScope pieces(*this, f.body);
        codegen_region(f.body);
    }
    pop_embedded_buffers(f);
    entry_arguments.clear();
    if (!builder->GetInsertBlock()->getTerminator())
        builder->CreateRet(llvm::ConstantInt::get(i32_t, 0));
    for (size_t i = 0; i < f.args.size(); i++) {
        const auto &a = f.args[i];
        symbols.pop(a.is_buffer() ? a.name + ".buffer" : a.name);
    }
    symbols.pop("__user_context");
    return function;
}

void CodeGen_LLVM::define_public_function(const LoweredFunc &f, llvm::Function *body) {
    std::vector<llvm::Type *> params(body->getFunctionType()->param_begin() + 1,
                                     body->getFunctionType()->param_end());
    auto *fn_type = llvm::FunctionType::get(i32_t, params, false);
    auto *fn =
        llvm::Function::Create(fn_type, llvm::GlobalValue::ExternalLinkage, f.name, module.get());
    set_function_attributes(fn);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", fn));
    std::vector<llvm::Value *> args{
        llvm::ConstantPointerNull::get(llvm::PointerType::get(context, 0))};
    for (size_t i = 0; i < f.args.size(); i++) {
        llvm::Argument *arg = fn->getArg(unsigned(i));
        arg->setName(f.args[i].name);
        if (!f.args[i].is_buffer() && f.args[i].type.is_bool()) arg->addAttr(llvm::Attribute::ZExt);
        args.push_back(arg);
    }
    b.CreateRet(b.CreateCall(body, args));
}

void CodeGen_LLVM::define_argv_function(const LoweredFunc &f, llvm::Function *body) {
    auto *fn_type = llvm::FunctionType::get(i32_t, {ptr_t}, false);
    auto *fn = llvm::Function::Create(fn_type, llvm::GlobalValue::ExternalLinkage, f.name + "_argv",
                                      module.get());
    set_function_attributes(fn);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", fn));
    llvm::Value *argv = fn->getArg(0);
    // A NULL argv, or a NULL pointer where a scalar's value should be, is
    // reported (through the context, when there is one) instead of read.
    llvm::FunctionCallee report = module->getOrInsertFunction(
        "loom_error_message", llvm::FunctionType::get(i32_t, {ptr_t, ptr_t}, false));
    auto fail_if_null = [&](llvm::Value *p, llvm::Value *user_context, const std::string &text) {
        auto *bad = llvm::BasicBlock::Create(context, "argv_null", fn);
        auto *ok = llvm::BasicBlock::Create(context, "argv_ok", fn);
        b.CreateCondBr(b.CreateIsNull(p), bad, ok);
        b.SetInsertPoint(bad);
        b.CreateRet(b.CreateCall(report, {user_context, string_constant(text)}));
        b.SetInsertPoint(ok);
    };
    fail_if_null(argv, llvm::ConstantPointerNull::get(llvm::PointerType::get(context, 0)),
                 argv_null_message(f));
    auto slot = [&](size_t i) {
        return b.CreateLoad(ptr_t, b.CreateConstInBoundsGEP1_64(ptr_t, argv, i),
                            "argv." + std::to_string(i));
    };
    std::vector<llvm::Value *> args{slot(0)};
    for (size_t i = 0; i < f.args.size(); i++) {
        const auto &a = f.args[i];
        llvm::Value *p = slot(i + 1);
        if (a.is_buffer()) {
            args.push_back(p);
        } else {
            fail_if_null(p, args[0], argv_slot_null_message(f, i));
            llvm::Value *v = b.CreateLoad(llvm_memory_type_of(a.type), p, a.name);
            if (a.type.is_bool()) v = b.CreateICmpNE(v, llvm::ConstantInt::get(i8_t, 0));
            args.push_back(v);
        }
    }
    b.CreateRet(b.CreateCall(body, args));
}

void CodeGen_LLVM::define_metadata_function(const LoweredFunc &f) {
    std::vector<llvm::Constant *> entries;
    for (const auto &a : f.args) {
        int kind = a.kind == LoweredArgument::InputScalar   ? loom_argument_kind_input_scalar
                   : a.kind == LoweredArgument::InputBuffer ? loom_argument_kind_input_buffer
                                                            : loom_argument_kind_output_buffer;
        llvm::Constant *type =
            llvm::ConstantStruct::get(type_t_type, {llvm::ConstantInt::get(i8_t, a.type.code),
                                                    llvm::ConstantInt::get(i8_t, a.type.bits),
                                                    llvm::ConstantInt::get(i16_t, a.type.lanes)});
        entries.push_back(llvm::ConstantStruct::get(
            argument_t_type, {string_constant(a.name), llvm::ConstantInt::get(i32_t, kind),
                              llvm::ConstantInt::get(i32_t, a.dimensions), type}));
    }
    auto *array_type = llvm::ArrayType::get(argument_t_type, entries.size());
    auto *arguments = new llvm::GlobalVariable(
        *module, array_type, true, llvm::GlobalValue::PrivateLinkage,
        llvm::ConstantArray::get(array_type, entries), f.name + "_arguments");
    llvm::Constant *metadata = llvm::ConstantStruct::get(
        metadata_t_type,
        {llvm::ConstantInt::get(i32_t, 1), llvm::ConstantInt::get(i32_t, int(f.args.size())),
         arguments, string_constant(target.to_string()), string_constant(f.name)});
    auto *global =
        new llvm::GlobalVariable(*module, metadata_t_type, true, llvm::GlobalValue::PrivateLinkage,
                                 metadata, f.name + "_metadata_data");

    auto *fn_type = llvm::FunctionType::get(ptr_t, {}, false);
    auto *fn = llvm::Function::Create(fn_type, llvm::GlobalValue::ExternalLinkage,
                                      f.name + "_metadata", module.get());
    set_function_attributes(fn);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", fn));
    b.CreateRet(global);
}

std::unique_ptr<llvm::Module> CodeGen_LLVM::compile(const LoweredFunc &f) {
    internal_assert(f.body.defined(), "LoweredFunc " << f.name << " has no body");
    module = std::make_unique<llvm::Module>(f.name, context);
    module->setTargetTriple(target_machine.getTargetTriple().str());
    module->setDataLayout(target_machine.createDataLayout());
    builder = std::make_unique<llvm::IRBuilder<>>(context);
    // As in Halide, a float multiply feeding an add may become one fused
    // multiply-add (rounded once) unless the target asks for strict_float.
    // The builder stamps these flags on every float operation it creates.
    llvm::FastMathFlags float_flags;
    if (!target.has_feature(Target::StrictFloat)) float_flags.setAllowContract();
    builder->setFastMathFlags(float_flags);

    llvm::Function *body = define_body_function(f);
    define_public_function(f, body);
    define_argv_function(f, body);
    define_metadata_function(f);
    lower_gathers(*module, target_machine);

    builder.reset();
    return std::move(module);
}

std::unique_ptr<llvm::Module> codegen_llvm(const LoweredFunc &f, const Target &t,
                                           llvm::LLVMContext &ctx, llvm::TargetMachine &tm) {
    std::unique_ptr<llvm::Module> module;
    run_on_deep_stack([&] {
        CodeGen_LLVM cg(t, ctx, tm);
        module = cg.compile(f);
    });
    return module;
}

} // namespace Internal
} // namespace loom
