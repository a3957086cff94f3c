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
constexpr double min_part_share = 0.1;

/** An optnone function (a pipeline's entry: checks, field reads, calls)
 * costs about this share of what an optimized one of the same size does:
 * without optimization LLVM compiles it in about a quarter of the time, but
 * its calls and branches make each instruction about twice as costly as a
 * loop's (AMD EPYC, Zen 5: wavelet's entry 3.8 ms, its loops 27 ms for
 * three times as many instructions). */
constexpr double unoptimized_cost_share = 0.5;

bool is_optnone(const llvm::Function &f) {
    return f.hasFnAttribute(llvm::Attribute::OptimizeNone);
}

double compile_cost(const llvm::Function &f) {
    double n = f.getInstructionCount();
    return is_optnone(f) ? n * unoptimized_cost_share : n;
}

/** m's functions with bodies, in parts of about equal compile cost (largest
 * first, each to the cheapest part); parts with nothing dropped. */
std::vector<std::set<const llvm::Function *>> balanced_parts(const llvm::Module &m, size_t count,
                                                             std::vector<double> &costs) {
    std::vector<const llvm::Function *> functions;
    for (const llvm::Function &f : m)
        if (!f.isDeclaration()) functions.push_back(&f);
    std::stable_sort(functions.begin(), functions.end(),
                     [](const llvm::Function *a, const llvm::Function *b) {
                         return compile_cost(*a) > compile_cost(*b);
                     });
    std::vector<std::set<const llvm::Function *>> parts(count);
    costs.assign(count, 0);
    for (const llvm::Function *f : functions) {
        size_t cheapest = size_t(std::min_element(costs.begin(), costs.end()) - costs.begin());
        parts[cheapest].insert(f);
        costs[cheapest] += compile_cost(*f);
    }
    for (size_t i = parts.size(); i-- > 0;) {
        if (!parts[i].empty()) continue;
        parts.erase(parts.begin() + long(i));
        costs.erase(costs.begin() + long(i));
    }
    return parts;
}

/** The optnone functions of a part (the rest stay in it). */
std::set<const llvm::Function *> take_optnone(std::set<const llvm::Function *> &part) {
    std::set<const llvm::Function *> optnone;
    for (auto it = part.begin(); it != part.end();) {
        if (is_optnone(**it)) {
            optnone.insert(*it);
            it = part.erase(it);
        } else {
            ++it;
        }
    }
    return optnone;
}

llvm::SmallVector<char, 0> as_bitcode(const llvm::Module &m) {
    llvm::SmallVector<char, 0> bitcode;
    llvm::raw_svector_ostream os(bitcode);
    llvm::WriteBitcodeToFile(m, os);
    return bitcode;
}

std::unique_ptr<llvm::Module> read_bitcode(const llvm::SmallVector<char, 0> &bitcode,
                                           llvm::LLVMContext &context, const llvm::Module &from) {
    llvm::MemoryBufferRef buffer(llvm::StringRef(bitcode.data(), bitcode.size()), from.getName());
    llvm::Expected<std::unique_ptr<llvm::Module>> part = llvm::parseBitcodeFile(buffer, context);
    if (!part)
        internal_error("could not read back a part of " << from.getName().str() << ": "
                                                        << llvm::toString(part.takeError()));
    return std::move(*part);
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

CompiledParts compile_in_parts(llvm::Module &m, int threads, const PartMachines &machines_for) {
    if (threads < 2 || m.getInstructionCount() < min_split_instructions) return {};
    std::vector<double> costs;
    std::vector<std::set<const llvm::Function *>> parts = balanced_parts(m, size_t(threads), costs);
    // Every function with a body is in a part, so the parts add up to m.
    double cheapest = *std::min_element(costs.begin(), costs.end()), total = 0;
    for (double c : costs) total += c;
    if (parts.size() < 2 || cheapest < min_part_share * total) return {};

    // Each part is a module of its optimized functions and one of its
    // optnone ones, compiled one after the other on the part's thread.
    // Parts 1.. leave m as bitcode, each read back into a context of its own
    // on the thread that compiles it (a context is not shared by threads).
    struct PartBitcode {
        llvm::SmallVector<char, 0> optimized, unoptimized;
    };
    std::vector<PartBitcode> bitcode(parts.size());
    std::unique_ptr<llvm::Module> unoptimized_here;
    for (size_t i = 0; i < parts.size(); i++) {
        std::set<const llvm::Function *> optnone = take_optnone(parts[i]);
        if (!optnone.empty()) {
            std::unique_ptr<llvm::Module> cold = split_off_functions(m, optnone);
            if (i == 0)
                unoptimized_here = std::move(cold);
            else
                bitcode[i].unoptimized = as_bitcode(*cold);
        }
        if (i > 0 && !parts[i].empty())
            bitcode[i].optimized = as_bitcode(*split_off_functions(m, parts[i]));
    }
    std::vector<MachinePair> machines;
    for (size_t i = 0; i < parts.size(); i++) machines.push_back(machines_for(i));
    std::vector<std::vector<llvm::SmallVector<char, 0>>> objects(parts.size());
    std::vector<std::function<void()>> steps;
    steps.push_back([&] {
        optimize_module(m, machines[0].optimizing);
        objects[0].push_back(emit_object_file(m, machines[0].optimizing));
        if (unoptimized_here)
            objects[0].push_back(emit_object_file(*unoptimized_here, machines[0].unoptimized));
    });
    for (size_t i = 1; i < parts.size(); i++) {
        steps.push_back([&, i] {
            llvm::LLVMContext context;
            if (!bitcode[i].optimized.empty()) {
                std::unique_ptr<llvm::Module> part = read_bitcode(bitcode[i].optimized, context, m);
                optimize_module(*part, machines[i].optimizing);
                objects[i].push_back(emit_object_file(*part, machines[i].optimizing));
            }
            if (!bitcode[i].unoptimized.empty()) {
                std::unique_ptr<llvm::Module> cold =
                    read_bitcode(bitcode[i].unoptimized, context, m);
                objects[i].push_back(emit_object_file(*cold, machines[i].unoptimized));
            }
        });
    }
    run_on_deep_stacks_at_once(steps);
    CompiledParts compiled;
    compiled.parts = int(parts.size());
    for (auto &part : objects)
        for (auto &object : part) compiled.objects.push_back(std::move(object));
    return compiled;
}

} // namespace Internal
} // namespace loom
