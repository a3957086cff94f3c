// PipelineSchedule as C++: to_cpp() prints the calls that rebuild each
// Func's schedule, in the algorithm's own Func and Var names; apply_source()
// reads that form back and makes the same calls, so a printed schedule can
// be checked (and pasted back) without a C++ compiler.

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "autoschedule/ScheduleUtil.h"
#include "frontend/FuncWrappers.h"
#include "frontend/RFactor.h"
#include "ir/Error.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "loom/Func.h"
#include "loom/Pipeline.h"
#include "loom/PipelineSchedule.h"
#include "loom/RDom.h"
#include "loom/Stage.h"

namespace loom {

using namespace Internal;

namespace {

/** A C++ identifier for a Func, Var or RVar name. */
std::string identifier(const std::string &name) {
    std::string s;
    for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "_" + s;
    return s;
}

const char *tail_name(TailStrategy t) {
    return tail_strategy_names()[size_t(t)].c_str();
}

const char *memory_name(MemoryType t) {
    return memory_type_names()[size_t(t)].c_str();
}

const char *device_name(DeviceAPI api) {
    return device_api_names()[size_t(api)].c_str();
}

/** An integer Expr of a schedule as C++: a constant or a Param's name. */
std::string expr_source(const Expr &e) {
    Expr x = e;
    if (const auto *c = x.as<Cast>()) x = c->value; // factors are cast to Int(32)
    if (auto v = as_const_int(x)) return std::to_string(*v);
    if (const auto *var = x.as<Variable>()) return identifier(var->name);
    std::ostringstream os;
    os << e;
    return os.str();
}

class CppPrinter {
    std::ostringstream body_;
    std::map<std::string, bool> loop_vars_; // name -> is an RVar

    std::string var(const std::string &qualified, bool is_rvar) {
        std::string name = short_loop_name(qualified);
        // A loop named first in a compute_at (no kind known there) may turn
        // out to be an RVar's split: declared as an RVar all the same.
        bool rvar = is_rvar || name.find('$') != std::string::npos;
        auto [it, added] = loop_vars_.emplace(name, rvar);
        if (!added) it->second = it->second || rvar;
        return identifier(name);
    }

    static bool is_default(const StageSchedule &s) {
        if (s.touched || !s.splits.empty() || !s.specializations.empty()) return false;
        for (const Dim &d : s.dims)
            if (d.for_type != ForType::Serial) return false;
        return true;
    }

    std::string level(const LoopLevel &l) {
        if (l.is_root()) return "LoopLevel::root()";
        if (l.is_inlined()) return "LoopLevel::inlined()";
        std::string s = "LoopLevel(" + identifier(l.func()) + ", " + var(l.var(), false) + ")";
        if (l.stage_index() >= 0)
            s = "LoopLevel(" + identifier(l.func()) + ", " + var(l.var(), false) + ", " +
                std::to_string(l.stage_index()) + ")";
        return s;
    }

