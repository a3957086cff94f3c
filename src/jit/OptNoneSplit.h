#ifndef LOOM_JIT_OPTNONESPLIT_H
#define LOOM_JIT_OPTNONESPLIT_H

// The functions of a module marked optnone (the entry function of a pipeline
// with many buffers: their checks, field reads and calls of outlined loop
// nests) compiled apart, by a target machine without optimization: its fast
// register allocator is linear in their size, the greedy one is not (a
// Pipeline of 2000 outputs spent 20 of its 30 s there).

#include <memory>

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

namespace loom {
namespace Internal {

/** Moves the definitions of m's optnone functions to a new module and
 * leaves declarations of them in m; functions and mutable globals used
 * across the two get external linkage (each compile has its own JITDylib,
 * so their names cannot clash), constants are copied. Returns null, leaving
 * m as it was, when m has no optnone function. */
std::unique_ptr<llvm::Module> split_off_optnone_functions(llvm::Module &m);

/** m as an object file, from tm. */
llvm::SmallVector<char, 0> emit_object_file(llvm::Module &m, llvm::TargetMachine &tm);

} // namespace Internal
} // namespace loom

#endif
