#include "ir/IR.h"

#include "ir/Error.h"
#include "ir/IROperator.h"
#include "ir/IRPrinter.h"
#include "ir/IRVisitor.h"

namespace loom {
namespace Internal {

namespace {

void check_defined(const Expr &e, const char *node, const char *what) {
    internal_assert(e.defined(), node << " of undefined " << what);
}

// Sign-extends the low `bits` bits of v.
int64_t wrap_signed(int64_t v, int bits) {
    if (bits >= 64) return v;
    uint64_t shift = uint64_t(64 - bits);
    return int64_t(uint64_t(v) << shift) >> shift;
}

uint64_t mask_unsigned(uint64_t v, int bits) {
    if (bits >= 64) return v;
    return v & ((uint64_t(1) << bits) - 1);
}

bool is_comparison(IRNodeType t) {
    return t == IRNodeType::EQ || t == IRNodeType::NE || t == IRNodeType::LT ||
           t == IRNodeType::LE || t == IRNodeType::GT || t == IRNodeType::GE;
}

bool is_logical(IRNodeType t) {
    return t == IRNodeType::And || t == IRNodeType::Or;
}

} // namespace

const IntImm *IntImm::make(Type t, int64_t value) {
    internal_assert(t.is_int() && t.is_scalar(), "IntImm of non-int type " << t);
    auto *n = new IntImm;
    n->type = t;
    n->value = wrap_signed(value, t.bits);
    return n;
}

const UIntImm *UIntImm::make(Type t, uint64_t value) {
    internal_assert(t.is_uint() && t.is_scalar(), "UIntImm of non-uint type " << t);
    auto *n = new UIntImm;
    n->type = t;
    n->value = mask_unsigned(value, t.bits);
    return n;
}

const FloatImm *FloatImm::make(Type t, double value) {
    internal_assert(t.is_float() && t.is_scalar(), "FloatImm of non-float type " << t);
    auto *n = new FloatImm;
    n->type = t;
    // The constant holds exactly the value the type can: rounded once, to nearest even.
    if (t.is_bfloat()) {
        n->value = double(bfloat16_t(value));
    } else if (t.bits == 16) {
        n->value = double(float16_t(value));
    } else {
        n->value = t.bits == 64 ? value : double(float(value));
    }
    return n;
}

const StringImm *StringImm::make(const std::string &value) {
    auto *n = new StringImm;
    n->type = Handle();
    n->value = value;
    return n;
}

const BaseExprNode *make_int_imm_node(Type t, int64_t v) {
    return IntImm::make(t, v);
}
const BaseExprNode *make_uint_imm_node(Type t, uint64_t v) {
    return UIntImm::make(t, v);
}
const BaseExprNode *make_float_imm_node(Type t, double v) {
    return FloatImm::make(t, v);
}

Expr Cast::make(Type t, Expr v) {
    check_defined(v, "Cast", "value");
    internal_assert(t.lanes == v.type().lanes,
                    "Cast between different lane counts: " << v.type() << " to " << t);
    internal_assert(!t.is_void(), "Cast to void type");
    auto *n = new Cast;
    n->type = t;
    n->value = std::move(v);
    return n;
}

Expr Reinterpret::make(Type t, Expr v) {
    check_defined(v, "Reinterpret", "value");
    internal_assert(int(t.bits) * t.lanes == int(v.type().bits) * v.type().lanes,
                    "Reinterpret between types of different widths: " << v.type() << " to " << t);
    auto *n = new Reinterpret;
    n->type = t;
    n->value = std::move(v);
    return n;
}

Expr Variable::make(Type t, const std::string &name) {
    return make(t, name, Buffer<>(), Parameter());
}

Expr Variable::make(Type t, const std::string &name, ReductionDomain domain) {
    Expr e = make(t, name, Buffer<>(), Parameter());
    const_cast<Variable *>(e.as<Variable>())->reduction_domain = std::move(domain);
    return e;
}

Expr Variable::make(Type t, const std::string &name, Parameter param) {
    return make(t, name, Buffer<>(), std::move(param));
}

Expr Variable::make(Type t, const std::string &name, Buffer<> image, Parameter param) {
    internal_assert(!name.empty(), "Variable with empty name");
    internal_assert(!t.is_void(), "Variable " << name << " of void type");
    auto *n = new Variable;
    n->type = t;
    n->name = name;
    n->image = std::move(image);
    n->param = std::move(param);
    return n;
}

template <typename T> Expr BinaryOpNode<T>::make(Expr a, Expr b) {
    check_defined(a, "binary operator", "first operand");
    check_defined(b, "binary operator", "second operand");
    internal_assert(a.type() == b.type(),
                    "binary operator on mismatched types: " << a.type() << " (" << a << ") and "
                                                            << b.type() << " (" << b << ")");
    if (is_logical(T::_node_type)) {
        internal_assert(a.type().is_bool(), "logical operator on non-bool type " << a.type());
    }
    auto *n = new T;
    n->type = is_comparison(T::_node_type) ? Bool(a.type().lanes) : a.type();
    n->a = std::move(a);
    n->b = std::move(b);
    return n;
}

template struct BinaryOpNode<Add>;
template struct BinaryOpNode<Sub>;
template struct BinaryOpNode<Mul>;
template struct BinaryOpNode<Div>;
template struct BinaryOpNode<Mod>;
template struct BinaryOpNode<Min>;
template struct BinaryOpNode<Max>;
template struct BinaryOpNode<EQ>;
template struct BinaryOpNode<NE>;
template struct BinaryOpNode<LT>;
template struct BinaryOpNode<LE>;
template struct BinaryOpNode<GT>;
template struct BinaryOpNode<GE>;
template struct BinaryOpNode<And>;
template struct BinaryOpNode<Or>;

Expr Not::make(Expr a) {
    check_defined(a, "Not", "operand");
    internal_assert(a.type().is_bool(), "Not of non-bool type " << a.type());
    auto *n = new Not;
    n->type = a.type();
    n->a = std::move(a);
    return n;
}

Expr Select::make(Expr condition, Expr true_value, Expr false_value) {
    check_defined(condition, "Select", "condition");
    check_defined(true_value, "Select", "true value");
    check_defined(false_value, "Select", "false value");
    internal_assert(condition.type().is_bool(),
                    "Select condition of non-bool type " << condition.type());
    internal_assert(true_value.type() == false_value.type(), "Select of mismatched types "
                                                                 << true_value.type() << " and "
                                                                 << false_value.type());
    internal_assert(condition.type().is_scalar() ||
                        condition.type().lanes == true_value.type().lanes,
                    "Select condition of " << condition.type().lanes << " lanes picks values of "
                                           << true_value.type().lanes << " lanes");
    auto *n = new Select;
    n->type = true_value.type();
    n->condition = std::move(condition);
    n->true_value = std::move(true_value);
    n->false_value = std::move(false_value);
    return n;
}

Expr Load::make(Type t, const std::string &name, Expr index, Buffer<> image, Parameter param,
                Expr predicate) {
    check_defined(index, "Load", "index");
    internal_assert(!name.empty(), "Load from unnamed buffer");
    internal_assert(index.type().lanes == t.lanes, "Load of " << t << " from " << name
                                                              << " with index of "
                                                              << index.type().lanes << " lanes");
    internal_assert(index.type().is_int() || index.type().is_uint(),
                    "Load from " << name << " with non-integer index");
    if (predicate.defined()) {
        internal_assert(predicate.type() == Bool(t.lanes),
                        "Load from " << name << " with predicate of type " << predicate.type());
    }
    auto *n = new Load;
    n->type = t;
    n->name = name;
    n->index = std::move(index);
    n->predicate = std::move(predicate);
    n->image = std::move(image);
    n->param = std::move(param);
    return n;
}

Expr Ramp::make(Expr base, Expr stride, int lanes) {
    check_defined(base, "Ramp", "base");
    check_defined(stride, "Ramp", "stride");
    internal_assert(lanes > 1, "Ramp of " << lanes << " lanes");
    internal_assert(base.type() == stride.type(),
                    "Ramp of mismatched types " << base.type() << " and " << stride.type());
    auto *n = new Ramp;
    n->type = base.type().with_lanes(base.type().lanes * lanes);
    n->base = std::move(base);
    n->stride = std::move(stride);
    n->lanes = lanes;
    return n;
}

Expr Broadcast::make(Expr value, int lanes) {
    check_defined(value, "Broadcast", "value");
    internal_assert(lanes > 1, "Broadcast of " << lanes << " lanes");
    auto *n = new Broadcast;
    n->type = value.type().with_lanes(value.type().lanes * lanes);
    n->value = std::move(value);
    n->lanes = lanes;
    return n;
}

const char *intrinsic_name(Intrinsic op) {
    switch (op) {
    case Intrinsic::None:
        return "none";
    case Intrinsic::abs:
        return "abs";
    case Intrinsic::absd:
        return "absd";
    case Intrinsic::bitwise_and:
        return "bitwise_and";
    case Intrinsic::bitwise_or:
        return "bitwise_or";
    case Intrinsic::bitwise_xor:
        return "bitwise_xor";
    case Intrinsic::bitwise_not:
        return "bitwise_not";
    case Intrinsic::shift_left:
        return "shift_left";
    case Intrinsic::shift_right:
        return "shift_right";
    case Intrinsic::count_leading_zeros:
        return "count_leading_zeros";
    case Intrinsic::count_trailing_zeros:
        return "count_trailing_zeros";
    case Intrinsic::popcount:
        return "popcount";
    case Intrinsic::div_round_to_zero:
        return "div_round_to_zero";
    case Intrinsic::mod_round_to_zero:
        return "mod_round_to_zero";
    case Intrinsic::likely:
        return "likely";
    case Intrinsic::return_second:
        return "return_second";
    case Intrinsic::if_then_else:
        return "if_then_else";
    case Intrinsic::buffer_get_host:
        return "buffer_get_host";
    case Intrinsic::buffer_get_min:
        return "buffer_get_min";
    case Intrinsic::buffer_get_extent:
        return "buffer_get_extent";
    case Intrinsic::buffer_get_stride:
        return "buffer_get_stride";
    case Intrinsic::buffer_get_dimensions:
        return "buffer_get_dimensions";
    case Intrinsic::buffer_get_type_code:
        return "buffer_get_type_code";
    case Intrinsic::buffer_get_type_bits:
        return "buffer_get_type_bits";
    case Intrinsic::buffer_get_type_lanes:
        return "buffer_get_type_lanes";
    case Intrinsic::undef:
        return "undef";
    case Intrinsic::debug_print:
        return "debug_print";
    case Intrinsic::atomic_update:
        return "atomic_update";
    case Intrinsic::memory_fence:
        return "memory_fence";
    case Intrinsic::prefetch:
        return "prefetch";
    case Intrinsic::gpu_thread_barrier:
        return "gpu_thread_barrier";
    case Intrinsic::gpu_warp_shuffle:
        return "gpu_warp_shuffle";
    case Intrinsic::saturating_add:
        return "saturating_add";
    case Intrinsic::saturating_sub:
        return "saturating_sub";
    case Intrinsic::halving_add:
        return "halving_add";
    case Intrinsic::rounding_halving_add:
        return "rounding_halving_add";
    case Intrinsic::halving_sub:
        return "halving_sub";
    case Intrinsic::likely_if_innermost:
        return "likely_if_innermost";
    case Intrinsic::strict_float:
        return "strict_float";
    case Intrinsic::promise_clamped:
        return "promise_clamped";
    case Intrinsic::unsafe_promise_clamped:
        return "unsafe_promise_clamped";
    case Intrinsic::require:
        return "require";
    case Intrinsic::unreachable:
        return "unreachable";
    case Intrinsic::random:
        return "random";
    case Intrinsic::target_arch_is:
        return "target_arch_is";
    case Intrinsic::target_os_is:
        return "target_os_is";
    case Intrinsic::target_has_feature:
        return "target_has_feature";
    case Intrinsic::target_bits:
        return "target_bits";
    case Intrinsic::target_natural_vector_size:
        return "target_natural_vector_size";
    case Intrinsic::scatter_gather:
        return "scatter_gather";
    case Intrinsic::trace:
        return "trace";
    }
    return "unknown_intrinsic";
}

namespace {

Call *new_call(Type t, const std::string &name, const std::vector<Expr> &args, Call::CallType ct) {
    internal_assert(!name.empty(), "Call with empty name");
    for (size_t i = 0; i < args.size(); i++) {
        internal_assert(args[i].defined(), "Call to " << name << " with undefined argument " << i);
    }
    auto *n = new Call;
    n->type = t;
    n->name = name;
    n->args = args;
    n->call_type = ct;
    return n;
}

void check_integer_coordinates(const std::string &name, const std::vector<Expr> &args) {
    for (size_t i = 0; i < args.size(); i++) {
        internal_assert(args[i].type().is_int() || args[i].type().is_uint(),
                        "call to " << name << " with argument " << i << " of non-integer type "
                                   << args[i].type());
    }
}

} // namespace

Expr Call::make(Type t, const std::string &name, const std::vector<Expr> &args, CallType ct) {
    return new_call(t, name, args, ct);
}

Expr Call::make(Type t, Internal::Intrinsic op, const std::vector<Expr> &args, CallType ct) {
    internal_assert(ct == Intrinsic || ct == PureIntrinsic,
                    "intrinsic " << intrinsic_name(op) << " called as non-intrinsic");
    internal_assert(op != Internal::Intrinsic::None, "Call of intrinsic None");
    Call *n = new_call(t, intrinsic_name(op), args, ct);
    n->op = op;
    return n;
}

Expr Call::make(const Function &f, const std::vector<Expr> &args, int value_index) {
    internal_assert(f.defined(), "Call to undefined Function");
    internal_assert(value_index >= 0 && value_index < f.outputs(),
                    "Call to " << f.name() << " with value index " << value_index << " of "
                               << f.outputs() << " outputs");
    if (f.has_pure_definition()) {
        internal_assert(int(args.size()) == f.dimensions(),
                        "Call to " << f.name() << " with " << args.size() << " arguments, needs "
                                   << f.dimensions());
    }
    check_integer_coordinates(f.name(), args);
    Call *n = new_call(f.output_types()[size_t(value_index)], f.name(), args, Loom);
    n->func = f;
    n->value_index = value_index;
    return n;
}

Expr Call::make(const Buffer<> &image, const std::vector<Expr> &args) {
    internal_assert(image.defined(), "Call to undefined Buffer");
    internal_assert(int(args.size()) == image.dimensions(),
                    "Call to Buffer " << image.name() << " with " << args.size()
                                      << " arguments, needs " << image.dimensions());
    check_integer_coordinates(image.name(), args);
    Call *n = new_call(image.type(), image.name(), args, Image);
    n->image = image;
    return n;
}

Expr Call::make(const Parameter &param, const std::vector<Expr> &args) {
    internal_assert(param.defined(), "Call to undefined Parameter");
    internal_assert(param.is_buffer(), "Call to scalar Parameter " << param.name());
    internal_assert(int(args.size()) == param.dimensions(),
                    "Call to " << param.name() << " with " << args.size() << " arguments, needs "
                               << param.dimensions());
    check_integer_coordinates(param.name(), args);
    Call *n = new_call(param.type(), param.name(), args, Image);
    n->param = param;
    return n;
}

Expr Let::make(const std::string &name, Expr value, Expr body) {
    internal_assert(!name.empty(), "Let with empty name");
    check_defined(value, "Let", "value");
    check_defined(body, "Let", "body");
    auto *n = new Let;
    n->type = body.type();
    n->name = name;
    n->value = std::move(value);
    n->body = std::move(body);
    return n;
}

Expr Shuffle::make(const std::vector<Expr> &vectors, const std::vector<int> &indices) {
    internal_assert(!vectors.empty(), "Shuffle of no vectors");
    internal_assert(!indices.empty(), "Shuffle with no indices");
    Type elem = vectors[0].type().element_of();
    int total = 0;
    for (const Expr &v : vectors) {
        check_defined(v, "Shuffle", "vector");
        internal_assert(v.type().element_of() == elem,
                        "Shuffle of mismatched types " << elem << " and " << v.type());
        total += v.type().lanes;
    }
    for (int i : indices) {
        internal_assert(i >= 0 && i < total,
                        "Shuffle index " << i << " out of range [0, " << total << ")");
    }
    auto *n = new Shuffle;
    n->type = elem.with_lanes(int(indices.size()));
    n->vectors = vectors;
    n->indices = indices;
    return n;
}

Expr Shuffle::make_concat(const std::vector<Expr> &vectors) {
    internal_assert(!vectors.empty(), "concat of no vectors");
    if (vectors.size() == 1) return vectors[0];
    std::vector<int> indices;
    int lane = 0;
    for (const Expr &v : vectors) {
        for (int i = 0; i < v.type().lanes; i++) indices.push_back(lane++);
    }
    return make(vectors, indices);
}

Expr Shuffle::make_slice(Expr vector, int begin, int stride, int size) {
    if (begin == 0 && stride == 1 && size == vector.type().lanes) return vector;
    std::vector<int> indices;
    for (int i = 0; i < size; i++) indices.push_back(begin + i * stride);
    return make({std::move(vector)}, indices);
}

Expr Shuffle::make_extract_element(Expr vector, int i) {
    return make_slice(std::move(vector), i, 1, 1);
}

Expr Shuffle::make_interleave(const std::vector<Expr> &vectors) {
    internal_assert(!vectors.empty(), "interleave of no vectors");
    if (vectors.size() == 1) return vectors[0];
    int lanes = vectors[0].type().lanes;
    for (const Expr &v : vectors) {
        internal_assert(v.type().lanes == lanes, "interleave of vectors of different lanes");
    }
    std::vector<int> indices;
    for (int i = 0; i < lanes; i++) {
        for (size_t j = 0; j < vectors.size(); j++) indices.push_back(int(j) * lanes + i);
    }
    return make(vectors, indices);
}

// ---- Statements ----

namespace {
void check_defined(const Stmt &s, const char *node, const char *what) {
    internal_assert(s.defined(), node << " of undefined " << what);
}

void check_scalar_int(const Expr &e, const char *node, const std::string &name, const char *what) {
    internal_assert(e.defined(), node << " " << name << " with undefined " << what);
    internal_assert(e.type().is_scalar() && (e.type().is_int() || e.type().is_uint()),
                    node << " " << name << " with " << what << " of type " << e.type());
}
} // namespace

Stmt LetStmt::make(const std::string &name, Expr value, Stmt body) {
    internal_assert(!name.empty(), "LetStmt with empty name");
    check_defined(value, "LetStmt", "value");
    check_defined(body, "LetStmt", "body");
    auto *n = new LetStmt;
    n->name = name;
    n->value = std::move(value);
    n->body = std::move(body);
    return n;
}

Stmt AssertStmt::make(Expr condition, Expr message) {
    check_defined(condition, "AssertStmt", "condition");
    check_defined(message, "AssertStmt", "message");
    internal_assert(condition.type() == Bool(),
                    "AssertStmt condition of type " << condition.type());
    auto *n = new AssertStmt;
    n->condition = std::move(condition);
    n->message = std::move(message);
    return n;
}

Stmt ProducerConsumer::make(const std::string &name, bool is_producer, Stmt body) {
    internal_assert(!name.empty(), "ProducerConsumer with empty name");
    check_defined(body, "ProducerConsumer", "body");
    auto *n = new ProducerConsumer;
    n->name = name;
    n->is_producer = is_producer;
    n->body = std::move(body);
    return n;
}

Stmt For::make(const std::string &name, Expr min, Expr extent, ForType for_type,
               DeviceAPI device_api, Stmt body) {
    internal_assert(!name.empty(), "For with empty name");
    check_scalar_int(min, "For", name, "min");
    check_scalar_int(extent, "For", name, "extent");
    internal_assert(min.type() == extent.type(), "For " << name << " with min of type "
                                                        << min.type() << " and extent of type "
                                                        << extent.type());
    check_defined(body, "For", "body");
    auto *n = new For;
    n->name = name;
    n->min = std::move(min);
    n->extent = std::move(extent);
    n->for_type = for_type;
    n->device_api = device_api;
    n->body = std::move(body);
    return n;
}

Stmt Store::make(const std::string &name, Expr value, Expr index, Buffer<> image, Parameter param,
                 Expr predicate, bool streaming) {
    internal_assert(!name.empty(), "Store to unnamed buffer");
    check_defined(value, "Store", "value");
    check_defined(index, "Store", "index");
    internal_assert(value.type().lanes == index.type().lanes,
                    "Store to " << name << " of " << value.type() << " with index of "
                                << index.type().lanes << " lanes");
    if (predicate.defined()) {
        internal_assert(predicate.type() == Bool(value.type().lanes),
                        "Store to " << name << " with predicate of type " << predicate.type());
    }
    auto *n = new Store;
    n->name = name;
    n->value = std::move(value);
    n->index = std::move(index);
    n->predicate = std::move(predicate);
    n->image = std::move(image);
    n->param = std::move(param);
    n->streaming = streaming;
    return n;
}

Stmt Provide::make(const std::string &name, const std::vector<Expr> &values,
                   const std::vector<Expr> &args, Expr predicate) {
    internal_assert(!name.empty(), "Provide to unnamed Func");
    internal_assert(!values.empty(), "Provide to " << name << " of no values");
    for (const Expr &v : values) check_defined(v, "Provide", "value");
    for (const Expr &a : args) check_defined(a, "Provide", "argument");
    if (predicate.defined()) {
        internal_assert(predicate.type().is_bool(),
                        "Provide to " << name << " with predicate of type " << predicate.type());
    }
    auto *n = new Provide;
    n->name = name;
    n->values = values;
    n->args = args;
    n->predicate = std::move(predicate);
    return n;
}

Stmt Allocate::make(const std::string &name, Type type, MemoryType memory_type,
                    const std::vector<Expr> &extents, Expr condition, Stmt body) {
    internal_assert(!name.empty(), "Allocate with empty name");
    for (const Expr &e : extents) check_scalar_int(e, "Allocate", name, "extent");
    if (!condition.defined()) condition = const_true();
    internal_assert(condition.type() == Bool(),
                    "Allocate " << name << " with condition of type " << condition.type());
    check_defined(body, "Allocate", "body");
    auto *n = new Allocate;
    n->name = name;
    n->type = type;
    n->memory_type = memory_type;
    n->extents = extents;
    n->condition = std::move(condition);
    n->body = std::move(body);
    return n;
}

Stmt Free::make(const std::string &name) {
    internal_assert(!name.empty(), "Free with empty name");
    auto *n = new Free;
    n->name = name;
    return n;
}

Stmt Realize::make(const std::string &name, const std::vector<Type> &types, MemoryType memory_type,
                   const Region &bounds, Expr condition, Stmt body) {
    internal_assert(!name.empty(), "Realize with empty name");
    internal_assert(!types.empty(), "Realize " << name << " of no types");
    for (const Range &r : bounds) {
        check_scalar_int(r.min, "Realize", name, "min");
        check_scalar_int(r.extent, "Realize", name, "extent");
    }
    if (!condition.defined()) condition = const_true();
    internal_assert(condition.type() == Bool(),
                    "Realize " << name << " with condition of type " << condition.type());
    check_defined(body, "Realize", "body");
    auto *n = new Realize;
    n->name = name;
    n->types = types;
    n->memory_type = memory_type;
    n->bounds = bounds;
    n->condition = std::move(condition);
    n->body = std::move(body);
    return n;
}

Stmt Block::make(Stmt first, Stmt rest) {
    check_defined(first, "Block", "first statement");
    check_defined(rest, "Block", "second statement");
    auto *n = new Block;
    n->first = std::move(first);
    n->rest = std::move(rest);
    return n;
}

Stmt Block::make(const std::vector<Stmt> &stmts) {
    Stmt result;
    for (size_t i = stmts.size(); i-- > 0;) {
        if (!stmts[i].defined()) continue;
        result = result.defined() ? make(stmts[i], result) : stmts[i];
    }
    return result;
}

Stmt IfThenElse::make(Expr condition, Stmt then_case, Stmt else_case) {
    check_defined(condition, "IfThenElse", "condition");
    check_defined(then_case, "IfThenElse", "then case");
    internal_assert(condition.type() == Bool(),
                    "IfThenElse condition of type " << condition.type());
    auto *n = new IfThenElse;
    n->condition = std::move(condition);
    n->then_case = std::move(then_case);
    n->else_case = std::move(else_case);
    return n;
}

Stmt Evaluate::make(Expr value) {
    check_defined(value, "Evaluate", "value");
    auto *n = new Evaluate;
    n->value = std::move(value);
    return n;
}

} // namespace Internal
} // namespace loom
