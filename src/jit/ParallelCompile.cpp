#include "jit/ParallelCompile.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <set>
#include <thread>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "codegen/llvm/CodeGen_LLVM.h"
#include "ir/Error.h"
#include "ir/StackGuard.h"
#include "jit/ModuleSplit.h"

namespace loom {
namespace Internal {

namespace {

/** Threads compiling right now, in every compile of this process. */
std::atomic<int> busy_compile_threads{0};

/** Below this many instructions a module compiles in a few milliseconds:
 * copying it into parts would cost more than the second thread gains. From
 * 1,000 up it pays (AMD EPYC, Zen 4: blur's 2,900-instruction module 28 ms
 * whole, 19 ms in two parts; wavelet 63 ms, 44 ms). */
constexpr unsigned min_split_instructions = 1000;

/** A part smaller than this share of the module is not worth a thread. */
constexpr double min_part_share = 0.15;

/** m's functions with bodies, in parts of about equal instruction counts
 * (largest first, each to the lightest part); parts with nothing dropped. */
std::vector<std::set<const llvm::Function *>> balanced_parts(const llvm::Module &m, size_t count,
                                                             std::vector<unsigned> &sizes) {
    std::vector<const llvm::Function *> functions;
    for (const llvm::Function &f : m)
        if (!f.isDeclaration()) functions.push_back(&f);
    std::stable_sort(functions.begin(), functions.end(),
                     [](const llvm::Function *a, const llvm::Function *b) {
                         return a->getInstructionCount() > b->getInstructionCount();
                     });
    std::vector<std::set<const llvm::Function *>> parts(count);
    sizes.assign(count, 0);
    for (const llvm::Function *f : functions) {
        size_t lightest = size_t(std::min_element(sizes.begin(), sizes.end()) - sizes.begin());
        parts[lightest].insert(f);
        sizes[lightest] += f->getInstructionCount();
    }
    for (size_t i = parts.size(); i-- > 0;) {
        if (!parts[i].empty()) continue;
        parts.erase(parts.begin() + long(i));
        sizes.erase(sizes.begin() + long(i));
    }
    return parts;
}

} // namespace

int max_compile_threads() {
    static const int threads = [] {
        const char *s = std::getenv("LOOM_COMPILE_THREADS");
        int n = s ? std::atoi(s) : 0;
        return n > 0 ? n : std::max(1, int(std::thread::hardware_concurrency()));
    }();
    return threads;
}

CompileThreads::CompileThreads(int wanted) {
    int cores = std::max(1, int(std::thread::hardware_concurrency()));
    int busy = busy_compile_threads.fetch_add(wanted);
    taken = std::max(1, std::min(wanted, cores - busy));
    busy_compile_threads.fetch_sub(wanted - taken);
}

CompileThreads::~CompileThreads() {
    busy_compile_threads.fetch_sub(taken);
}

std::vector<llvm::SmallVector<char, 0>>
compile_in_parts(llvm::Module &m, int threads,
                 const std::function<llvm::TargetMachine &(size_t part)> &machine_for) {
    if (threads < 2 || m.getInstructionCount() < min_split_instructions) return {};
    std::vector<unsigned> sizes;
    std::vector<std::set<const llvm::Function *>> parts = balanced_parts(m, size_t(threads), sizes);
    // Every function with a body is in a part, so the parts add up to m.
    unsigned lightest = *std::min_element(sizes.begin(), sizes.end());
    if (parts.size() < 2 || lightest < min_part_share * m.getInstructionCount()) return {};

    // Parts 1.. leave m as bitcode, each read back into a context of its own
    // on the thread that compiles it (a context is not shared by threads).
    std::vector<llvm::SmallVector<char, 0>> bitcode(parts.size());
    for (size_t i = 1; i < parts.size(); i++) {
        std::unique_ptr<llvm::Module> part = split_off_functions(m, parts[i]);
        llvm::raw_svector_ostream os(bitcode[i]);
        llvm::WriteBitcodeToFile(*part, os);
    }
    std::vector<llvm::TargetMachine *> machines;
    for (size_t i = 0; i < parts.size(); i++) machines.push_back(&machine_for(i));
    std::vector<llvm::SmallVector<char, 0>> objects(parts.size());
    std::vector<std::function<void()>> steps;
    steps.push_back([&] {
        optimize_module(m, *machines[0]);
        objects[0] = emit_object_file(m, *machines[0]);
    });
    for (size_t i = 1; i < parts.size(); i++) {
        steps.push_back([&, i] {
            llvm::LLVMContext context;
            llvm::MemoryBufferRef buffer(llvm::StringRef(bitcode[i].data(), bitcode[i].size()),
                                         m.getName());
            llvm::Expected<std::unique_ptr<llvm::Module>> part =
                llvm::parseBitcodeFile(buffer, context);
            if (!part)
                internal_error("could not read back a part of "
                               << m.getName().str() << ": " << llvm::toString(part.takeError()));
            optimize_module(**part, *machines[i]);
            objects[i] = emit_object_file(**part, *machines[i]);
        });
    }
    run_on_deep_stacks_at_once(steps);
    return objects;
}

} // namespace Internal
} // namespace loom
