#include "lower/InferArguments.h"

#include <algorithm>
#include <set>

#include "ir/Error.h"
#include "ir/IRUtil.h"

namespace loom {
namespace Internal {

namespace {

LoweredArgument input_buffer(const std::string &name, Type t, int dims, const Parameter &param,
                             const Buffer<> &image) {
    LoweredArgument a;
    a.name = name;
    a.kind = LoweredArgument::InputBuffer;
    a.type = t;
    a.dimensions = dims;
    a.param = param;
    a.buffer = image;
    return a;
}

void check_same_kind(const LoweredArgument &seen, const LoweredArgument &a) {
    if (seen.is_buffer() != a.is_buffer() || seen.type != a.type ||
        seen.dimensions != a.dimensions ||
        (a.param.defined() && seen.param.defined() && !a.param.same_as(seen.param)) ||
        (a.buffer.defined() && seen.buffer.defined() && !a.buffer.same_as(seen.buffer))) {
        user_error("The pipeline reads two different inputs named "
                   << a.name << "; give them distinct names");
    }
}

std::string kind_words(bool is_buffer, Type t, int dims) {
    if (!is_buffer) return "a scalar of type " + type_to_string(t);
    return "a " + std::to_string(dims) + "-dimensional buffer of " + type_to_string(t);
}

void check_listed_matches(const Argument &listed, const LoweredArgument &read) {
    if (listed.name_only) return;
    if (listed.is_output()) {
        user_error("Argument " << listed.name << " is listed as an output buffer, but it names an "
                               << "input of the pipeline");
    }
    bool same = listed.is_buffer() == read.is_buffer() && listed.type == read.type &&
                (!listed.is_buffer() || listed.dimensions == read.dimensions);
    if (!same) {
        user_error("Argument " << listed.name << " is listed as "
                               << kind_words(listed.is_buffer(), listed.type, listed.dimensions)
                               << ", but the pipeline reads it as "
                               << kind_words(read.is_buffer(), read.type, read.dimensions));
    }
}

LoweredArgument unread_argument(const Argument &listed) {
    if (listed.is_output()) {
        user_error("Argument " << listed.name << " is listed as an output buffer, but no output "
                               << "Func of the pipeline writes a buffer of that name");
    }
    if (listed.type.is_void() || listed.type.lanes != 1) {
        user_error("Argument " << listed.name << " needs a scalar element type, not "
                               << type_to_string(listed.type));
    }
    if (listed.is_buffer() && listed.dimensions < 0) {
        user_error("Argument " << listed.name << " has " << listed.dimensions
                               << " dimensions; a buffer has 0 or more");
    }
    LoweredArgument a;
    a.name = listed.name;
    a.kind = listed.is_buffer() ? LoweredArgument::InputBuffer : LoweredArgument::InputScalar;
    a.type = listed.type;
    a.dimensions = listed.is_buffer() ? listed.dimensions : 0;
    return a;
}

} // namespace

std::vector<LoweredArgument> add_unread_arguments(const std::vector<LoweredArgument> &args,
                                                  const std::vector<Argument> &listed) {
    std::vector<LoweredArgument> result;
    std::vector<bool> taken(args.size(), false);
    std::set<std::string> placed;
    for (const Argument &l : listed) {
        if (l.name.empty() || !placed.insert(l.name).second) continue;
        bool found = false;
        for (size_t i = 0; i < args.size(); i++) {
            if (args[i].name != l.name) continue;
            found = true;
            // Output buffers always follow the inputs; listing one places nothing.
            if (args[i].kind == LoweredArgument::OutputBuffer) break;
            check_listed_matches(l, args[i]);
            result.push_back(args[i]);
            taken[i] = true;
            break;
        }
        if (!found && !l.name_only) result.push_back(unread_argument(l));
    }
    for (size_t i = 0; i < args.size(); i++) {
        if (!taken[i]) result.push_back(args[i]);
    }
    return result;
}

std::vector<LoweredArgument> infer_arguments(const Stmt &s, const std::vector<Function> &outputs,
                                             const std::vector<Argument> &listed) {
    std::vector<std::string> order;
    for (const Argument &a : listed) order.push_back(a.name);
    std::vector<LoweredArgument> inputs;
    auto is_output_parameter = [&](const Parameter &p) {
        for (const Function &f : outputs)
            for (const Parameter &q : f.output_buffers())
                if (q.same_as(p)) return true;
        return false;
    };
    auto add_input = [&](const LoweredArgument &a) {
        for (const LoweredArgument &seen : inputs) {
            if (seen.name == a.name) {
                check_same_kind(seen, a);
                return;
            }
        }
        inputs.push_back(a);
    };
    auto visit = [&](const IRNode *node) {
        if (node->node_type == IRNodeType::Call) {
            const auto *call = static_cast<const Call *>(node);
            if (call->call_type != Call::Image) return;
            add_input(input_buffer(call->name, call->type, int(call->args.size()), call->param,
                                   call->image));
        } else if (node->node_type == IRNodeType::Variable) {
            const auto *var = static_cast<const Variable *>(node);
            if (!var->param.defined()) return;
            if (var->param.is_buffer()) {
                // A field of an ImageParam (in.width(), in.dim(1).min()) used
                // where the pipeline reads none of its elements still makes
                // it an argument; an output's own fields are not inputs.
                const Parameter &p = var->param;
                if (!is_output_parameter(p))
                    add_input(input_buffer(p.name(), p.type(), p.dimensions(), p, Buffer<>()));
                return;
            }
            LoweredArgument a;
            a.name = var->name;
            a.kind = LoweredArgument::InputScalar;
            a.type = var->type;
            a.param = var->param;
            add_input(a);
        }
    };
    visit_all(s, visit);
    // The checks lowering adds read the constraints of buffer arguments and
    // the ranges of scalar ones: what those use is an argument too.
    auto visit_constraints = [&](const Parameter &p) {
        if (!p.defined()) return;
        if (p.is_buffer()) {
            for (int d = 0; d < p.dimensions(); d++) {
                const BufferConstraint &c = p.constraint(d);
                for (const Expr &e : {c.min, c.extent, c.stride})
                    if (e.defined()) visit_all(e, visit);
            }
        } else {
            if (p.min_value().defined()) visit_all(p.min_value(), visit);
            if (p.max_value().defined()) visit_all(p.max_value(), visit);
        }
    };
    for (const Function &f : outputs)
        for (const Parameter &p : f.output_buffers()) visit_constraints(p);
    for (size_t i = 0; i < inputs.size(); i++) { // inputs may grow meanwhile
        Parameter p = inputs[i].param;
        visit_constraints(p);
    }

    if (!order.empty()) {
        auto rank = [&](const LoweredArgument &a) {
            auto it = std::find(order.begin(), order.end(), a.name);
            return it == order.end() ? order.size() : size_t(it - order.begin());
        };
        std::stable_sort(
            inputs.begin(), inputs.end(),
            [&](const LoweredArgument &a, const LoweredArgument &b) { return rank(a) < rank(b); });
    }

    std::vector<LoweredArgument> args = inputs;
    for (const Function &f : outputs) {
        for (int v = 0; v < f.outputs(); v++) {
            LoweredArgument a;
            a.name = buffer_name(f, v);
            a.kind = LoweredArgument::OutputBuffer;
            a.type = f.output_types()[size_t(v)];
            a.dimensions = f.dimensions();
            // The frontend's output buffer parameter carries output_buffer() constraints.
            if (size_t(v) < f.output_buffers().size()) a.param = f.output_buffers()[size_t(v)];
            for (const LoweredArgument &in : inputs) {
                if (in.name == a.name) {
                    user_error("Output Func " << f.name() << " has the same name as an input of "
                                              << "the pipeline; give them distinct names");
                }
            }
            args.push_back(a);
        }
    }
    return args;
}

} // namespace Internal
} // namespace loom