    /** The calls of one stage: splits in order, then the loop order, then
     * the loop kinds. */
    std::string stage_calls(const StageSchedule &s, const std::vector<std::string> &initial,
                            bool atomic) {
        std::string out;
        std::map<std::string, bool> rvar;
        for (const Dim &d : s.dims) rvar[d.var] = d.is_rvar;
        auto is_rvar = [&](const std::string &v) {
            auto it = rvar.find(v);
            return (it != rvar.end() && it->second) ||
                   root_loop_name(v).find('$') != std::string::npos;
        };
        std::vector<std::string> dims = initial; // replayed as the calls would change them
        auto index = [&](const std::string &v) {
            return size_t(std::find(dims.begin(), dims.end(), v) - dims.begin());
        };
        for (const Split &sp : s.splits) {
            size_t i = index(sp.old_var);
            switch (sp.kind) {
            case Split::SplitVar:
                out += ".split(" + var(sp.old_var, is_rvar(sp.old_var)) + ", " +
                       var(sp.outer, is_rvar(sp.outer)) + ", " + var(sp.inner, is_rvar(sp.inner)) +
                       ", " + expr_source(sp.factor) +
                       (sp.tail == TailStrategy::Auto
                            ? std::string()
                            : std::string(", TailStrategy::") + tail_name(sp.tail)) +
                       ")";
                if (i < dims.size()) {
                    dims[i] = sp.outer;
                    dims.insert(dims.begin() + long(i), sp.inner);
                }
                break;
            case Split::FuseVars: {
                out += ".fuse(" + var(sp.inner, is_rvar(sp.inner)) + ", " +
                       var(sp.outer, is_rvar(sp.outer)) + ", " +
                       var(sp.old_var, is_rvar(sp.old_var)) + ")";
                size_t in = index(sp.inner), o = index(sp.outer);
                if (in < dims.size() && o < dims.size()) {
                    dims[in] = sp.old_var;
                    dims.erase(dims.begin() + long(o));
                }
                break;
            }
            case Split::RenameVar:
                out += ".rename(" + var(sp.old_var, is_rvar(sp.old_var)) + ", " +
                       var(sp.outer, is_rvar(sp.outer)) + ")";
                if (i < dims.size()) dims[i] = sp.outer;
                break;
            }
        }
        // gpu_single_thread() adds its two loops outside all others.
        DeviceAPI single_api = DeviceAPI::None;
        for (const Dim &d : s.dims)
            if (d.var == single_thread_block_loop) single_api = d.device_api;
        if (single_api != DeviceAPI::None) {
            for (const char *l : {single_thread_thread_loop, single_thread_block_loop})
                if (index(l) == dims.size()) dims.push_back(l);
        }
        std::vector<std::string> final_order;
        for (const Dim &d : s.dims) final_order.push_back(d.var);
        if (final_order != dims) {
            out += ".reorder(";
            bool first = true;
            for (const Dim &d : s.dims) {
                if (is_single_thread_loop(d.var)) continue;
                out += (first ? "" : ", ") + var(d.var, d.is_rvar);
                first = false;
            }
            out += ")";
        }
        if (single_api != DeviceAPI::None)
            out += std::string(".gpu_single_thread(DeviceAPI::") + device_name(single_api) + ")";
        // GPU loops are named together per kind, innermost (x) first.
        std::map<ForType, std::vector<const Dim *>> gpu;
        for (const Dim &d : s.dims) {
            if (is_single_thread_loop(d.var)) continue;
            switch (d.for_type) {
            case ForType::Vectorized:
                out += ".vectorize(" + var(d.var, d.is_rvar) + ")";
                break;
            case ForType::Unrolled:
                out += ".unroll(" + var(d.var, d.is_rvar) + ")";
                break;
            case ForType::Parallel:
                out += ".parallel(" + var(d.var, d.is_rvar) + ")";
                break;
            case ForType::GPUBlock:
            case ForType::GPUThread:
            case ForType::GPULane:
                gpu[d.for_type].push_back(&d);
                break;
            default:
                break;
            }
        }
        for (ForType t : {ForType::GPUBlock, ForType::GPUThread, ForType::GPULane}) {
            auto it = gpu.find(t);
            if (it == gpu.end()) continue;
            out += t == ForType::GPUBlock    ? ".gpu_blocks("
                   : t == ForType::GPUThread ? ".gpu_threads("
                                             : ".gpu_lanes(";
            for (const Dim *d : it->second) out += var(d->var, d->is_rvar) + ", ";
            out += std::string("DeviceAPI::") + device_name(it->second[0]->device_api) + ")";
        }
        if (out.empty() && s.touched) {
            // Scheduled without visible effect (an identity reorder): say so,
            // so the stage reads back as scheduled.
            out += ".reorder(";
            bool first = true;
            for (const Dim &d : s.dims) {
                if (is_single_thread_loop(d.var)) continue;
                out += (first ? "" : ", ") + var(d.var, d.is_rvar);
                first = false;
            }
            out += ")";
        }
        if (atomic) out += ".atomic()";
        if (!s.specializations.empty()) out += "; // (its specialize() branches are not printed)";
        return out;
    }

