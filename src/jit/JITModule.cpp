// JITModule: LoweredFunc -> LLVM IR -> optimized -> machine code in this
// process, through one ORC LLJIT per target. Each compile gets its own
// JITDylib so recompiling a pipeline of the same name never clashes.

#include "jit/JITModule.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SmallVectorMemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "codegen/llvm/CodeGen_LLVM.h"
#include "ir/Error.h"
#include "ir/StackGuard.h"
#include "jit/CSourceJIT.h"
#include "jit/ExternSymbols.h"
#include "jit/ModuleSplit.h"
#include "jit/ParallelCompile.h"

namespace loom {
namespace Internal {

namespace {

// LOOM_DEBUG >= 1 prints how long each compile phase took.
struct PhaseTimer {
    bool enabled;
    std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
    std::string report;
    PhaseTimer() {
        const char *d = std::getenv("LOOM_DEBUG");
        enabled = d && std::atoi(d) >= 1;
    }
    void phase(const char *name) {
        if (!enabled) return;
        auto now = std::chrono::steady_clock::now();
        char text[64];
        std::snprintf(text, sizeof(text), " %s %.2f ms", name,
                      std::chrono::duration<double, std::milli>(now - last).count());
        report += text;
        last = now;
    }
    void print(const std::string &fn) const {
        if (enabled) std::fprintf(stderr, "loom: jit %s:%s\n", fn.c_str(), report.c_str());
    }
};

// One per target string, created on first use and never destroyed (JIT code
// may run until the process exits).
struct Engine {
    std::mutex mutex;
    std::unique_ptr<llvm::TargetMachine> target_machine;
    // The same target without optimization, for optnone functions, one per
    // thread of a compile in parts (ParallelCompile.h); made on first use.
    std::vector<std::unique_ptr<llvm::TargetMachine>> unoptimized_machines;
    // More of the same target, one per further thread of a compile in
    // parts; made on first use.
    std::vector<std::unique_ptr<llvm::TargetMachine>> part_machines;
    std::unique_ptr<llvm::orc::LLJIT> jit;
    uint64_t modules_added = 0;
};

std::string llvm_error_text(llvm::Error e) {
    return llvm::toString(std::move(e));
}

Engine &engine_for(const Target &t) {
    static std::mutex engines_mutex;
    static auto *engines = new std::map<std::string, Engine *>;
    std::lock_guard<std::mutex> lock(engines_mutex);
    Engine *&e = (*engines)[t.to_string()];
    if (e) return *e;

    auto engine = std::make_unique<Engine>();
    engine->target_machine = make_target_machine(t);
    llvm::TargetMachine &tm = *engine->target_machine;
    llvm::orc::JITTargetMachineBuilder jtmb(tm.getTargetTriple());
    jtmb.setCPU(tm.getTargetCPU().str());
    jtmb.addFeatures(std::vector<std::string>{tm.getTargetFeatureString().str()});
    jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    // Compile with our TargetMachine: the default compiler would build a new
    // one for every module. Compiles of one engine are serialized by its mutex.
    llvm::TargetMachine *shared_tm = engine->target_machine.get();
    auto jit =
        llvm::orc::LLJITBuilder()
            .setJITTargetMachineBuilder(std::move(jtmb))
            .setCompileFunctionCreator(
                [shared_tm](llvm::orc::JITTargetMachineBuilder)
                    -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
                    return std::make_unique<llvm::orc::SimpleCompiler>(*shared_tm);
                })
            .create();
    if (!jit) internal_error("could not create the LLVM JIT: " << llvm_error_text(jit.takeError()));
    engine->jit = std::move(*jit);
    e = engine.release();
    return *e;
}

// Whether code for t can run in this process.
bool runs_on_host(const Target &t) {
    Target host = get_host_target();
    return t.os == host.os && t.arch == host.arch && t.bits == host.bits;
}

} // namespace

struct JITModule::State {
    Engine *engine = nullptr;
    llvm::orc::JITDylib *dylib = nullptr;
    ArgvFunction argv = nullptr;
    MetadataFunction metadata = nullptr;
    std::string assembly;
    int parts = 1;
    std::shared_ptr<void> c_library; // the C-source JIT's shared object (LOOM_JIT_BACKEND=c)

