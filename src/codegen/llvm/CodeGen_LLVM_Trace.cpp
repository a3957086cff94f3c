// The trace intrinsic (lower/InjectTracing.cpp): the value and coordinates
// go to stack slots and loom_trace gets pointers to them.

#include <algorithm>

#include <llvm/IR/Constants.h>

#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "ir/Error.h"

namespace loom {
namespace Internal {

llvm::Value *CodeGen_LLVM::codegen_trace(const Call *op) {
    const auto &args = op->args;
    internal_assert(args.size() >= 8, "trace needs at least 8 arguments");
    const auto *func = args[0].as<StringImm>();
    const auto *tag = args[6].as<StringImm>();
    internal_assert(func && tag, "trace: the func name and tag must be strings");
    Type value_type = args[7].type();
    int lanes = int(value_type.lanes);
    for (size_t i = 8; i < args.size(); i++) lanes = std::max(lanes, int(args[i].type().lanes));
    internal_assert(value_type.lanes == 1 || value_type.lanes == lanes,
                    "trace: the value and coordinates differ in lanes");

    llvm::Value *value = to_memory(codegen(args[7]), value_type);
    if (value_type.lanes < lanes) value = broadcast(value, lanes);
    llvm::Value *value_slot = create_entry_alloca(value->getType(), nullptr, 16, "trace_value");
    builder->CreateStore(value, value_slot);

    int dimensions = int(args.size() - 8) * lanes;
    llvm::Value *coordinates = llvm::ConstantPointerNull::get(llvm::PointerType::get(context, 0));
    if (dimensions > 0) {
        coordinates = create_entry_alloca(i32_t, llvm::ConstantInt::get(i32_t, dimensions), 16,
                                          "trace_coordinates");
        for (size_t i = 8; i < args.size(); i++) {
            llvm::Value *c = codegen(args[i]);
            if (lanes > 1 && !c->getType()->isVectorTy()) c = broadcast(c, lanes);
            llvm::Value *at =
                builder->CreateConstInBoundsGEP1_32(i32_t, coordinates, unsigned((i - 8) * lanes));
            builder->CreateStore(c, at);
        }
    }
    auto i32 = [&](const Expr &e) { return codegen(e); };
    std::vector<llvm::Value *> call_args{user_context(),
                                         string_constant(func->value),
                                         value_slot,
                                         coordinates,
                                         i32(args[4]),
                                         i32(args[5]),
                                         llvm::ConstantInt::get(i32_t, lanes),
                                         i32(args[1]),
                                         i32(args[2]),
                                         i32(args[3]),
                                         llvm::ConstantInt::get(i32_t, dimensions),
                                         string_constant(tag->value)};
    return call_c_function("loom_trace", i32_t, call_args);
}

} // namespace Internal
} // namespace loom
