// A large function in pieces. LLVM's optimization and code generation cost
// more than linear time in a function's size, and the JIT compiles the
// functions of a module on several threads at once (src/jit/ParallelCompile.h).
// A strip-mined pipeline has most of its code in one task (every stage's
// loops per strip of rows), so that task's loops of a moderate size become
// functions of their own: each called once per strip or row, with a closure
// of the values it uses (as a task is), the call's cost small against a
// loop of that much code. A loop that reads or writes a buffer of constant
// size allocated outside it stays where it is: such a buffer (a matrix
// product's accumulator block) may live in registers, unless its address
// goes to another function.

#include <algorithm>
#include <unordered_set>

#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {

namespace {

/** A piece has at most this many IR nodes (about 3 lines of LLVM IR each),
 * unless no loop inside it has a quarter of that; a loop with more is left
 * in its function and its inner loops considered instead. */
constexpr size_t piece_nodes = 500;

/** The sizes of s's loops. IRMutator's mutate() sees every node; a shared
 * expression counts once. */
class LoopSizes : public IRMutator {
public:
    std::unordered_set<const IRNode *> seen;
    size_t count = 0, largest_inner = 0;
    std::map<const For *, LoopCodeSize> sizes;

    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!e.defined() || !seen.insert(e.get()).second) return e;
        count++;
        return IRMutator::mutate(e);
    }
    Stmt mutate(const Stmt &s) override {
        if (s.defined()) count++;
        return IRMutator::mutate(s);
    }
    Stmt visit(const For *op) override {
        size_t before = count, largest_sibling = largest_inner;
        largest_inner = 0;
        open_loops.push_back(op);
        IRMutator::visit(op);
        open_loops.pop_back();
        LoopCodeSize &size = sizes[op];
        size.nodes = count - before;
        size.largest_inner = largest_inner;
        largest_inner = std::max(largest_sibling, size.nodes);
        return op;
    }
    Stmt visit(const Allocate *op) override {
        bool constant = true;
        for (const Expr &e : op->extents) constant = constant && is_const(e);
        if (!constant) return IRMutator::visit(op);
        small_buffers[op->name].push_back(open_loops.size());
        IRMutator::visit(op);
        small_buffers[op->name].pop_back();
        return op;
    }
    Expr visit(const Load *op) override {
        accessed(op->name);
        return IRMutator::visit(op);
    }
    Stmt visit(const Store *op) override {
        accessed(op->name);
        return IRMutator::visit(op);
    }

private:
    std::vector<const For *> open_loops;
    // Buffers of constant size, each with how many loops were open where it
    // was allocated (a stack, for a name allocated again inside).
    std::map<std::string, std::vector<size_t>> small_buffers;

    void accessed(const std::string &buffer) {
        auto it = small_buffers.find(buffer);
        if (it == small_buffers.end() || it->second.empty()) return;
        for (size_t i = it->second.back(); i < open_loops.size(); i++)
            sizes[open_loops[i]].uses_outer_small_buffer = true;
    }
};

} // namespace

bool CodeGen_LLVM::is_piece(const For *op) const {
    if (op->for_type == ForType::Parallel) return false;
    auto it = loop_sizes.find(op);
    if (it == loop_sizes.end()) return false;
    const LoopCodeSize &size = it->second;
    if (size.uses_outer_small_buffer) return false;
    size_t least = piece_nodes / 4;
    return size.nodes >= least && (size.nodes <= piece_nodes || size.largest_inner < least);
}

CodeGen_LLVM::PiecesScope::PiecesScope(CodeGen_LLVM &codegen, const Stmt &body, bool all_loops)
    : cg(codegen) {
    saved.swap(cg.loop_sizes);
    LoopSizes measure;
    measure.mutate(body);
    // Too small to be worth two pieces: no piece at all. All of a
    // pipeline's loops in one function would leave the other compile
    // threads with only the entry's glue (wavelet: one task of 940 nodes,
    // 27 ms of LLVM beside 5 ms; 23 instead of 34 ms in pieces).
    size_t least = all_loops ? piece_nodes : 2 * piece_nodes;
    if (measure.count > least) cg.loop_sizes.swap(measure.sizes);
}

CodeGen_LLVM::PiecesScope::~PiecesScope() {
    cg.loop_sizes.swap(saved);
}

} // namespace Internal
} // namespace loom
