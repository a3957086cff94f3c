#include "lower/CanonicalGPUNames.h"

#include <algorithm>

#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/Substitute.h"
#include "lower/GPULoops.h"

namespace loom {
namespace Internal {

namespace {

/** The deepest nesting of block (or thread) loops inside a statement. */
class GPUDepth : public IRVisitor {
public:
    explicit GPUDepth(bool blocks) : blocks(blocks) {}
    int depth = 0;

private:
    bool blocks;
    int current = 0;
    using IRVisitor::visit;
    void visit(const For *op) override {
        bool counts = blocks ? is_gpu_block(op->for_type) : is_gpu_thread(op->for_type);
        current += counts;
        depth = std::max(depth, current);
        IRVisitor::visit(op);
        current -= counts;
    }
};

int gpu_depth(const Stmt &s, bool blocks) {
    GPUDepth d(blocks);
    s.accept(&d);
    return d.depth;
}

class CanonicalGPUNames : public IRMutator {
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        if (!is_gpu_loop(op->for_type) || gpu_loop_dim(op->name) >= 0) return IRMutator::visit(op);
        bool block = is_gpu_block(op->for_type);
        int dim = gpu_depth(op->body, block);
        std::string name = op->name + gpu_loop_suffix(block, dim);
        Stmt body = substitute(op->name, Variable::make(Int(32), name), op->body);
        return For::make(name, mutate(op->min), mutate(op->extent), op->for_type, op->device_api,
                         mutate(body));
    }
};

} // namespace

int gpu_thread_depth(const Stmt &s) {
    return gpu_depth(s, false);
}

Stmt canonical_gpu_names(const Stmt &s) {
    return CanonicalGPUNames().mutate(s);
}

} // namespace Internal
} // namespace loom
