// atomic_update in GPU kernels: the dialect's atomic call when the new value
// is `old op e` for an operation it has (atomic_add on ints, atomicAdd on
// floats in CUDA, ...), else a
// compare-and-swap loop on the element's bits that recomputes the new value
// from the value it saw. Works on global and shared memory alike: the
// pointer carries the memory's address space.

#include "codegen/gpu/CodeGen_GPU_C.h"
#include "ir/Error.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

std::string CodeGen_GPU_C::codegen_atomic_update(const Call *op) {
    internal_assert(op->args.size() == 4, "atomic_update takes 4 arguments");
    const auto *name = op->args[0].as<StringImm>();
    const auto *old = op->args[2].as<StringImm>();
    internal_assert(name && old, "atomic_update needs a buffer name and an old-value name");
    Type t = op->type;
    internal_assert(t.is_scalar(), "atomic_update of a vector");
    const Symbol memory = symbol(name->value);
    used_names.insert(memory.c_name);
    std::string index = codegen(op->args[1]);
    const Expr &value = op->args[3];

    AtomicOp rmw;
    Expr operand;
    if (!t.is_bool() && match_atomic_rmw(value, old->value, &rmw, &operand)) {
        std::string ptr = "(" + atomic_pointer_type(t, memory.address_space) + ")" + memory.c_name +
                          " + " + index;
        std::string call = atomic_rmw(rmw, t, ptr, codegen(operand));
        if (!call.empty()) {
            line() << call << "\n";
            return "0";
        }
    }

    auto unsupported = [&]() {
        user_error(kernel_description()
                   << " updates " << name->value << " atomically with values of type "
                   << type_to_string(t) << ", but " << dialect_name()
                   << " has no atomic operation on " << int(t.bits)
                   << "-bit values; use a 32- or 64-bit type for the updated Func");
    };

    // Compare-and-swap on the element's bits.
    Type bits = UInt(t.bits);
    std::string ptr_type = atomic_pointer_type(bits, memory.address_space);
    std::string ptr = "_atomic" + std::to_string(next_id++);
    std::string current = "_current" + std::to_string(next_id++);
    line() << ptr_type << ptr << " = (" << ptr_type << ")" << memory.c_name << " + " << index
           << ";\n";
    line() << c_type(bits) << " " << current << " = *" << ptr << ";\n";
    line() << "for (;;) {\n";
    indent_level++;
    std::string old_value = unique_name(old->value);
    std::string old_bits = t == bits ? current : codegen_reinterpret(bits, t, current);
    line() << c_type(t) << " " << old_value << " = " << old_bits << ";\n";
    std::string next;
    {
        ScopedBinding<Symbol> bind(symbols, old->value, Symbol{old_value, t});
        next = codegen(value);
    }
    std::string next_bits = t == bits ? next : codegen_reinterpret(t, bits, next);
    std::string cas = atomic_cas(bits, ptr, current, next_bits);
    if (cas.empty()) unsupported();
    std::string seen = "_seen" + std::to_string(next_id++);
    line() << c_type(bits) << " " << seen << " = " << cas << ";\n";
    line() << "if (" << seen << " == " << current << ") break;\n";
    line() << current << " = " << seen << ";\n";
    mark_unused_lets(old_value);
    indent_level--;
    line() << "}\n";
    return "0";
}

} // namespace Internal
} // namespace loom