    std::string placement_calls(const PipelineSchedule::FuncEntry &e) {
        const FuncSchedule &p = e.placement;
        std::string out;
        if (!p.compute_level.is_inlined() && p.compute_level.defined()) {
            const LoopLevel &l = p.compute_level;
            if (l.is_root())
                out += ".compute_root()";
            else if (l.stage_index() < 0)
                out += ".compute_at(" + identifier(l.func()) + ", " + var(l.var(), false) + ")";
            else
                out += ".compute_at(" + level(l) + ")";
        }
        if (p.store_level_set) {
            const LoopLevel &l = p.store_level;
            if (l.is_root())
                out += ".store_root()";
            else if (!l.is_inlined() && l.stage_index() < 0)
                out += ".store_at(" + identifier(l.func()) + ", " + var(l.var(), false) + ")";
            else
                out += ".store_at(" + level(l) + ")";
        }
        if (p.memory_type != MemoryType::Auto)
            out += std::string(".store_in(MemoryType::") + memory_name(p.memory_type) + ")";
        for (const Bound &b : p.bounds) {
            std::string v = identifier(b.var);
            if (b.min.defined())
                out +=
                    ".bound(" + v + ", " + expr_source(b.min) + ", " + expr_source(b.extent) + ")";
            else if (b.extent.defined())
                out += ".bound_extent(" + v + ", " + expr_source(b.extent) + ")";
            if (b.modulus.defined())
                out += ".align_bounds(" + v + ", " + expr_source(b.modulus) + ", " +
                       expr_source(b.remainder) + ")";
        }
        for (const Bound &b : p.estimates)
            if (b.min.defined() && b.extent.defined())
                out += ".set_estimate(" + identifier(b.var) + ", " + expr_source(b.min) + ", " +
                       expr_source(b.extent) + ")";
        if (!p.storage_dims.empty()) {
            out += ".reorder_storage(";
            for (size_t i = 0; i < p.storage_dims.size(); i++)
                out += (i ? ", " : "") + identifier(p.storage_dims[i]);
            out += ")";
        }
        for (const StorageFold &f : p.storage_folds)
            out += ".fold_storage(" + identifier(f.var) + ", " + expr_source(f.extent) +
                   (f.fold_forward ? "" : ", false") + ")";
        return out;
    }

    /** `Func intm = f.update(i)<splits>.rfactor(...);` for each recorded
     * rfactor(), consumers first (an intermediate exists before its own). */
    void rfactor_statements(const PipelineSchedule &s) {
        for (auto it = s.funcs().rbegin(); it != s.funcs().rend(); ++it) {
            for (const PipelineSchedule::FuncEntry::RFactor &r : it->rfactors) {
                body_ << "    Func " << identifier(r.intermediate) << " = " << identifier(it->func)
                      << ".update(" << r.stage - 1 << ")"
                      << stage_calls(r.before, r.initial_loops, false) << ".rfactor(";
                bool one = r.preserved.size() == 1;
                if (!one) body_ << "{";
                for (size_t i = 0; i < r.preserved.size(); i++)
                    body_ << (i ? ", " : "") << (one ? "" : "{") << var(r.preserved[i].first, true)
                          << ", " << var(r.preserved[i].second, false) << (one ? "" : "}");
                if (!one) body_ << "}";
                body_ << ");\n";
            }
        }
    }

