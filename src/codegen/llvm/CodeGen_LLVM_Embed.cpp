// Concrete Buffers embedded in the module (LoweredFunc::embedded_buffers):
// each becomes three internal constant globals -- its host bytes, its
// loom_dimension_t array and its loom_buffer_t -- and "b.buffer" names the
// last one, so the body reads it exactly as it reads a buffer argument.
// Nothing in generated code writes a buffer struct, so all three are
// read-only, and LLVM folds the fields the code loads into constants.

#include <algorithm>
#include <cstdint>
#include <vector>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>

#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "ir/Error.h"

namespace loom {
namespace Internal {

namespace {

/** The element offsets (from the host pointer) of the first and last
 * element the buffer spans; empty is set for buffers with no elements. */
struct ElementSpan {
    int64_t first = 0, last = 0;
    bool empty = false;
};

ElementSpan element_span(const loom_buffer_t &raw) {
    ElementSpan span;
    for (int d = 0; d < raw.dimensions; d++) {
        const loom_dimension_t &dim = raw.dim[d];
        if (dim.extent <= 0) {
            span.empty = true;
            continue;
        }
        int64_t reach = int64_t(dim.extent - 1) * int64_t(dim.stride);
        (reach < 0 ? span.first : span.last) += reach;
    }
    return span;
}

llvm::GlobalVariable *constant_global(llvm::Module &m, llvm::Constant *init,
                                      const std::string &name, uint64_t align) {
    auto *g = new llvm::GlobalVariable(m, init->getType(), true, llvm::GlobalValue::InternalLinkage,
                                       init, name);
    g->setAlignment(llvm::Align(align));
    return g;
}

} // namespace

void CodeGen_LLVM::push_embedded_buffers(const LoweredFunc &f) {
    for (const LoweredArgument &a : f.embedded_buffers) {
        internal_assert(a.buffer.defined(), "embedded buffer " << a.name << " has no Buffer");
        const loom_buffer_t &raw = *a.buffer.raw_buffer();
        if (!raw.host) {
            user_error("Buffer " << a.name
                                 << " is read by the pipeline but has no host data to embed in "
                                    "the compiled object");
        }
        const int64_t elem_bytes =
            std::max(1, (int(raw.type.bits) + 7) / 8) * int64_t(raw.type.lanes);
        ElementSpan span = element_span(raw);
        const uint8_t *start = raw.host + span.first * elem_bytes;
        size_t bytes = span.empty ? 0 : size_t((span.last - span.first + 1) * elem_bytes);
        llvm::Constant *bytes_init =
            bytes == 0
                ? llvm::ConstantAggregateZero::get(llvm::ArrayType::get(i8_t, 1))
                : llvm::ConstantDataArray::get(context, llvm::ArrayRef<uint8_t>(start, bytes));
        llvm::GlobalVariable *data = constant_global(*module, bytes_init, a.name + ".host_data",
                                                     uint64_t(std::max<int64_t>(16, elem_bytes)));
        // The host pointer addresses the element at the mins, which a negative
        // stride places after the first byte stored.
        llvm::Constant *host = llvm::ConstantExpr::getInBoundsGetElementPtr(
            i8_t, data, llvm::ConstantInt::get(i64_t, -span.first * elem_bytes));

        llvm::Constant *dims = llvm::ConstantPointerNull::get(llvm::PointerType::get(context, 0));
        if (raw.dimensions > 0) {
            std::vector<llvm::Constant *> entries;
            for (int d = 0; d < raw.dimensions; d++) {
                const loom_dimension_t &dim = raw.dim[d];
                entries.push_back(llvm::ConstantStruct::get(
                    dimension_t_type, {llvm::ConstantInt::get(i32_t, dim.min),
                                       llvm::ConstantInt::get(i32_t, dim.extent),
                                       llvm::ConstantInt::get(i32_t, dim.stride),
                                       llvm::ConstantInt::get(i32_t, dim.flags)}));
            }
            auto *array_type = llvm::ArrayType::get(dimension_t_type, entries.size());
            dims = constant_global(*module, llvm::ConstantArray::get(array_type, entries),
                                   a.name + ".dims", 4);
        }

        llvm::Constant *type =
            llvm::ConstantStruct::get(type_t_type, {llvm::ConstantInt::get(i8_t, raw.type.code),
                                                    llvm::ConstantInt::get(i8_t, raw.type.bits),
                                                    llvm::ConstantInt::get(i16_t, raw.type.lanes)});
        llvm::Constant *null = llvm::ConstantPointerNull::get(llvm::PointerType::get(context, 0));
        llvm::Constant *buffer = llvm::ConstantStruct::get(
            buffer_t_type,
            {llvm::ConstantInt::get(i64_t, 0), null, host, llvm::ConstantInt::get(i64_t, 0), type,
             llvm::ConstantInt::get(i32_t, raw.dimensions), dims, null});
        symbols.push(a.name + ".buffer", constant_global(*module, buffer, a.name + ".buffer", 8));
    }
}

void CodeGen_LLVM::pop_embedded_buffers(const LoweredFunc &f) {
    for (auto it = f.embedded_buffers.rbegin(); it != f.embedded_buffers.rend(); ++it) {
        symbols.pop(it->name + ".buffer");
    }
}

} // namespace Internal
} // namespace loom