    ~State() {
        if (!engine || !dylib) return;
        std::lock_guard<std::mutex> lock(engine->mutex);
        // Releases the machine code; failures here only leak memory.
        llvm::consumeError(engine->jit->getExecutionSession().removeJITDylib(*dylib));
    }
};

JITModule JITModule::assembly_only(const LoweredFunc &f, const Target &target) {
    // A target this host cannot run: no engine, no machine code, just the text.
    std::unique_ptr<llvm::TargetMachine> tm = make_target_machine(target);
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = codegen_llvm(f, target, context, *tm);
    std::string problems;
    llvm::raw_string_ostream problems_stream(problems);
    if (llvm::verifyModule(*module, &problems_stream))
        internal_error("generated invalid LLVM IR for " << f.name << ":\n" << problems);
    optimize_module(*module, *tm);
    JITModule m;
    m.state = std::make_shared<State>();
    llvm::raw_string_ostream os(m.state->assembly);
    module->print(os, nullptr);
    os.flush();
    return m;
}

JITModule JITModule::compile(const LoweredFunc &f, const Target &target, bool want_assembly) {
    // LLVM's passes and instruction selection recurse over deep expression
    // chains too, so the whole compile runs where codegen_llvm does.
    JITModule m;
    run_on_deep_stack([&] { m = compile_on_this_stack(f, target, want_assembly); });
    return m;
}

JITModule JITModule::compile_on_this_stack(const LoweredFunc &f, const Target &target,
                                           bool want_assembly) {
    if (!want_assembly && use_c_source_jit()) {
        CSourceModule c = compile_c_source_module(f, target);
        JITModule m;
        m.state = std::make_shared<State>();
        m.state->argv = c.argv;
        m.state->metadata = c.metadata;
        m.state->c_library = std::move(c.library);
        return m;
    }
    if (want_assembly && !runs_on_host(target)) return assembly_only(f, target);
    Engine &engine = engine_for(target);
    // Made before the lock is taken, so that when a step below throws, the
    // lock is released before ~State takes it again to remove the dylib.
    auto state = std::make_shared<State>();
    std::lock_guard<std::mutex> lock(engine.mutex);

    PhaseTimer timer;
    auto context = std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::Module> module =
        codegen_llvm(f, target, *context, *engine.target_machine);
    timer.phase("codegen");
    std::string problems;
    llvm::raw_string_ostream problems_stream(problems);
    if (llvm::verifyModule(*module, &problems_stream)) {
        internal_error("generated invalid LLVM IR for " << f.name << ":\n" << problems);
    }
    timer.phase("verify");
    check_extern_symbols(*module, f.name);
    state->engine = &engine;
    std::string dylib_name = f.name + "#" + std::to_string(engine.modules_added++);
    auto dylib = engine.jit->createJITDylib(dylib_name);
    if (!dylib)
        internal_error("could not create a JITDylib: " << llvm_error_text(dylib.takeError()));
    state->dylib = &*dylib;
    auto add_object = [&](llvm::SmallVector<char, 0> object, const std::string &part) {
        auto buffer = std::make_unique<llvm::SmallVectorMemoryBuffer>(
            std::move(object), dylib_name + "." + part, false);
        if (auto err = engine.jit->addObjectFile(*state->dylib, std::move(buffer))) {
            internal_error("could not add the " << part << " part of " << f.name << " to the JIT: "
                                                << llvm_error_text(std::move(err)));
        }
    };
    auto unoptimized_machine = [&](size_t part) -> llvm::TargetMachine & {
        while (engine.unoptimized_machines.size() <= part) {
            engine.unoptimized_machines.push_back(make_target_machine(target));
            engine.unoptimized_machines.back()->setOptLevel(llvm::CodeGenOptLevel::None);
        }
        return *engine.unoptimized_machines[part];
    };
    auto add_optnone_part = [&] {
        std::unique_ptr<llvm::Module> optnone = split_off_optnone_functions(*module);
        if (!optnone) return;
        add_object(emit_object_file(*optnone, unoptimized_machine(0)), "optnone");
    };

    if (want_assembly) {
        optimize_module(*module, *engine.target_machine);
        timer.phase("optimize");
        llvm::raw_string_ostream os(state->assembly);
        module->print(os, nullptr);
    } else {
        CompiledParts parts;
        {
            CompileThreads threads(max_compile_threads());
            parts = compile_in_parts(*module, threads.count(), [&](size_t part) -> MachinePair {
                while (engine.part_machines.size() < part)
                    engine.part_machines.push_back(make_target_machine(target));
                llvm::TargetMachine &optimizing =
                    part == 0 ? *engine.target_machine : *engine.part_machines[part - 1];
                return {optimizing, unoptimized_machine(part)};
            });
        }
        if (!parts.objects.empty()) {
            timer.phase("optimize and machine code, in parts");
            for (size_t i = 0; i < parts.objects.size(); i++)
                add_object(std::move(parts.objects[i]), "part" + std::to_string(i));
            state->parts = parts.parts;
            module.reset();
        } else {
            optimize_module(*module, *engine.target_machine);
            timer.phase("optimize");
        }
    }
    if (module) {
        add_optnone_part();
        if (auto err = engine.jit->addIRModule(
                *state->dylib,
                llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))) {
            internal_error("could not add module "
                           << f.name << " to the JIT: " << llvm_error_text(std::move(err)));
        }
    }
    auto symbol = engine.jit->lookup(*state->dylib, f.name + "_argv");
    if (!symbol) {
        internal_error("could not compile " << f.name << ": "
                                            << llvm_error_text(symbol.takeError()));
    }
    state->argv = symbol->toPtr<ArgvFunction>();
    auto metadata = engine.jit->lookup(*state->dylib, f.name + "_metadata");
    if (!metadata) {
        internal_error("could not compile " << f.name << ": "
                                            << llvm_error_text(metadata.takeError()));
    }
    state->metadata = metadata->toPtr<MetadataFunction>();
    timer.phase("machine code");
    timer.print(f.name);

    JITModule m;
    m.state = std::move(state);
    return m;
}

JITModule::ArgvFunction JITModule::argv_function() const {
    internal_assert(state, "argv_function() of an undefined JITModule");
    return state->argv;
}

JITModule::MetadataFunction JITModule::metadata_function() const {
    internal_assert(state, "metadata_function() of an undefined JITModule");
    return state->metadata;
}

int JITModule::parts() const {
    internal_assert(state, "parts() of an undefined JITModule");
    return state->parts;
}

int JITModule::compile_threads() {
    return max_compile_threads();
}

const std::string &JITModule::llvm_assembly() const {
    internal_assert(state, "llvm_assembly() of an undefined JITModule");
    return state->assembly;
}

} // namespace Internal
} // namespace loom