    /** `Func f_in_g = f.in(g);` for each recorded wrapper, producers first
     * (a wrapper exists before its own wrappers). */
    void wrapper_statements(const PipelineSchedule &s) {
        for (const PipelineSchedule::FuncEntry &e : s.funcs()) {
            const PipelineSchedule::FuncEntry::Wrapper &w = e.wrapper;
            if (w.of.empty()) continue;
            body_ << "    Func " << identifier(e.func) << " = "
                  << identifier(w.image.empty() ? w.of : w.image)
                  << (w.clone ? ".clone_in(" : ".in(");
            bool global = w.callers.size() == 1 && w.callers[0].empty();
            if (!global) {
                if (w.callers.size() > 1) body_ << "{";
                for (size_t i = 0; i < w.callers.size(); i++)
                    body_ << (i ? ", " : "") << identifier(w.callers[i]);
                if (w.callers.size() > 1) body_ << "}";
            }
            body_ << ");\n";
        }
    }

public:
    std::string print(const PipelineSchedule &s) {
        wrapper_statements(s);
        rfactor_statements(s);
        for (const PipelineSchedule::FuncEntry &e : s.funcs()) {
            std::string fname = identifier(e.func);
            std::string calls = placement_calls(e);
            for (size_t i = 0; i < e.stages.size(); i++) {
                bool atomic = i < e.atomic.size() && e.atomic[i];
                if (is_default(e.stages[i]) && !atomic) continue;
                std::vector<std::string> initial =
                    i < e.initial_loops.size() ? e.initial_loops[i] : std::vector<std::string>();
                std::string stage = stage_calls(e.stages[i], initial, atomic);
                if (i == 0) {
                    calls += stage;
                } else {
                    if (!calls.empty()) body_ << "    " << fname << calls << ";\n";
                    calls.clear();
                    body_ << "    " << fname << ".update(" << i - 1 << ")" << stage << ";\n";
                }
            }
            if (!calls.empty()) body_ << "    " << fname << calls << ";\n";
        }
        std::ostringstream os;
        os << "{\n    using namespace loom;\n";
        std::string vars, rvars;
        for (const auto &[name, is_rvar] : loop_vars_) {
            std::string decl = identifier(name) + "(\"" + name + "\")";
            std::string &list = is_rvar ? rvars : vars;
            list += (list.empty() ? "" : ", ") + decl;
        }
        if (!vars.empty()) os << "    Var " << vars << ";\n";
        if (!rvars.empty()) os << "    RVar " << rvars << ";\n";
        os << body_.str() << "}\n";
        return os.str();
    }
};

// ---- Reading the printed form back.

struct Token {
    enum Kind { Ident, Number, String, Punct, End } kind = End;
    std::string text;
    int line = 0;
};

std::vector<Token> tokenize(const std::string &src) {
    std::vector<Token> out;
    int line = 1;
    size_t i = 0;
    while (i < src.size()) {
        char c = src[i];
        if (c == '\n') {
            line++;
            i++;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            i++;
        } else if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
            while (i < src.size() && src[i] != '\n') i++;
        } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            size_t j = i;
            while (j < src.size() &&
                   (std::isalnum(static_cast<unsigned char>(src[j])) || src[j] == '_' ||
                    (src[j] == ':' && j + 1 < src.size() && src[j + 1] == ':'))) {
                j += src[j] == ':' ? 2 : 1;
            }
            out.push_back({Token::Ident, src.substr(i, j - i), line});
            i = j;
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '-' && i + 1 < src.size() &&
                    std::isdigit(static_cast<unsigned char>(src[i + 1])))) {
            size_t j = i + 1;
            while (j < src.size() && std::isdigit(static_cast<unsigned char>(src[j]))) j++;
            out.push_back({Token::Number, src.substr(i, j - i), line});
            i = j;
        } else if (c == '"') {
            size_t j = i + 1;
            while (j < src.size() && src[j] != '"') j++;
            out.push_back({Token::String, src.substr(i + 1, j - i - 1), line});
            i = j + 1;
        } else {
            out.push_back({Token::Punct, std::string(1, c), line});
            i++;
        }
    }
    out.push_back({Token::End, "", line});
    return out;
}

/** A call argument: a name (Var, RVar, Func or Param), a number, an enum
 * value (Kind::Value) or a LoopLevel. */
struct Arg {
    enum Kind { Name, Number, Enum, Level } kind = Name;
    std::string text;
    LoopLevel level;
    int64_t number = 0;
};

class SourceReader {
    const Pipeline &pipeline_;
    std::vector<Token> toks_;
    size_t pos_ = 0;
    std::map<std::string, Function> funcs_;        // identifier -> Func
    std::map<std::string, Parameter> params_;      // identifier -> Param
    std::map<std::string, Function> images_;       // ImageParam identifier -> its Func
    std::map<std::string, Buffer<>> buffers_;      // Buffer identifier -> Buffer
    std::map<std::string, std::string> var_names_; // identifier -> loop name
    std::map<std::string, bool> var_is_rvar_;
    std::set<std::string> started_;  // "func#stage" of updates this source scheduled
    std::set<std::string> released_; // intermediates of updates this source put back

