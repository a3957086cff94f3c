// Control flow in kernels: serial loops, branches and lets print as in C;
// GPU and parallel loops and assertions cannot occur (device lowering removes
// them). Tracks which values differ between the threads of a block, so that
// a barrier under a thread-dependent branch or loop (which some threads of
// the block would never reach: a hang or a crash on the device) is an error.

#include "codegen/gpu/CodeGen_GPU_C.h"
#include "ir/Error.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

/** Counts a thread-dependent branch or loop for its lifetime. */
struct Divergence {
    int *depth;
    bool on;
    Divergence(int *d, bool varying) : depth(d), on(varying) { *depth += on; }
    ~Divergence() { *depth -= on; }
};

} // namespace

bool CodeGen_GPU_C::varies_by_thread(const Expr &e) const {
    bool varies = false;
    visit_all(e, [&](const IRNode *n) {
        if (varies || n->node_type != IRNodeType::Variable) return;
        const int *v = thread_varying.find(static_cast<const Variable *>(n)->name);
        varies = v && *v;
    });
    return varies;
}

void CodeGen_GPU_C::visit(const For *op) {
    switch (op->for_type) {
    case ForType::GPUBlock:
    case ForType::GPUThread:
    case ForType::GPULane:
    case ForType::Parallel:
        internal_error(kernel_description()
                       << " still has a "
                       << (op->for_type == ForType::Parallel ? "parallel" : "GPU") << " loop over "
                       << op->name
                       << "; device lowering must bind GPU loop variables from the block and "
                          "thread ids, and kernels cannot run parallel loops");
    default:
        break;
    }
    bool varying = varies_by_thread(op->min) || varies_by_thread(op->extent);
    Divergence divergence(&divergent_depth, varying);
    ScopedBinding<int> bind(thread_varying, op->name, varying);
    CodeGen_C::visit(op);
}

void CodeGen_GPU_C::visit(const IfThenElse *op) {
    Divergence divergence(&divergent_depth, varies_by_thread(op->condition));
    CodeGen_C::visit(op);
}

void CodeGen_GPU_C::visit(const LetStmt *op) {
    ScopedBinding<int> bind(thread_varying, op->name, varies_by_thread(op->value));
    CodeGen_C::visit(op);
}

void CodeGen_GPU_C::visit(const AssertStmt *op) {
    internal_error(kernel_description()
                   << " contains an assertion (" << op->condition
                   << "); device lowering must check it on the host before the launch");
}

} // namespace Internal
} // namespace loom
