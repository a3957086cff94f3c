// Tracing (Func::trace_loads/trace_stores/trace_realizations and the
// trace_* target features): the call generated code makes for each event,
// and the default handler, which prints one line per event (or writes a
// binary packet to the trace file: trace_file.cpp).

#include <atomic>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "RuntimeFunctions.h"

namespace {

const char *const event_names[] = {
    "Load",    "Store",       "Begin realization", "End realization", "Produce", "End produce",
    "Consume", "End consume", "Begin pipeline",    "End pipeline",    "Tag"};

float half_to_float(uint16_t bits) {
    int sign = bits >> 15, exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
    float magnitude;
    if (exponent == 0)
        magnitude = std::ldexp(float(mantissa), -24);
    else if (exponent == 31)
        magnitude = mantissa ? NAN : INFINITY;
    else
        magnitude = std::ldexp(float(mantissa | 0x400), exponent - 25);
    return sign ? -magnitude : magnitude;
}

/** Lane `i` of the event's value, as text. */
std::string lane_text(const loom_type_t &t, const void *value, int i) {
    char text[64];
    const auto *bytes = static_cast<const uint8_t *>(value);
    int bytes_per_lane = t.bits <= 8 ? 1 : t.bits <= 16 ? 2 : t.bits <= 32 ? 4 : 8;
    const uint8_t *p = bytes + size_t(i) * bytes_per_lane;
    auto read = [&](auto x) {
        std::memcpy(&x, p, sizeof(x));
        return x;
    };
    switch (t.code) {
    case loom_type_int: {
        int64_t v = bytes_per_lane == 1   ? read(int8_t())
                    : bytes_per_lane == 2 ? read(int16_t())
                    : bytes_per_lane == 4 ? read(int32_t())
                                          : read(int64_t());
        std::snprintf(text, sizeof(text), "%" PRId64, v);
        break;
    }
    case loom_type_uint: {
        uint64_t v = bytes_per_lane == 1   ? read(uint8_t())
                     : bytes_per_lane == 2 ? read(uint16_t())
                     : bytes_per_lane == 4 ? read(uint32_t())
                                           : read(uint64_t());
        if (t.bits == 1) v &= 1;
        std::snprintf(text, sizeof(text), "%" PRIu64, v);
        break;
    }
    case loom_type_float: {
        double v = bytes_per_lane == 2   ? double(half_to_float(read(uint16_t())))
                   : bytes_per_lane == 4 ? double(read(float()))
                                         : read(double());
        std::snprintf(text, sizeof(text), "%f", v);
        break;
    }
    case loom_type_bfloat: {
        uint32_t bits = uint32_t(read(uint16_t())) << 16;
        float v;
        std::memcpy(&v, &bits, sizeof(v));
        std::snprintf(text, sizeof(text), "%f", double(v));
        break;
    }
    default:
        std::snprintf(text, sizeof(text), "%p", read(static_cast<void *>(nullptr)));
    }
    return text;
}

/** "Store f.0(3, 4) = 7": Halide's line format. */
std::string event_line(const loom_trace_event_t *e) {
    bool known = e->event >= 0 && e->event <= loom_trace_tag;
    std::string line = known ? event_names[e->event] : "Event " + std::to_string(e->event);
    int lanes = e->type.lanes > 1 ? e->type.lanes : 1;
    line += " ";
    line += e->func ? e->func : "";
    line += "." + std::to_string(e->value_index) + "(";
    if (lanes > 1) line += "<";
    for (int i = 0; i < e->dimensions && e->coordinates; i++) {
        if (i > 0) line += lanes > 1 && i % lanes == 0 ? ">, <" : ", ";
        line += std::to_string(e->coordinates[i]);
    }
    line += lanes > 1 ? ">)" : ")";
    if ((e->event == loom_trace_load || e->event == loom_trace_store) && e->value) {
        line += lanes > 1 ? " = <" : " = ";
        for (int i = 0; i < lanes; i++) {
            if (i > 0) line += ", ";
            line += lane_text(e->type, e->value, i);
        }
        if (lanes > 1) line += ">";
    }
    if (e->trace_tag && *e->trace_tag) line += std::string(" tag = \"") + e->trace_tag + "\"";
    return line;
}

std::atomic<int32_t> next_trace_id{1};

} // namespace

extern "C" int32_t loom_default_trace(void *user_context, const loom_trace_event_t *event) {
    int32_t id = next_trace_id.fetch_add(1);
    if (loom_trace_file_write(user_context, event, id)) return id;
    loom_print(user_context, event_line(event).c_str());
    return id;
}

extern "C" int32_t loom_trace(void *user_context, const char *func, void *value,
                              int32_t *coordinates, int32_t type_code, int32_t type_bits,
                              int32_t type_lanes, int32_t event_code, int32_t parent_id,
                              int32_t value_index, int32_t dimensions, const char *trace_tag) {
    loom_trace_event_t event;
    event.func = func;
    // Only loads and stores have a value (generated code passes a slot anyway).
    bool has_value = event_code == loom_trace_load || event_code == loom_trace_store;
    event.value = has_value ? value : nullptr;
    event.coordinates = coordinates;
    event.trace_tag = trace_tag;
    event.type.code = uint8_t(type_code);
    event.type.bits = uint8_t(type_bits);
    event.type.lanes = uint16_t(type_lanes);
    event.event = event_code;
    event.parent_id = parent_id;
    event.value_index = value_index;
    event.dimensions = dimensions;
    // A tag event with coordinates is a func_type_and_dim tag whose bounds
    // are known only now (InjectTracing.cpp): they are appended to the tag
    // as " min extent" pairs, and the event has no coordinates, as Halide's.
    std::string tag_with_bounds;
    if (event_code == loom_trace_tag && dimensions > 0 && coordinates) {
        tag_with_bounds = trace_tag ? trace_tag : "";
        for (int i = 0; i < dimensions; i++)
            tag_with_bounds += " " + std::to_string(coordinates[i]);
        event.trace_tag = tag_with_bounds.c_str();
        event.coordinates = nullptr;
        event.dimensions = 0;
    }
    auto *context = static_cast<loom_call_context_t *>(user_context);
    if (context && context->trace_handler) return context->trace_handler(context, &event);
    return loom_default_trace(user_context, &event);
}