    const Token &peek() const { return toks_[pos_]; }
    Token next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }

    [[noreturn]] void fail(const std::string &what) const {
        user_error("Schedule source, line "
                   << peek().line << ": " << what
                   << (peek().kind == Token::End ? std::string(" (at the end)")
                                                 : " (at '" + peek().text + "')"));
    }
    void expect(const std::string &p) {
        if (peek().text != p || peek().kind == Token::String) fail("expected '" + p + "'");
        next();
    }
    static std::string strip_loom(const std::string &s) {
        return s.rfind("loom::", 0) == 0 ? s.substr(6) : s;
    }

    LoopLevel parse_level_call() {
        // After "LoopLevel": "(F, v[, stage])".
        expect("(");
        Token f = next();
        expect(",");
        Token v = next();
        int stage = -1;
        if (peek().text == ",") {
            next();
            stage = std::stoi(next().text);
        }
        expect(")");
        return LoopLevel(func_named(f.text).name(), loop_name(v.text), stage);
    }

    Arg parse_arg() {
        Token t = next();
        Arg a;
        if (t.kind == Token::Number) {
            a.kind = Arg::Number;
            a.number = std::stoll(t.text);
            return a;
        }
        if (t.kind != Token::Ident) fail("expected an argument");
        std::string name = strip_loom(t.text);
        if (name == "LoopLevel::root" || name == "LoopLevel::inlined") {
            expect("(");
            expect(")");
            a.kind = Arg::Level;
            a.level = name == "LoopLevel::root" ? LoopLevel::root() : LoopLevel::inlined();
            return a;
        }
        if (name == "LoopLevel") {
            a.kind = Arg::Level;
            a.level = parse_level_call();
            return a;
        }
        if (name.find("::") != std::string::npos || name == "true" || name == "false") {
            a.kind = Arg::Enum;
            a.text = name;
            return a;
        }
        a.kind = Arg::Name;
        a.text = name;
        return a;
    }

    Function func_named(const std::string &ident) const {
        auto it = funcs_.find(ident);
        if (it == funcs_.end()) {
            std::string names;
            for (const auto &kv : funcs_) names += (names.empty() ? "" : ", ") + kv.first;
            fail("no Func " + ident + " in the pipeline; its Funcs are " + names);
        }
        return it->second;
    }
    std::string loop_name(const std::string &ident) const {
        auto it = var_names_.find(ident);
        return it == var_names_.end() ? ident : it->second;
    }
    VarOrRVar loop(const Arg &a) const {
        if (a.kind != Arg::Name) fail("expected a Var or RVar");
        auto it = var_is_rvar_.find(a.text);
        return VarOrRVar(loop_name(a.text), it != var_is_rvar_.end() && it->second);
    }
    Var pure_var(const Arg &a) const {
        if (a.kind != Arg::Name) fail("expected a Var");
        return Var(loop_name(a.text));
    }
    Expr int_expr(const Arg &a) const {
        if (a.kind == Arg::Number) return Expr(int(a.number));
        if (a.kind == Arg::Name) {
            auto it = params_.find(a.text);
            if (it != params_.end())
                return Variable::make(it->second.type(), it->second.name(), it->second);
        }
        fail("expected an integer or the name of a Param");
    }
    /** An enum argument written Kind::Value, Value one of names. */
    template <typename E>
    E enum_arg(const Arg &a, const std::vector<std::string> &names, const std::string &kind) const {
        if (a.kind == Arg::Enum && a.text.rfind(kind + "::", 0) == 0)
            for (size_t i = 0; i < names.size(); i++)
                if (a.text.compare(kind.size() + 2, std::string::npos, names[i]) == 0) return E(i);
        fail("expected a " + kind);
    }
    TailStrategy tail(const Arg &a) const {
        return enum_arg<TailStrategy>(a, tail_strategy_names(), "TailStrategy");
    }
    DeviceAPI device(const Arg &a) const {
        return enum_arg<DeviceAPI>(a, device_api_names(), "DeviceAPI");
    }
    MemoryType memory(const Arg &a) const {
        return enum_arg<MemoryType>(a, memory_type_names(), "MemoryType");
    }
    void arity(const std::string &method, const std::vector<Arg> &args, size_t lo,
               size_t hi) const {
        if (args.size() < lo || args.size() > hi)
            fail(method + " takes " + std::to_string(lo) +
                 (hi == lo ? std::string() : " to " + std::to_string(hi)) + " arguments, not " +
                 std::to_string(args.size()));
    }

    /** GPU loop calls: the loops, then optionally a DeviceAPI. */
    void gpu_call(Stage &st, const std::string &method, std::vector<Arg> args) {
        DeviceAPI api = DeviceAPI::Default_GPU;
        if (!args.empty() && args.back().kind == Arg::Enum) {
            api = device(args.back());
            args.pop_back();
        }
        std::vector<VarOrRVar> v;
        for (const Arg &a : args) v.push_back(loop(a));
        if (method == "gpu_lanes") {
            arity(method, args, 1, 1);
            st.gpu_lanes(v[0], api);
            return;
        }
        arity(method, args, 1, 3);
        bool blocks = method == "gpu_blocks";
        if (v.size() == 1)
            blocks ? st.gpu_blocks(v[0], api) : st.gpu_threads(v[0], api);
        else if (v.size() == 2)
            blocks ? st.gpu_blocks(v[0], v[1], api) : st.gpu_threads(v[0], v[1], api);
        else
            blocks ? st.gpu_blocks(v[0], v[1], v[2], api) : st.gpu_threads(v[0], v[1], v[2], api);
    }

    /** One loop call on a stage; false when method is not a loop call. */
    bool stage_call(Stage &st, const std::string &m, const std::vector<Arg> &a) {
        if (m == "split") {
            arity(m, a, 4, 5);
            st.split(loop(a[0]), loop(a[1]), loop(a[2]), int_expr(a[3]),
                     a.size() > 4 ? tail(a[4]) : TailStrategy::Auto);
        } else if (m == "fuse") {
            arity(m, a, 3, 3);
            st.fuse(loop(a[0]), loop(a[1]), loop(a[2]));
        } else if (m == "rename") {
            arity(m, a, 2, 2);
            st.rename(loop(a[0]), loop(a[1]));
        } else if (m == "reorder") {
            std::vector<VarOrRVar> v;
            for (const Arg &x : a) v.push_back(loop(x));
            st.reorder(v);
        } else if (m == "vectorize" || m == "unroll" || m == "parallel") {
            arity(m, a, 1, 3);
            TailStrategy t = a.size() > 2 ? tail(a[2]) : TailStrategy::Auto;
            if (m == "vectorize")
                a.size() == 1 ? st.vectorize(loop(a[0]))
                              : st.vectorize(loop(a[0]), int_expr(a[1]), t);
            else if (m == "unroll")
                a.size() == 1 ? st.unroll(loop(a[0])) : st.unroll(loop(a[0]), int_expr(a[1]), t);
            else
                a.size() == 1 ? st.parallel(loop(a[0]))
                              : st.parallel(loop(a[0]), int_expr(a[1]), t);
        } else if (m == "serial") {
            arity(m, a, 1, 1);
            st.serial(loop(a[0]));
        } else if (m == "tile") {
            arity(m, a, 8, 9);
            st.tile(loop(a[0]), loop(a[1]), loop(a[2]), loop(a[3]), loop(a[4]), loop(a[5]),
                    int_expr(a[6]), int_expr(a[7]), a.size() > 8 ? tail(a[8]) : TailStrategy::Auto);
        } else if (m == "gpu_blocks" || m == "gpu_threads" || m == "gpu_lanes") {
            gpu_call(st, m, a);
        } else if (m == "gpu_single_thread") {
            arity(m, a, 0, 1);
            st.gpu_single_thread(a.empty() ? DeviceAPI::Default_GPU : device(a[0]));
        } else if (m == "atomic") {
            arity(m, a, 0, 0);
            st.atomic();
        } else {
            return false;
        }
        return true;
    }

    LoopLevel level_arg(const std::string &m, const std::vector<Arg> &a) {
        arity(m, a, 1, 2);
        if (a.size() == 1) {
            if (a[0].kind != Arg::Level) fail(m + " takes a LoopLevel or a Func and a Var");
            return a[0].level;
        }
        if (a[0].kind != Arg::Name) fail(m + " takes a Func and a Var");
        return LoopLevel(func_named(a[0].text).name(), loop(a[1]).name());
    }

    /** One placement or storage call on a Func; false when unknown. */
    bool func_call(Func &f, const std::string &m, const std::vector<Arg> &a) {
        if (m == "compute_root") {
            arity(m, a, 0, 0);
            f.compute_root();
        } else if (m == "compute_inline") {
            arity(m, a, 0, 0);
            f.compute_inline();
        } else if (m == "store_root") {
            arity(m, a, 0, 0);
            f.store_root();
        } else if (m == "compute_at") {
            f.compute_at(level_arg(m, a));
        } else if (m == "store_at") {
            f.store_at(level_arg(m, a));
        } else if (m == "store_in") {
            arity(m, a, 1, 1);
            f.store_in(memory(a[0]));
        } else if (m == "bound" || m == "set_estimate") {
            arity(m, a, 3, 3);
            m == "bound" ? f.bound(pure_var(a[0]), int_expr(a[1]), int_expr(a[2]))
                         : f.set_estimate(pure_var(a[0]), int_expr(a[1]), int_expr(a[2]));
        } else if (m == "bound_extent") {
            arity(m, a, 2, 2);
            f.bound_extent(pure_var(a[0]), int_expr(a[1]));
        } else if (m == "align_bounds") {
            arity(m, a, 3, 3);
            f.align_bounds(pure_var(a[0]), int_expr(a[1]), int_expr(a[2]));
        } else if (m == "reorder_storage") {
            std::vector<Var> v;
            for (const Arg &x : a) v.push_back(pure_var(x));
            f.reorder_storage(v);
        } else if (m == "fold_storage") {
            arity(m, a, 2, 3);
            bool forward = a.size() < 3 || a[2].text != "false";
            f.fold_storage(pure_var(a[0]), int_expr(a[1]), forward);
        } else {
            return false;
        }
        return true;
    }

    void declaration(bool rvar) {
        // Var a("a"), b;  — each name, with its loop name in quotes if given.
        while (true) {
            Token id = next();
            if (id.kind != Token::Ident) fail("expected a name to declare");
            std::string name = id.text;
            if (peek().text == "(") {
                next();
                if (peek().kind != Token::String) fail("expected the loop name in quotes");
                name = next().text;
                expect(")");
            }
            var_names_[id.text] = name;
            var_is_rvar_[id.text] = rvar;
            if (peek().text == ",") {
                next();
                continue;
            }
            expect(";");
            return;
        }
    }

    /** Before the first call on update `stage` of f in this source: an
     * update factored by an earlier rfactor() (not one made by this source)
     * is put back, unscheduled, so the source's own calls remake it. */
    void start_update(Function f, int stage) {
        std::string key = f.name() + "#" + std::to_string(stage);
        if (!started_.insert(key).second) return;
        Definition &u = f.updates()[size_t(stage - 1)];
        if (!rfactor_record(u)) return;
        while (auto r = rfactor_record(u)) {
            released_.insert(identifier(r->intermediate));
            u = r->original;
        }
        u.schedule = initial_schedule(u, f.args());
        f.invalidate_cache();
    }

    /** rfactor's argument: `r, v` or `{{r, v}, ...}`. */
    std::vector<std::pair<RVar, Var>> rfactor_args() {
        std::vector<std::pair<RVar, Var>> out;
        auto pair = [&] {
            Arg r = parse_arg();
            expect(",");
            Arg v = parse_arg();
            if (r.kind != Arg::Name || v.kind != Arg::Name)
                fail("rfactor takes pairs of an RVar and a Var");
            out.emplace_back(RVar(loop_name(r.text)), pure_var(v));
        };
        if (peek().text == "{") {
            next();
            while (true) {
                expect("{");
                pair();
                expect("}");
                if (peek().text != ",") break;
                next();
            }
            expect("}");
        } else {
            pair();
        }
        expect(")");
        return out;
    }

    /** `Func intm = f.update(i)<loop calls>.rfactor(...);` */
    /** The arguments of a call up to its ')' (the '(' already read). */
    std::vector<Arg> call_args() {
        std::vector<Arg> args;
        while (peek().text != ")") {
            args.push_back(parse_arg());
            if (peek().text == ",")
                next();
            else if (peek().text != ")")
                fail("expected ',' or ')'");
        }
        expect(")");
        return args;
    }

    /** After `Func name = f.` or `image.`: `in(...)` or `clone_in(...)`,
     * with no caller, one, or a braced list. */
    void wrapper_statement(const Token &id, const std::string &head) {
        Token method = next();
        bool clone = method.text == "clone_in";
        auto image = images_.find(head);
        auto buffer = buffers_.find(head);
        Function wrapped;
        if (image != images_.end())
            wrapped = image->second;
        else if (buffer == buffers_.end())
            wrapped = func_named(head);
        expect("(");
        std::vector<std::string> callers;
        bool braced = peek().text == "{";
        if (braced) next();
        while (peek().text != (braced ? "}" : ")")) {
            Token c = next();
            if (c.kind != Token::Ident) fail("expected the name of a Func that calls " + head);
            callers.push_back(func_named(c.text).name());
            if (peek().text == ",") next();
        }
        if (braced) expect("}");
        expect(")");
        expect(";");
        if (clone && callers.empty()) fail("clone_in takes the Funcs to clone " + head + " for");
        Function w;
        if (buffer != buffers_.end()) {
            if (clone || callers.empty()) fail("a Buffer's wrapper takes the Funcs that read it");
            std::vector<Function> readers;
            for (const std::string &c : callers) readers.push_back(func_named(identifier(c)));
            w = get_buffer_wrapper(buffer->second, readers);
        } else {
            w = get_wrapper(wrapped, callers, callers.empty(), clone);
        }
        funcs_[id.text] = w;
    }

    void rfactor_statement() {
        Token id = next();
        if (id.kind != Token::Ident) fail("expected the name of the Func rfactor() makes");
        expect("=");
        Token head = next();
        if (pos_ + 1 < toks_.size() && peek().text == "." &&
            (toks_[pos_ + 1].text == "in" || toks_[pos_ + 1].text == "clone_in")) {
            next();
            wrapper_statement(id, strip_loom(head.text));
            return;
        }
        Function function = func_named(strip_loom(head.text));
        int stage = 1;
        while (true) {
            expect(".");
            Token method = next();
            if (method.kind != Token::Ident) fail("expected a schedule call");
            expect("(");
            const std::string &m = method.text;
            if (m == "rfactor") {
                if (function.updates().empty())
                    fail("Func " + function.name() + " has no update to rfactor");
                start_update(function, stage);
                // The name may be taken only by an intermediate that an
                // update put back by this source had made.
                if (funcs_.count(id.text) && !released_.count(id.text))
                    fail("the pipeline already has a Func " + id.text +
                         "; name rfactor's intermediate otherwise");
                std::vector<std::pair<RVar, Var>> preserved = rfactor_args();
                Func intm = rfactor_stage(function, stage, preserved, id.text);
                funcs_[id.text] = intm.function();
                break;
            }
            std::vector<Arg> args = call_args();
            if (m == "update") {
                if (args.size() > 1 || (args.size() == 1 && args[0].kind != Arg::Number))
                    fail("update() takes the index of an update definition");
                stage = 1 + int(args.empty() ? 0 : args[0].number);
                if (stage < 1 || stage > int(function.updates().size()))
                    fail("Func " + function.name() + " has " +
                         std::to_string(function.updates().size()) + " update definitions");
                continue;
            }
            if (function.updates().empty())
                fail("Func " + function.name() + " has no update to rfactor");
            start_update(function, stage);
            Stage st(function, stage);
            if (!stage_call(st, m, args)) fail("unknown schedule call " + m + " before rfactor");
        }
        expect(";");
    }

    void statement() {
        Token head = next();
        std::string h = strip_loom(head.text);
        if (head.kind == Token::Punct && (h == "{" || h == "}" || h == ";")) return;
        if (head.kind != Token::Ident) fail("expected a Func");
        if (h == "using") {
            while (peek().text != ";" && peek().kind != Token::End) next();
            expect(";");
            return;
        }
        if (h == "Var" || h == "RVar") {
            declaration(h == "RVar");
            return;
        }
        if (h == "Func") {
            rfactor_statement();
            return;
        }
        Function function = func_named(h);
        Func f(function);
        int stage = 0;
        while (peek().text == ".") {
            next();
            Token method = next();
            if (method.kind != Token::Ident) fail("expected a schedule call");
            expect("(");
            std::vector<Arg> args = call_args();
            const std::string &m = method.text;
            if (m == "update") {
                if (stage != 0 || args.size() > 1 ||
                    (args.size() == 1 && args[0].kind != Arg::Number))
                    fail("update() takes the index of an update definition");
                stage = 1 + int(args.empty() ? 0 : args[0].number);
                int updates = int(function.updates().size());
                if (stage > updates)
                    fail("Func " + function.name() + " has " + std::to_string(updates) +
                         " update definitions");
                continue;
            }
            if (stage > 0) start_update(function, stage);
            Stage st(function, stage);
            if (stage_call(st, m, args)) continue;
            if (stage == 0 && func_call(f, m, args)) continue;
            fail("unknown schedule call " + m + (stage ? " on an update" : ""));
        }
        expect(";");
    }

