#include "lower/ComputeLevels.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

#include "ir/Error.h"
#include "ir/IRVisitor.h"
#include "lower/InlineFunctions.h"

namespace loom {
namespace Internal {

namespace {

struct LoopName {
    std::string func, vars; // vars: everything after "<func>.s<k>."
    int stage = -1;
};

/** Splits "g.s1.x.xo" into g, 1, "x.xo"; false when not a stage loop name. */
bool parse_loop(const std::string &loop, LoopName &out) {
    for (size_t pos = loop.find(".s"); pos != std::string::npos; pos = loop.find(".s", pos + 1)) {
        size_t i = pos + 2, digits = i;
        while (digits < loop.size() && std::isdigit(static_cast<unsigned char>(loop[digits])))
            digits++;
        if (digits == i || digits >= loop.size() || loop[digits] != '.') continue;
        out.func = loop.substr(0, pos);
        out.stage = std::stoi(loop.substr(i, digits - i));
        out.vars = loop.substr(digits + 1);
        return true;
    }
    return false;
}

/** The uses of one Func in a statement: which Funcs' productions call it,
 * and the loops enclosing every call (outermost first). */
class FindUses : public IRVisitor {
    const std::string &name;
    std::vector<std::string> loops, produces;
    bool first = true;

protected:
    using IRVisitor::visit;

    void visit(const For *op) override {
        all_loops.push_back(op->name);
        loop_types[op->name] = op->for_type;
        loops.push_back(op->name);
        IRVisitor::visit(op);
        loops.pop_back();
    }

