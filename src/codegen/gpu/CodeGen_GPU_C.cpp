// The GPU printer's kernel layout: comment, signature, arguments, ids,
// shared memory hoisted to kernel scope, per-thread arrays, barriers, and
// clear errors for what a kernel cannot contain.

#include "codegen/gpu/CodeGen_GPU_C.h"

#include "ir/Error.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

/** Text safe inside a C comment. */
std::string comment_text(std::string s) {
    for (size_t p = s.find("*/"); p != std::string::npos; p = s.find("*/")) s.replace(p, 2, "* /");
    return s;
}

const char *const dim_names[3] = {"x", "y", "z"};

} // namespace

CodeGen_GPU_C::CodeGen_GPU_C(const Target &t) : CodeGen_C(t) {}

void CodeGen_GPU_C::check_kernel(const DeviceKernel &) {}

Type CodeGen_GPU_C::scalar_parameter_type(Type t) const {
    return t;
}

std::string CodeGen_GPU_C::atomic_pointer_type(Type t, const std::string &address_space) const {
    return "volatile " + (address_space.empty() ? "" : address_space + " ") + c_type(t) + " *";
}

std::string CodeGen_GPU_C::kernel_description() const {
    internal_assert(kernel, "GPU printer: no kernel is being printed");
    return "GPU kernel " + kernel->name + " (Func " + kernel->func_name + ")";
}

bool CodeGen_GPU_C::uses_type(const DeviceKernel &k, const std::function<bool(Type)> &pred) {
    for (const DeviceKernelArg &a : k.args)
        if (pred(a.type.element_of())) return true;
    bool found = false;
    visit_all(k.body, [&](const IRNode *n) {
        if (found) return;
        if (n->node_type < IRNodeType::LetStmt) {
            found = pred(static_cast<const BaseExprNode *>(n)->type.element_of());
        } else if (n->node_type == IRNodeType::Allocate) {
            found = pred(static_cast<const Allocate *>(n)->type.element_of());
        }
    });
    return found;
}

std::string CodeGen_GPU_C::bind_arguments(const DeviceKernel &k, std::vector<std::string> *bound) {
    std::string params;
    auto add = [&](const std::string &p) {
        if (p.empty()) return;
        params += (params.empty() ? "" : ", ") + p;
    };
    for (const DeviceKernelArg &a : k.args) {
        if (a.is_dynamic_shared) {
            std::string param = dynamic_shared_parameter("__shared");
            if (param.empty())
                kernel_scope_declarations.push_back(shared_declaration("__shared", -1));
            add(param);
            symbols.push(a.name, Symbol{"__shared", Handle(), shared_address_space()});
            shared_allocations++;
        } else if (a.is_buffer) {
            std::string c = unique_name(a.name);
            add(buffer_parameter(a, c));
            symbols.push(a.name, Symbol{c, Handle(), global_address_space()});
        } else {
            internal_assert(!a.type.is_handle() && a.type.is_scalar(),
                            kernel_description() << ": scalar argument " << a.name << " of type "
                                                 << type_to_string(a.type));
            Type passed = scalar_parameter_type(a.type);
            std::string c = unique_name(a.name);
            if (passed == a.type) {
                add(c_type(a.type) + " " + c);
            } else {
                std::string p = unique_name(a.name + "_arg");
                add(c_type(passed) + " " + p);
                line() << c_type(a.type) << " " << c << " = " << convert(passed, a.type, p)
                       << ";\n";
            }
            symbols.push(a.name, Symbol{c, a.type});
        }
        bound->push_back(a.name);
    }
    return params.empty() ? "void" : params;
}

void CodeGen_GPU_C::declare_ids(const DeviceKernel &k, std::vector<std::string> *bound) {
    std::set<std::string> names = referenced_names(k.body);
    for (int block = 1; block >= 0; block--) {
        for (int d = 0; d < 3; d++) {
            std::string name = std::string(block ? "__block_id_" : "__thread_id_") + dim_names[d];
            if (!names.count(name)) continue;
            line() << "int " << name << " = " << (block ? block_id(d) : thread_id(d)) << ";\n";
            symbols.push(name, Symbol{name, Int(32)});
            thread_varying.push(name, block ? 0 : 1);
            bound->push_back(name);
        }
    }
}