public:
    SourceReader(const Pipeline &p, const std::string &src) : pipeline_(p), toks_(tokenize(src)) {
        std::vector<Function> funcs = pipeline_functions(p);
        for (const Function &f : funcs) funcs_[identifier(f.name())] = f;
        for (const auto &kv : scalar_params_of(funcs)) params_[identifier(kv.first)] = kv.second;
        for (const auto &[name, p] : all_params_of(funcs))
            if (p.is_buffer() && p.image_func())
                images_[identifier(name)] = Function(p.image_func());
        for (const auto &[name, b] : buffers_read_by(funcs)) buffers_[identifier(name)] = b;
        // Funcs the pipeline's wrappers wrap, which it may no longer call.
        for (const Function &f : funcs)
            for (Function w = f; w.is_wrapper();) {
                w = w.wrapped();
                funcs_.emplace(identifier(w.name()), w);
            }
    }
    void run() {
        while (peek().kind != Token::End) statement();
    }
};

} // namespace

std::string PipelineSchedule::to_cpp() const {
    return CppPrinter().print(*this);
}

void PipelineSchedule::apply_source(const Pipeline &pipeline, const std::string &source) {
    // All or nothing: a failing call leaves the pipeline as it was.
    PipelineSchedule before = PipelineSchedule::of(pipeline);
    try {
        SourceReader(pipeline, source).run();
    } catch (...) {
        before.apply(pipeline);
        throw;
    }
}

} // namespace loom
