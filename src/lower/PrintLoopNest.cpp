#include "lower/PrintLoopNest.h"

#include <sstream>

#include "analysis/Simplify.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "ir/IRVisitor.h"
#include "lower/FindEnvironment.h"
#include "lower/InlineFunctions.h"
#include "lower/LowerUtil.h"
#include "lower/ScheduleFunctions.h"

namespace loom {
namespace Internal {

namespace {

const char *loop_kind(ForType t) {
    switch (t) {
    case ForType::Serial:
        return "for";
    case ForType::Parallel:
        return "parallel";
    case ForType::Vectorized:
        return "vectorized";
    case ForType::Unrolled:
        return "unrolled";
    case ForType::Extern:
        return "extern";
    case ForType::GPUBlock:
        return "gpu_block";
    case ForType::GPUThread:
        return "gpu_thread";
    case ForType::GPULane:
        return "gpu_lane";
    }
    return "for";
}

/** "f.s0.x.xi" -> "x.xi": the user's name of a loop. */
std::string loop_name(const std::string &name) {
    size_t s = name.find(".s");
    if (s == std::string::npos) return name;
    size_t dot = name.find('.', s + 2);
    return dot == std::string::npos ? name : name.substr(dot + 1);
}

class LoopNestPrinter : public IRVisitor {
    std::ostringstream out;
    int indent = 0;

    void line(const std::string &text) {
        out << std::string(size_t(indent) * 2, ' ') << text << "\n";
    }

protected:
    using IRVisitor::visit;

    void visit(const ProducerConsumer *op) override {
        if (!op->is_producer) {
            op->body.accept(this);
            return;
        }
        line("produce " + op->name + ":");
        indent++;
        op->body.accept(this);
        indent--;
    }

    void visit(const For *op) override {
        std::string text = std::string(loop_kind(op->for_type)) + " " + loop_name(op->name);
        Expr lo = simplify(op->min), hi = simplify(add(op->min, sub(op->extent, 1)));
        if (op->for_type != ForType::Serial && is_const(lo) && is_const(hi)) {
            text += " in [" + to_string(lo) + ", " + to_string(hi) + "]";
        }
        line(text + ":");
        indent++;
        op->body.accept(this);
        indent--;
    }

    void visit(const Provide *op) override { line(op->name + "(...) = ..."); }

    // Lets, guards and storage are not part of the loop structure.
    void visit(const LetStmt *op) override { op->body.accept(this); }
    void visit(const Realize *op) override { op->body.accept(this); }
    void visit(const IfThenElse *op) override {
        op->then_case.accept(this);
        if (op->else_case.defined()) op->else_case.accept(this);
    }

public:
    std::string text() const { return out.str(); }
};

} // namespace

std::string print_loop_nest(const std::vector<Function> &outputs) {
    Environment env = find_environment(outputs);
    std::vector<std::string> order = realization_order(outputs, env);
    Stmt s = schedule_functions(outputs, order, env);
    s = inline_functions(s, outputs);
    LoopNestPrinter printer;
    s.accept(&printer);
    return printer.text();
}

} // namespace Internal
} // namespace loom
