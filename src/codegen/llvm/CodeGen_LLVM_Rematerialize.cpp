// Buffer fields read again where they are used. In an entry function whose
// loop nests are outlined (a pipeline with many outputs or stages), the
// fields of every buffer are let-bound at the top and used far below: by the
// checks of each kind, then by the closure of each nest. Hundreds of values
// live across the whole function make LLVM's register allocation and X86
// domain reassignment cost quadratic time. Small lets computed only from
// buffer fields and arguments are therefore generated again at each use,
// with volatile field loads so that LLVM does not merge them back into one
// long-lived value. The entry function runs once per call, so the extra
// loads cost nothing that matters. A bounds query writes the min, extent
// and stride of a buffer's dimension: a read of those after the write uses
// the value read at the let instead, as the code without rematerializing does.

#include "codegen/CodeGenCalls.h"
#include "codegen/llvm/CodeGen_LLVM_Visitor.h"
#include "ir/IRUtil.h"
#include "ir/IRVisitor.h"

namespace loom {
namespace Internal {

namespace {

/** Largest let value (in IR nodes) generated again at each use. */
constexpr int max_rematerialized_nodes = 24;

bool is_buffer_field(const Call *op) {
    return (op->call_type == Call::Intrinsic || op->call_type == Call::PureIntrinsic) &&
           intrinsic_emitter(op->op) == IntrinsicEmitter::BufferField;
}

/** Is e made only of arithmetic on buffer fields, arguments of the entry
 * function and other rematerializable lets? */
class CheapFieldExpr : public IRVisitor {
public:
    CheapFieldExpr(const Scope<Expr> &lets, const std::set<std::string> &arguments)
        : lets(lets), arguments(arguments) {}
    bool ok = true;
    bool reads_field = false;

    using IRVisitor::visit;
    void visit(const Variable *op) override {
        if (!lets.contains(op->name) && !arguments.count(op->name)) ok = false;
        if (lets.contains(op->name)) reads_field = true;
    }
    void visit(const Call *op) override {
        if (!is_buffer_field(op)) {
            ok = false;
            return;
        }
        reads_field = true;
        IRVisitor::visit(op);
    }
    void visit(const Load *) override { ok = false; }
    void visit(const Let *) override { ok = false; }
    void visit(const Shuffle *) override { ok = false; }
    void visit(const Ramp *) override { ok = false; }
    void visit(const Broadcast *) override { ok = false; }

private:
    const Scope<Expr> &lets;
    const std::set<std::string> &arguments;
};

/** Does e read a dimension field that a bounds query already wrote? Follows
 * the rematerializable lets it uses. */
bool reads_written_field(const Expr &e, const Scope<Expr> &lets,
                         const std::multiset<std::pair<std::string, int>> &written) {
    class Finder : public IRVisitor {
    public:
        Finder(const Scope<Expr> &lets, const std::multiset<std::pair<std::string, int>> &written)
            : lets(lets), written(written) {}
        bool found = false;
        using IRVisitor::visit;
        void visit(const Variable *op) override {
            const Expr *value = lets.find(op->name);
            if (value && value->defined()) value->accept(this);
        }
        void visit(const Call *op) override {
            bool dim_field = op->is_intrinsic(Intrinsic::buffer_get_min) ||
                             op->is_intrinsic(Intrinsic::buffer_get_extent) ||
                             op->is_intrinsic(Intrinsic::buffer_get_stride);
            const auto *buffer = op->args.empty() ? nullptr : op->args[0].as<Variable>();
            if (dim_field && buffer && op->args.size() == 2) {
                const auto *d = op->args[1].as<IntImm>();
                if (written.count({std::string(), -1}) || written.count({buffer->name, -1}) ||
                    (d && written.count({buffer->name, int(d->value)})) || (!d && !written.empty()))
                    found = true;
            }
            IRVisitor::visit(op);
        }

    private:
        const Scope<Expr> &lets;
        const std::multiset<std::pair<std::string, int>> &written;
    } finder(lets, written);
    e.accept(&finder);
    return finder.found;
}

} // namespace

bool CodeGen_LLVM::rematerialization_active() const {
    return outline_loop_nests && loop_depth == 0;
}

bool CodeGen_LLVM::push_rematerializable(const LetStmt *op) {
    if (!outline_loop_nests || loop_depth != 0) return false;
    const Type t = op->value.type();
    const auto *call = op->value.as<Call>();
    bool host = t.is_handle() && call && call->is_intrinsic(Intrinsic::buffer_get_host);
    bool cheap = !t.is_vector() && (t.is_int() || t.is_uint() || t.is_bool() || host) &&
                 count_nodes(op->value, max_rematerialized_nodes) <= max_rematerialized_nodes;
    if (cheap) {
        CheapFieldExpr check(rematerializable, entry_arguments);
        op->value.accept(&check);
        cheap = check.ok && check.reads_field;
    }
    // An undefined entry hides an outer let of the same name.
    if (!cheap && !rematerializable.contains(op->name)) return false;
    rematerializable.push(op->name, cheap ? op->value : Expr());
    return true;
}

llvm::Value *CodeGen_LLVM::rematerialized(const std::string &name) {
    if (!rematerialization_active()) return nullptr;
    const Expr *e = rematerializable.find(name);
    if (!e || !e->defined()) return nullptr;
    if (!written_fields.empty() && reads_written_field(*e, rematerializable, written_fields))
        return nullptr;
    bool saved = rematerializing;
    rematerializing = true;
    llvm::Value *v = codegen(*e);
    rematerializing = saved;
    return v;
}

void CodeGen_LLVM::note_field_write(const Call *op) {
    if (!rematerialization_active() || op->name != "loom_bounds_query_set_dim" ||
        op->args.size() < 3)
        return;
    const auto *buffer = op->args[1].as<Variable>();
    const auto *d = op->args[2].as<IntImm>();
    // An unknown buffer could be any of them: stop rematerializing.
    std::pair<std::string, int> field{buffer ? buffer->name : std::string(),
                                      d ? int(d->value) : -1};
    written_fields.insert(field);
    written_log.push_back(field);
}

void CodeGen_LLVM::note_field_writes(const Stmt &s) {
    class Calls : public IRVisitor {
    public:
        explicit Calls(CodeGen_LLVM &cg) : cg(cg) {}
        using IRVisitor::visit;
        void visit(const Call *op) override {
            if (op->call_type == Call::Extern) cg.note_field_write(op);
            IRVisitor::visit(op);
        }

    private:
        CodeGen_LLVM &cg;
    } calls(*this);
    s.accept(&calls);
}

void CodeGen_LLVM::codegen_branches(const IfThenElse *op, llvm::BasicBlock *else_block,
                                    llvm::BasicBlock *after) {
    // The else branch does not see what the then branch wrote; the code
    // after both sees either.
    size_t mark = written_log.size();
    codegen_region(op->then_case);
    builder->CreateBr(after);
    std::vector<std::pair<std::string, int>> then_writes(written_log.begin() + long(mark),
                                                         written_log.end());
    for (const auto &w : then_writes) written_fields.erase(written_fields.find(w));
    written_log.resize(mark);
    if (op->else_case.defined()) {
        builder->SetInsertPoint(else_block);
        codegen_region(op->else_case);
        builder->CreateBr(after);
    }
    for (const auto &w : then_writes) {
        written_fields.insert(w);
        written_log.push_back(w);
    }
}

} // namespace Internal
} // namespace loom
