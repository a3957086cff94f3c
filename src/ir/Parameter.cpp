#include "loom/Parameter.h"

#include <cstring>

#include "ir/Error.h"
#include "ir/IR.h"
#include "ir/IROperator.h"

namespace loom {
namespace Internal {

Parameter::Parameter(Type t, bool is_buffer, int dimensions, const std::string &name) {
    internal_assert(dimensions >= 0, "Parameter " << name << " with negative dimensions");
    contents = new ParameterContents;
    contents->name = name;
    contents->type = t;
    contents->is_buffer = is_buffer;
    contents->dimensions = dimensions;
    contents->constraints.resize(size_t(dimensions));
}

Expr Parameter::scalar_expr() const {
    internal_assert(defined(), "scalar_expr of undefined Parameter");
    Type t = type();
    uint64_t bits = scalar_bits();
    switch (t.code) {
    case Type::Int:
        return IntImm::make(t, int64_t(bits)); // IntImm sign-extends the low bits
    case Type::UInt:
        return UIntImm::make(t, bits);
    case Type::BFloat:
    case Type::Float:
        if (t.bits == 16) {
            uint16_t low = uint16_t(bits);
            return FloatImm::make(t, t.is_bfloat() ? double(bfloat16_t::make_from_bits(low))
                                                   : double(float16_t::make_from_bits(low)));
        } else if (t.bits == 32) {
            float f;
            uint32_t low = uint32_t(bits);
            std::memcpy(&f, &low, sizeof(f));
            return FloatImm::make(t, double(f));
        } else {
            double d;
            std::memcpy(&d, &bits, sizeof(d));
            return FloatImm::make(t, d);
        }
    case Type::Handle:
        return Reinterpret::make(t, UIntImm::make(UInt(64), bits));
    }
    internal_error("scalar_expr of Parameter " << name() << " of type " << type_to_string(t));
}

} // namespace Internal
} // namespace loom