    void visit(const ProducerConsumer *op) override {
        if (op->is_producer) produces.push_back(op->name);
        IRVisitor::visit(op);
        if (op->is_producer) produces.pop_back();
    }

    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type != Call::Loom || op->name != name) return;
        if (!produces.empty()) callers.insert(produces.back());
        if (first) {
            common = loops;
            first = false;
            return;
        }
        size_t n = 0;
        while (n < common.size() && n < loops.size() && common[n] == loops[n]) n++;
        common.resize(n);
    }

public:
    std::set<std::string> callers;
    std::vector<std::string> common, all_loops;
    std::map<std::string, ForType> loop_types;
    explicit FindUses(const std::string &n) : name(n) {}
    bool used() const { return !first; }
};

std::string join(const std::vector<std::string> &names) {
    std::string out;
    for (const std::string &n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

std::string level_name(const LoopLevel &l) {
    std::string s = l.func() + "." + l.var();
    if (l.stage_index() > 0) s += " (update " + std::to_string(l.stage_index() - 1) + ")";
    return s;
}

class Resolver {
    const Function &f;
    FindUses uses;

    std::vector<std::string> legal_levels(const std::vector<std::string> &loops,
                                          bool with_inline) const {
        std::vector<std::string> legal;
        for (const std::string &l : loops) legal.push_back(user_loop_name(l));
        legal.push_back("root");
        if (with_inline && f.updates().empty()) legal.push_back("inline");
        return legal;
    }

    std::vector<std::string> loops_of(const std::string &func) const {
        std::vector<std::string> out;
        for (const std::string &l : uses.all_loops) {
            LoopName p;
            if (parse_loop(l, p) && p.func == func) out.push_back(user_loop_name(l));
        }
        return out;
    }

    /** The loop of `level` that encloses every use of f, or an error. */
    std::string find_loop(const LoopLevel &level, const char *what,
                          const std::vector<std::string> &allowed) const {
        const std::string &g = level.func();
        std::string desc = "Func " + f.name() + " is " + what + " at " + level_name(level);
        std::string best;
        int best_stage = -1;
        bool any = false;
        for (const std::string &l : uses.all_loops) {
            if (!loop_matches(l, g, level.var(), level.stage_index())) continue;
            any = true;
            if (std::find(allowed.begin(), allowed.end(), l) == allowed.end()) continue;
            LoopName p;
            parse_loop(l, p);
            if (p.stage > best_stage) {
                best = l;
                best_stage = p.stage;
            }
        }
        if (!best.empty()) return best;
        std::vector<std::string> legal = legal_levels(allowed, true);
        std::vector<std::string> loops = loops_of(g);
        if (!any && loops.empty()) {
            user_error(desc << ", but " << g
                            << " has no loops (it is inlined). The legal levels are: "
                            << join(legal));
        }
        if (!uses.callers.count(g)) {
            std::vector<std::string> users(uses.callers.begin(), uses.callers.end());
            user_error(desc << ", but " << g << " does not use " << f.name() << "; " << f.name()
                            << " is used by: " << join(users)
                            << ". The legal levels are: " << join(legal));
        }
        if (!any) {
            user_error(desc << ", but " << g << " has no loop over " << level.var()
                            << " (its loops are: " << join(loops)
                            << "). The legal levels are: " << join(legal));
        }
        user_error(desc << ", which does not enclose "
                        << (allowed.size() == uses.common.size() ? "all uses of " + f.name()
                                                                 : "the compute level")
                        << ". The legal levels are: " << join(legal_levels(allowed, true)));
        return std::string();
    }

    /** Where a Func that is left inline but cannot be substituted (it has
     * update definitions) goes: as Halide does, at the innermost loop that
     * encloses every use, so it is computed as close to its uses as
     * possible. Loops whose iterations run as vector lanes or GPU threads
     * cannot hold a producer, so it stops outside the first of them. */
    std::string innermost_use_loop() const {
        std::string loop;
        for (const std::string &l : uses.common) {
            auto it = uses.loop_types.find(l);
            ForType t = it == uses.loop_types.end() ? ForType::Serial : it->second;
            if (t != ForType::Serial && t != ForType::Parallel && t != ForType::Unrolled) break;
            loop = l;
        }
        return loop;
    }

public:
    Resolver(const Stmt &s, const Function &func, const std::vector<Function> &outputs)
        : f(func), uses(func.name()) {
        inline_functions(s, outputs).accept(&uses);
    }

    Placement resolve() const {
        Placement p;
        if (!uses.used()) {
            p.used = false;
            return p;
        }
        const FuncSchedule &sched = f.schedule();
        LoopLevel compute = sched.compute_level;
        LoopLevel store = sched.store_level;
        bool innermost = !compute.defined() || compute.is_inlined();
        if (innermost) {
            p.compute_loop = innermost_use_loop();
        } else if (!compute.is_root()) {
            p.compute_loop = find_loop(compute, "computed", uses.common);
        }
        if (!sched.store_level_set || !store.defined() || store.is_inlined()) {
            p.store_loop = p.compute_loop;
            return p;
        }
        if (store.is_root()) return p;
        // Storage must enclose the computation: only loops at or outside it.
        std::vector<std::string> outer;
        for (const std::string &l : uses.common) {
            outer.push_back(l);
            if (l == p.compute_loop) break;
        }
        if (p.compute_loop.empty()) outer.clear();
        for (const std::string &l : uses.common) {
            if (loop_matches(l, store.func(), store.var(), store.stage_index()) &&
                std::find(outer.begin(), outer.end(), l) == outer.end()) {
                user_error("Func " << f.name() << " is stored at " << level_name(store)
                                   << ", which is inside its compute level "
                                   << (p.compute_loop.empty() ? std::string("root")
                                       : innermost            ? user_loop_name(p.compute_loop)
                                                              : level_name(compute))
                                   << "; storage must be at or outside the computation. "
                                      "The legal store levels are: "
                                   << join(legal_levels(outer, false)));
            }
        }
        p.store_loop = find_loop(store, "stored", outer);
        return p;
    }
};

} // namespace

bool loop_matches(const std::string &loop, const std::string &func, const std::string &var,
                  int stage) {
    LoopName p;
    if (!parse_loop(loop, p) || p.func != func) return false;
    if (stage >= 0 && p.stage != stage) return false;
    if (p.vars == var) return true;
    return p.vars.size() > var.size() &&
           p.vars.compare(p.vars.size() - var.size(), var.size(), var) == 0 &&
           p.vars[p.vars.size() - var.size() - 1] == '.';
}

std::string user_loop_name(const std::string &loop) {
    LoopName p;
    if (!parse_loop(loop, p)) return loop;
    std::string var =
        p.vars.substr(p.vars.rfind('.') == std::string::npos ? 0 : p.vars.rfind('.') + 1);
    if (p.stage == 0) return p.func + "." + var;
    return p.func + ".update(" + std::to_string(p.stage - 1) + ")." + var;
}

Placement resolve_placement(const Stmt &s, const Function &f,
                            const std::vector<Function> &outputs) {
    return Resolver(s, f, outputs).resolve();
}

} // namespace Internal
} // namespace loom
