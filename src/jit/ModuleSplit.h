#ifndef LOOM_JIT_MODULESPLIT_H
#define LOOM_JIT_MODULESPLIT_H

// A module's functions divided between modules compiled apart:
//  - the functions marked optnone (a pipeline's entry function: its checks,
//    field reads and calls of outlined loop nests), compiled by a target
//    machine without optimization: its fast register allocator is linear in
//    their size, the greedy one is not (a Pipeline of 2000 outputs spent 20
//    of its 30 s there), and it takes about a quarter of the time;
//  - parts of about equal cost, optimized and compiled on several threads
//    at once (ParallelCompile.h), each with its share of the optnone ones.

#include <memory>
#include <set>

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

namespace loom {
namespace Internal {

/** Moves the definitions of `moved` (functions of m) to a new module and
 * leaves declarations of them in m; functions and mutable globals used
 * across the two get external linkage (each compile has its own JITDylib,
 * so their names cannot clash), constants are copied. */
std::unique_ptr<llvm::Module> split_off_functions(llvm::Module &m,
                                                  const std::set<const llvm::Function *> &moved);

/** split_off_functions of m's optnone functions; null, leaving m as it was,
 * when m has none. */
std::unique_ptr<llvm::Module> split_off_optnone_functions(llvm::Module &m);

/** m as an object file, from tm. */
llvm::SmallVector<char, 0> emit_object_file(llvm::Module &m, llvm::TargetMachine &tm);

} // namespace Internal
} // namespace loom

#endif