void CodeGen_GPU_C::add_kernel(const DeviceKernel &k) {
    internal_assert(k.body.defined(), "GPU kernel " << k.name << " has no body");
    kernel = &k;
    check_kernel(k);
    kernel_scope_declarations.clear();
    shared_allocations = 0;

    std::ostringstream prologue, body;
    std::vector<std::string> bound;
    out = &prologue;
    indent_level = 1;
    std::string params = bind_arguments(k, &bound);
    declare_ids(k, &bound);
    out = &body;
    codegen(k.body);

    std::ostringstream text;
    text << "/* Func " << comment_text(k.func_name) << ": kernel " << k.name << " */\n"
         << kernel_declaration(k) << " " << k.name << "(" << params << ") {\n";
    for (const std::string &d : kernel_scope_declarations) text << "    " << d << "\n";
    text << prologue.str() << body.str() << "}\n";
    kernels.push_back(text.str());

    for (auto it = bound.rbegin(); it != bound.rend(); ++it) {
        symbols.pop(*it);
        if (thread_varying.contains(*it)) thread_varying.pop(*it);
    }
    out = nullptr;
    kernel = nullptr;
}

std::string CodeGen_GPU_C::program() {
    std::ostringstream file;
    file << preamble();
    for (const auto &h : helpers) file << h.second << "\n";
    for (const auto &k : kernels) file << k << "\n";
    return file.str();
}

void CodeGen_GPU_C::codegen_shared_allocation(const Allocate *op) {
    int64_t elements = 0;
    if (!constant_elements(op, &elements)) {
        internal_error(kernel_description()
                       << ": shared allocation " << op->name
                       << " has a size unknown at compile time; device lowering must pass it "
                          "as the kernel's dynamic shared argument");
    }
    int64_t bytes = std::max<int64_t>(elements * op->type.bytes() * op->type.lanes, 1);
    std::string c =
        op->name == "__shared" && shared_allocations == 0 ? op->name : unique_name(op->name);
    shared_allocations++;
    kernel_scope_declarations.push_back(shared_declaration(c, bytes));
    ScopedBinding<Symbol> bind(symbols, op->name, Symbol{c, Handle(), shared_address_space()});
    codegen(op->body);
}

void CodeGen_GPU_C::visit(const Allocate *op) {
    if (op->memory_type == MemoryType::GPUShared) {
        codegen_shared_allocation(op);
        return;
    }
    // Per-thread memory: an array in registers or private memory.
    int64_t elements = 0;
    if (!constant_elements(op, &elements)) {
        user_error(kernel_description()
                   << " allocates " << op->name
                   << " per thread with a size unknown at compile time, but GPU kernels cannot "
                      "allocate memory. Give it a constant size with bound() (or "
                      "bound_extent()) on the Func's dimensions, or store it in memory "
                      "allocated outside the kernel: compute it at a loop outside the GPU "
                      "loops, with store_in(MemoryType::Heap)");
    }
    codegen_local_array(op, elements);
}

std::string CodeGen_GPU_C::warp_shuffle(Type, const std::string &, const std::string &,
                                        const std::string &) {
    return "";
}

std::string CodeGen_GPU_C::codegen_intrinsic(const Call *op) {
    switch (op->op) {
    case Intrinsic::gpu_thread_barrier:
        if (divergent_depth > 0) {
            internal_error(kernel_description()
                           << " has a barrier inside a branch or loop whose condition differs "
                              "between the threads of a block; every thread of the block must "
                              "reach every barrier, so device lowering must place barriers "
                              "outside thread-dependent branches and loops");
        }
        line() << barrier() << "\n";
        return "0";
    case Intrinsic::memory_fence:
        line() << memory_fence() << "\n";
        return "0";
    case Intrinsic::gpu_warp_shuffle: {
        std::string v = codegen(op->args[0]), lane = codegen(op->args[1]),
                    width = codegen(op->args[2]);
        std::string shuffled = warp_shuffle(op->type, v, lane, width);
        internal_assert(!shuffled.empty(), kernel_description()
                                               << " shuffles values between lanes, which "
                                               << dialect_name() << " cannot do");
        return shuffled;
    }
    case Intrinsic::prefetch:
        // A hint only: kernels leave caching to the device.
        return "0";
    case Intrinsic::require:
        user_error(kernel_description()
                   << " calls require(), which " << dialect_name()
                   << " kernels cannot do in Loom (a kernel cannot stop the pipeline); check "
                      "the requirement in a Func computed on the host instead");
    default:
        return CodeGen_C::codegen_intrinsic(op);
    }
}

std::string CodeGen_GPU_C::codegen_extern(const Call *op) {
    internal_error(kernel_description()
                   << " calls the extern function " << op->name
                   << ", which runs only on the host; device lowering must keep extern calls "
                      "out of GPU kernels");
}

std::string CodeGen_GPU_C::codegen_buffer_field(const Call *op) {
    internal_error(kernel_description()
                   << " reads a host buffer field (" << intrinsic_name(op->op)
                   << "); device lowering must pass buffer fields as scalar arguments");
}

std::string CodeGen_GPU_C::codegen_debug_print(const Call *) {
    user_error(kernel_description()
               << " calls print(), which " << dialect_name()
               << " kernels cannot do in Loom; print from a Func computed on the host instead");
}

} // namespace Internal
} // namespace loom
