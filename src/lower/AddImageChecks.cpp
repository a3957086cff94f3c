#include "lower/AddImageChecks.h"

#include <climits>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>

#include "analysis/Simplify.h"
#include "ir/IRMutator.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "ir/IRUtil.h"
#include "ir/Substitute.h"
#include "lower/BoundsInference.h"
#include "lower/LowerUtil.h"
#include "lower/UnpackBuffers.h"

namespace loom {
namespace Internal {

namespace {

Expr runtime_error(const std::string &function, std::vector<Expr> args) {
    args.insert(args.begin(), user_context_var());
    return Call::make(Int(32), function, args, Call::Extern);
}

Expr str(const std::string &s) {
    return StringImm::make(s);
}

Expr buffer_field(const LoweredArgument &arg, Intrinsic op) {
    return Call::make(Int(32), op, {buffer_handle(arg)}, Call::PureIntrinsic);
}

std::string dim_field(const std::string &buffer, const char *field, int d) {
    return buffer + "." + field + "." + std::to_string(d);
}

/** Null, dimension, type and dim-pointer checks: they guard every read of the buffer's fields. */
void add_shape_checks(const LoweredArgument &arg, std::vector<Stmt> &checks) {
    Expr handle = buffer_handle(arg);
    Expr not_null = NE::make(Reinterpret::make(UInt(64), handle), make_zero(UInt(64)));
    checks.push_back(AssertStmt::make(
        not_null, runtime_error("loom_error_buffer_argument_is_null", {str(arg.name)})));

    Expr dims = buffer_field(arg, Intrinsic::buffer_get_dimensions);
    Expr expected_dims = make_const(Int(32), arg.dimensions);
    checks.push_back(AssertStmt::make(
        EQ::make(dims, expected_dims),
        runtime_error("loom_error_bad_dimensions", {str(arg.name), dims, expected_dims})));

    Expr code = buffer_field(arg, Intrinsic::buffer_get_type_code);
    Expr bits = buffer_field(arg, Intrinsic::buffer_get_type_bits);
    Expr lanes = buffer_field(arg, Intrinsic::buffer_get_type_lanes);
    Expr want_code = make_const(Int(32), int(arg.type.code));
    Expr want_bits = make_const(Int(32), int(arg.type.bits));
    Expr want_lanes = make_const(Int(32), int(arg.type.lanes));
    Expr same_type = And::make(And::make(EQ::make(code, want_code), EQ::make(bits, want_bits)),
                               EQ::make(lanes, want_lanes));
    checks.push_back(AssertStmt::make(
        same_type, runtime_error("loom_error_bad_type", {str(arg.name), code, bits, lanes,
                                                         want_code, want_bits, want_lanes})));
    if (arg.dimensions > 0) {
        // The dimension fields are read through buffer->dim (a C caller may leave it NULL).
        Expr dim_is_null = Call::make(Int(32), "loom_buffer_dim_is_null",
                                      {user_context_var(), handle}, Call::Extern);
        checks.push_back(AssertStmt::make(
            EQ::make(dim_is_null, make_zero(Int(32))),
            runtime_error("loom_error_buffer_dim_is_null", {str(arg.name), dims})));
    }
}

/** The 64-bit twin of the Int(32) let `name` (see widen_lets): checks
 * read buffer fields and required regions through these, so that their
 * messages repeat variables rather than casts (which CSE would lift). */
std::string wide_name(const std::string &name) {
    return name + ".i64";
}

Expr wide_var(const std::string &name) {
    return Variable::make(Int(64), wide_name(name));
}

/** The buffer covers [req_min, req_max] in dimension d (the required
 * region's lets, named here, evaluated in 64 bits: an index such as x + p
 * with a huge p wraps in 32 bits and would pass a 32-bit check). */
Stmt region_check(const std::string &func, const std::string &buffer, int d,
                  const std::string &req_min, const std::string &req_max) {
    Expr actual_min = wide_var(dim_field(buffer, "min", d));
    Expr actual_max = Sub::make(Add::make(actual_min, wide_var(dim_field(buffer, "extent", d))),
                                make_one(Int(64)));
    Expr lo = wide_var(req_min), hi = wide_var(req_max);
    Expr covered = And::make(GE::make(lo, actual_min), LE::make(hi, actual_max));
    return AssertStmt::make(covered, runtime_error("loom_error_buffer_too_small",
                                                   {str(func), str(buffer), make_const(Int(32), d),
                                                    lo, hi, actual_min, actual_max}));
}

/** Extents are at least 0, and coordinates are Int(32): the buffer's last
 * coordinate min + extent - 1 must not pass 2^31 - 1, or loops over it wrap. */
void add_coordinate_checks(const LoweredArgument &arg, std::vector<Stmt> &checks) {
    for (int d = 0; d < arg.dimensions; d++) {
        Expr min = int_var(dim_field(arg.name, "min", d));
        Expr extent = int_var(dim_field(arg.name, "extent", d));
        Expr last = Sub::make(Add::make(wide_var(dim_field(arg.name, "min", d)),
                                        wide_var(dim_field(arg.name, "extent", d))),
                              make_one(Int(64)));
        Expr ok = And::make(GE::make(extent, make_zero(Int(32))),
                            LE::make(last, make_const(Int(64), INT32_MAX)));
        checks.push_back(AssertStmt::make(
            ok, runtime_error("loom_error_buffer_bad_extent",
                              {str(arg.name), make_const(Int(32), d), min, extent})));
    }
}

/** e, an Int(32) expression over lets, evaluated in Int(64): arithmetic is
 * rebuilt at 64 bits and the lets in `wide` are read through their twins;
 * anything else is a 32-bit value, widened. */
Expr widen(const Expr &e, const std::set<std::string> &wide) {
    if (e.type() != Int(32)) return Cast::make(Int(64), e);
    if (const auto *imm = e.as<IntImm>()) return make_const(Int(64), imm->value);
    if (const auto *v = e.as<Variable>())
        return wide.count(v->name) ? wide_var(v->name) : Cast::make(Int(64), e);
    if (const auto *op = e.as<Add>()) return Add::make(widen(op->a, wide), widen(op->b, wide));
    if (const auto *op = e.as<Sub>()) return Sub::make(widen(op->a, wide), widen(op->b, wide));
    if (const auto *op = e.as<Mul>()) return Mul::make(widen(op->a, wide), widen(op->b, wide));
    if (const auto *op = e.as<Div>()) return Div::make(widen(op->a, wide), widen(op->b, wide));
    if (const auto *op = e.as<Mod>()) return Mod::make(widen(op->a, wide), widen(op->b, wide));
    if (const auto *op = e.as<Min>()) return Min::make(widen(op->a, wide), widen(op->b, wide));
    if (const auto *op = e.as<Max>()) return Max::make(widen(op->a, wide), widen(op->b, wide));
    if (const auto *op = e.as<Select>())
        return Select::make(op->condition, widen(op->true_value, wide),
                            widen(op->false_value, wide));
    return Cast::make(Int(64), e);
}

/** LetStmts defining the 64-bit twins of the leading lets `needed` reaches
 * (the required regions and what they are computed from), in order;
 * buffer fields (calls) stay 32-bit values. */
std::vector<std::pair<std::string, Expr>> widen_lets(const std::vector<const LetStmt *> &lets,
                                                     const std::set<std::string> &roots) {
    std::set<std::string> needed = roots;
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
        if (!needed.count((*it)->name)) continue;
        for (const std::string &v : free_variables((*it)->value)) needed.insert(v);
    }
    std::set<std::string> wide;
    std::vector<std::pair<std::string, Expr>> twins;
    for (const LetStmt *let : lets) {
        if (!needed.count(let->name) || let->value.type() != Int(32)) continue;
        Expr value = let->value.as<Call>() ? Cast::make(Int(64), Variable::make(Int(32), let->name))
                                           : widen(let->value, wide);
        wide.insert(let->name);
        twins.emplace_back(wide_name(let->name), value);
    }
    // A root no leading let defines is read as it is.
    for (const std::string &r : roots)
        if (!wide.count(r))
            twins.emplace_back(wide_name(r), Cast::make(Int(64), Variable::make(Int(32), r)));
    return twins;
}

/** An output with bound(x, min, extent) or bound_extent(x, extent) must be
 * exactly that region. Checked before the region checks, so the message
 * names the bound rather than a buffer that is merely too small. */
void add_output_bound_checks(const Function &f, const std::string &buffer,
                             std::vector<Stmt> &checks) {
    for (const Bound &b : f.schedule().bounds) {
        if (!b.extent.defined()) continue;
        for (size_t d = 0; d < f.args().size(); d++) {
            if (f.args()[d] != b.var) continue;
            Expr actual_min = int_var(dim_field(buffer, "min", int(d)));
            Expr actual_extent = int_var(dim_field(buffer, "extent", int(d)));
            Expr want_min = b.min.defined() ? as_int32(b.min) : actual_min;
            Expr want_extent = as_int32(b.extent);
            std::ostringstream text;
            if (b.min.defined()) {
                text << "bound(" << b.var << ", " << b.min << ", " << b.extent << ")";
            } else {
                text << "bound_extent(" << b.var << ", " << b.extent << ")";
            }
            Expr exact =
                And::make(EQ::make(actual_min, want_min), EQ::make(actual_extent, want_extent));
            Expr one = make_const(Int(32), 1);
            checks.push_back(AssertStmt::make(
                exact, runtime_error("loom_error_bound_violated",
                                     {str(f.name()), str(text.str()), make_const(Int(32), int(d)),
                                      want_min, sub(add(want_min, want_extent), one), actual_min,
                                      sub(add(actual_min, actual_extent), one), one})));
        }
    }
}

/** Dimension 0's stride: the user's constraint or the default of 1, which
 * unpack_buffers already assumed in the body. */
void add_innermost_stride_check(const LoweredArgument &arg, std::vector<Stmt> &checks) {
    Expr required = innermost_stride_constraint(arg);
    if (!required.defined()) return;
    bool user_set = arg.param.defined() && arg.param.is_buffer() && arg.param.dimensions() > 0 &&
                    arg.param.constraint(0).stride.defined();
    Expr actual = int_var(dim_field(arg.name, "stride", 0));
    Expr want = as_int32(required);
    std::string text = to_string(required);
    if (!user_set) {
        text += " (buffers are dense in dimension 0 by default; " +
                std::string(arg.param.defined() ? "call " + arg.name +
                                                      ".dim(0).set_stride(Expr()) to allow "
                                                      "other strides"
                                                : "pass a buffer with stride 1") +
                ")";
    }
    std::string what = arg.name + ".dim(0).stride()";
    checks.push_back(AssertStmt::make(
        EQ::make(actual, want),
        runtime_error("loom_error_constraint_violated", {str(what), actual, str(text), want})));
}

/** Generated code addresses a buffer with 32-bit element offsets from its
 * mins (64-bit with large_buffers): the farthest element must be within
 * 2^31 - 1 of the nearest (2^62 - 1 with large_buffers, which no machine's
 * memory reaches), or the offsets wrap and reach memory outside the
 * buffer. Computed in 64 bits; each dimension's reach (below 2^62) is
 * capped at 2^40, so the sum cannot wrap. With large_buffers, the reaches
 * are capped at the maximum and the running sum saturates just past it. */
void add_span_check(const LoweredArgument &arg, bool large_buffers, std::vector<Stmt> &checks) {
    if (arg.dimensions == 0) return;
    Expr zero = make_zero(Int(64)), one = make_one(Int(64));
    Expr max = make_const(Int(64), large_buffers ? INT64_MAX / 2 : INT32_MAX);
    Expr cap = large_buffers ? max : make_const(Int(64), int64_t(1) << 40);
    Expr span = one;
    for (int d = 0; d < arg.dimensions; d++) {
        Expr extent = wide_var(dim_field(arg.name, "extent", d));
        Expr stride = wide_var(dim_field(arg.name, "stride", d));
        Expr steps = Max::make(Sub::make(extent, one), zero);
        Expr reach = Mul::make(steps, Max::make(stride, Sub::make(zero, stride)));
        span = Add::make(span, Min::make(reach, cap));
        if (large_buffers) span = Min::make(span, Add::make(max, one));
    }
    checks.push_back(
        AssertStmt::make(LE::make(span, max), runtime_error("loom_error_buffer_extents_too_large",
                                                            {str(arg.name), span, max})));
}

void add_constraint_checks(const LoweredArgument &arg, std::vector<Stmt> &checks) {
    if (arg.is_buffer()) add_innermost_stride_check(arg, checks);
    if (!arg.param.defined() || !arg.param.is_buffer()) return;
    for (int d = 0; d < arg.dimensions && d < arg.param.dimensions(); d++) {
        const BufferConstraint &c = arg.param.constraint(d);
        const std::pair<const char *, Expr> fields[] = {
            {"min", c.min}, {"extent", c.extent}, {"stride", c.stride}};
        for (const auto &[field, required] : fields) {
            if (!required.defined()) continue;
            if (d == 0 && std::string(field) == "stride") continue; // checked above
            Expr actual = int_var(dim_field(arg.name, field, d));
            Expr want = as_int32(required);
            std::string what = arg.name + ".dim(" + std::to_string(d) + ")." + field + "()";
            checks.push_back(AssertStmt::make(
                EQ::make(actual, want),
                runtime_error("loom_error_constraint_violated",
                              {str(what), actual, str(to_string(required)), want})));
        }
    }
}

void add_param_range_checks(const LoweredArgument &arg, std::vector<Stmt> &checks) {
    if (!arg.param.defined() || arg.is_buffer()) return;
    Expr value = Variable::make(arg.type, arg.name, arg.param);
    bool is_float = arg.type.is_float();
    Type wide = is_float ? Float(64) : Int(64);
    auto widen = [&](const Expr &e) { return e.type() == wide ? e : Cast::make(wide, e); };
    auto bound = [&](const Expr &e) { return e.type() == arg.type ? e : Cast::make(arg.type, e); };
    const char *suffix = is_float ? "_f64" : "_i64";
    if (arg.param.min_value().defined()) {
        Expr lo = bound(arg.param.min_value());
        checks.push_back(AssertStmt::make(
            GE::make(value, lo), runtime_error(std::string("loom_error_param_too_small") + suffix,
                                               {str(arg.name), widen(value), widen(lo)})));
    }
    if (arg.param.max_value().defined()) {
        Expr hi = bound(arg.param.max_value());
        checks.push_back(AssertStmt::make(
            LE::make(value, hi), runtime_error(std::string("loom_error_param_too_large") + suffix,
                                               {str(arg.name), widen(value), widen(hi)})));
    }
}

Expr host_is_null(const LoweredArgument &arg) {
    Expr host =
        Call::make(Handle(), Intrinsic::buffer_get_host, {buffer_handle(arg)}, Call::PureIntrinsic);
    return EQ::make(Reinterpret::make(UInt(64), host), make_zero(UInt(64)));
}

/** Bounds-query mode, as in Halide: a buffer argument without host memory
 * asks which region the pipeline needs of it. When any buffer does, the
 * pipeline writes the required region (with dense strides) into each such
 * buffer and returns without computing. Sets *is_query to that condition;
 * undefined when there are no buffers. */
Stmt bounds_query(const std::vector<LoweredArgument> &args, const std::set<std::string> &has_region,
                  Expr *is_query) {
    std::vector<Expr> conditions;
    std::vector<Stmt> answers;
    for (const LoweredArgument &arg : args) {
        if (!arg.is_buffer()) continue;
        Expr unallocated = host_is_null(arg);
        *is_query = is_query->defined() ? Or::make(*is_query, unallocated) : unallocated;
        std::vector<Stmt> dims;
        for (int d = 0; d < arg.dimensions; d++) {
            // The region needed (none for an input only the shape of which
            // is used), or what the buffer's constraints demand.
            bool read = has_region.count(arg.name) > 0;
            Expr min = read ? int_var(required_min_name(arg.name, d)) : make_zero(Int(32));
            Expr max = read ? int_var(required_max_name(arg.name, d)) : make_const(Int(32), -1);
            if (arg.param.defined() && arg.param.is_buffer() && d < arg.param.dimensions()) {
                const BufferConstraint &c = arg.param.constraint(d);
                if (c.min.defined()) min = as_int32(c.min);
                if (c.extent.defined()) max = sub(add(min, as_int32(c.extent)), 1);
            }
            Expr extent = add(sub(max, min), 1);
            dims.push_back(Evaluate::make(Call::make(
                Int(32), "loom_bounds_query_set_dim",
                {user_context_var(), buffer_handle(arg), make_const(Int(32), d), min, extent},
                Call::Extern)));
        }
        conditions.push_back(unallocated);
        answers.push_back(Block::make(dims));
    }
    // With several buffers, each answers only when it is unallocated.
    for (size_t i = 0; answers.size() > 1 && i < answers.size(); i++) {
        if (answers[i].defined()) answers[i] = IfThenElse::make(conditions[i], answers[i]);
    }
    Stmt answer = Block::make(answers);
    // Zero-dimensional buffers have no region to answer.
    return answer.defined() ? answer : Evaluate::make(make_zero(Int(32)));
}

/** int64(v) of an Int(32) Variable v as an Int(64) Variable of its own, for
 * proofs only: the simplifier orders variables but not casts, so it would
 * not see that int64(a) + int64(b) equals int64(b) + int64(a). */
class WidenedVarsAsVars : public IRMutator {
protected:
    using IRMutator::visit;
    Expr visit(const Cast *op) override {
        const auto *v = op->value.as<Variable>();
        if (op->type == Int(64) && v && v->type == Int(32))
            return Variable::make(Int(64), v->name + ".as_i64");
        return IRMutator::visit(op);
    }
};

/** Whether every output buffer has an extent of 0 (or less) in some
 * dimension; undefined when some output has no dimensions. */
Expr every_output_empty(const std::vector<LoweredArgument> &args) {
    Expr all;
    for (const LoweredArgument &arg : args) {
        if (arg.kind != LoweredArgument::OutputBuffer) continue;
        if (arg.dimensions == 0) return Expr();
        Expr empty;
        for (int d = 0; d < arg.dimensions; d++) {
            Expr e = LE::make(int_var(dim_field(arg.name, "extent", d)), make_zero(Int(32)));
            empty = empty.defined() ? Or::make(empty, e) : e;
        }
        all = all.defined() ? And::make(all, empty) : empty;
    }
    return all;
}

/** The checks inside the leading lets: `first` always, then, unless
 * `nothing_to_do` (every output empty; undefined: never), `then` and the
 * pipeline. `wide_roots` are the lets the region checks read in 64 bits. */
struct ChecksToPlace {
    std::vector<Stmt> first, then;
    Expr nothing_to_do;
    std::set<std::string> wide_roots;
};

/** Puts `checks` after the leading LetStmts of s, where every field and
 * bound they use is defined, dropping those the lets make provably true
 * (an output written exactly over its buffer, for instance). With a bounds
 * query, the checks and s run only when it is not one. */
Stmt insert_after_leading_lets(const Stmt &s, const ChecksToPlace &place, const Stmt &query,
                               const Expr &is_query, std::vector<const LetStmt *> &lets) {
    if (const auto *let = s.as<LetStmt>()) {
        lets.push_back(let);
        Stmt body = insert_after_leading_lets(let->body, place, query, is_query, lets);
        return LetStmt::make(let->name, let->value, body);
    }
    std::vector<std::pair<std::string, Expr>> twins = widen_lets(lets, place.wide_roots);
    // The twins and the leading lets, substituted into each check through
    // one map (one substitution per let per check cost N^2 with N outputs).
    // Buffer fields stay symbolic: the simplifier reasons best about Variables.
    std::map<std::string, Expr> values(twins.begin(), twins.end());
    for (const LetStmt *let : lets)
        if (!let->value.as<Call>()) values[let->name] = let->value;
    auto unproven = [&](const std::vector<Stmt> &checks) {
        std::vector<Stmt> kept;
        for (const Stmt &check : checks) {
            Expr condition = substitute_through(values, check.as<AssertStmt>()->condition);
            if (!can_prove(WidenedVarsAsVars().mutate(condition))) kept.push_back(check);
        }
        return kept;
    };
    std::vector<Stmt> stmts = unproven(place.first), rest = unproven(place.then);
    rest.push_back(s);
    Stmt work = Block::make(rest);
    // With every output empty nothing is computed (the regions bounds
    // inference gives empty loops are not meaningful), and nothing is read.
    if (place.nothing_to_do.defined())
        work = IfThenElse::make(Not::make(place.nothing_to_do), work);
    stmts.push_back(work);
    Stmt run = Block::make(stmts);
    for (auto it = twins.rbegin(); it != twins.rend(); ++it)
        run = LetStmt::make(it->first, it->second, run);
    if (!is_query.defined()) return run;
    return IfThenElse::make(is_query, query, run);
}

} // namespace

Stmt add_image_checks(const Stmt &s, const std::vector<LoweredArgument> &args,
                      const std::vector<Function> &outputs,
                      const std::map<std::string, std::string> &readers, const Target &target,
                      const std::vector<Stmt> &first_checks) {
    bool checks = !target.has_feature(Target::NoAsserts);
    bool query = !target.has_feature(Target::NoBoundsQuery);
    if (!checks && !query) return s;

    std::map<std::string, std::string> blame = readers;
    for (const Function &f : outputs) {
        for (int v = 0; v < f.outputs(); v++) blame[buffer_name(f, v)] = f.name();
    }

    // Buffers whose region bounds inference found: all but the inputs of
    // which the pipeline uses only the shape (in.width()).
    std::set<std::string> has_region;
    for (const LoweredArgument &arg : args)
        if (arg.kind == LoweredArgument::OutputBuffer) has_region.insert(arg.name);
    std::map<std::string, std::string> region_lets; // required min of dimension 0 -> buffer
    for (const LoweredArgument &arg : args) {
        if (!arg.is_buffer()) continue;
        if (arg.dimensions == 0) {
            has_region.insert(arg.name);
        } else {
            region_lets[required_min_name(arg.name, 0)] = arg.name;
        }
    }
    visit_all(s, [&](const IRNode *n) {
        if (n->node_type != IRNodeType::LetStmt) return;
        auto it = region_lets.find(static_cast<const LetStmt *>(n)->name);
        if (it != region_lets.end()) has_region.insert(it->second);
    });

    std::vector<Stmt> shape_checks;
    ChecksToPlace place;
    if (checks) place.first = first_checks;
    std::vector<Stmt> &inner_checks = place.then;
    for (const Function &f : checks ? outputs : std::vector<Function>()) {
        for (const LoweredArgument &arg : args) {
            if (arg.is_buffer() && arg.name == buffer_name(f, 0))
                add_output_bound_checks(f, arg.name, place.first);
        }
    }
    for (const LoweredArgument &arg : checks ? args : std::vector<LoweredArgument>()) {
        if (arg.is_buffer()) {
            for (int d = 0; d < arg.dimensions; d++)
                for (const char *field : {"min", "extent", "stride"})
                    place.wide_roots.insert(dim_field(arg.name, field, d));
            add_shape_checks(arg, shape_checks);
            add_coordinate_checks(arg, place.first);
            add_span_check(arg, target.has_feature(Target::LargeBuffers), place.first);
        }
        add_param_range_checks(arg, place.first);
        add_constraint_checks(arg, inner_checks);

        if (arg.is_buffer() && has_region.count(arg.name)) {
            // Inputs must cover what the pipeline reads; outputs what its loops
            // write, which split tails may make larger than the output.
            auto blamed = blame.find(arg.name);
            std::string func = blamed == blame.end() ? std::string("?") : blamed->second;
            for (int d = 0; d < arg.dimensions; d++) {
                place.wide_roots.insert(required_min_name(arg.name, d));
                place.wide_roots.insert(required_max_name(arg.name, d));
                inner_checks.push_back(region_check(func, arg.name, d,
                                                    required_min_name(arg.name, d),
                                                    required_max_name(arg.name, d)));
            }
        }
    }
    if (checks) place.nothing_to_do = every_output_empty(args);
    Expr is_query;
    Stmt query_answer = query ? bounds_query(args, has_region, &is_query) : Stmt();
    std::vector<const LetStmt *> lets;
    Stmt body = place.first.empty() && place.then.empty() && !is_query.defined()
                    ? s
                    : insert_after_leading_lets(s, place, query_answer, is_query, lets);
    shape_checks.push_back(body);
    return Block::make(shape_checks);
}

} // namespace Internal
} // namespace loom
