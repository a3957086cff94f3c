// Error reporting for generated code: a replaceable global handler, per-call
// handlers through loom_call_context_t, and one formatting function per error
// code that generated code can return directly.

#include <atomic>
#include <cinttypes>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "RuntimeFunctions.h"

namespace {

void default_error_handler(void *, const char *message) {
    std::fprintf(stderr, "Error: %s\n", message);
}

std::atomic<loom_error_handler_t> global_handler{&default_error_handler};

// Formats into a fixed buffer (messages are short) and reports it.
int report(void *uc, int code, const char *format, ...) {
    char message[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    loom_report_error(uc, message);
    return code;
}

const char *or_unnamed(const char *s) {
    return s ? s : "<unnamed>";
}

// "int32", "uint8x4", "float64", "bool", "handle".
void type_name(char *out, size_t size, int32_t code, int32_t bits, int32_t lanes) {
    const char *kind = code == loom_type_int     ? "int"
                       : code == loom_type_uint  ? "uint"
                       : code == loom_type_float ? "float"
                                                 : "handle";
    int n;
    if (code == loom_type_uint && bits == 1)
        n = std::snprintf(out, size, "bool");
    else if (code == loom_type_handle)
        n = std::snprintf(out, size, "handle");
    else
        n = std::snprintf(out, size, "%s%d", kind, int(bits));
    if (lanes > 1 && n > 0 && size_t(n) < size)
        std::snprintf(out + n, size - size_t(n), "x%d", int(lanes));
}

} // namespace

extern "C" {

loom_error_handler_t loom_set_error_handler(loom_error_handler_t handler) {
    return global_handler.exchange(handler ? handler : &default_error_handler);
}

void loom_report_error(void *user_context, const char *message) {
    auto *context = static_cast<loom_call_context_t *>(user_context);
    if (context && context->error_handler) {
        context->error_handler(context, message);
        return;
    }
    global_handler.load()(user_context, message);
}

int loom_error_buffer_argument_is_null(void *uc, const char *buffer_name) {
    return report(uc, loom_error_code_buffer_argument_is_null, "Buffer argument %s is NULL",
                  or_unnamed(buffer_name));
}

int loom_error_bad_type(void *uc, const char *buffer_name, int32_t actual_code, int32_t actual_bits,
                        int32_t actual_lanes, int32_t expected_code, int32_t expected_bits,
                        int32_t expected_lanes) {
    char actual[32], expected[32];
    type_name(actual, sizeof(actual), actual_code, actual_bits, actual_lanes);
    type_name(expected, sizeof(expected), expected_code, expected_bits, expected_lanes);
    return report(uc, loom_error_code_bad_type, "Buffer %s has type %s but the pipeline needs %s",
                  or_unnamed(buffer_name), actual, expected);
}

int loom_error_bad_dimensions(void *uc, const char *buffer_name, int32_t actual, int32_t expected) {
    return report(uc, loom_error_code_bad_dimensions,
                  "Buffer %s has %d dimensions but the pipeline needs %d", or_unnamed(buffer_name),
                  int(actual), int(expected));
}

int loom_error_buffer_too_small(void *uc, const char *func_name, const char *buffer_name,
                                int32_t dim, int64_t req_min, int64_t req_max, int64_t actual_min,
                                int64_t actual_max) {
    const char *buffer = or_unnamed(buffer_name);
    bool has_func = func_name && func_name[0];
    bool is_output = has_func && std::strcmp(func_name, buffer) == 0;
    if (is_output) {
        return report(uc, loom_error_code_buffer_too_small,
                      "Output buffer %s is accessed at %" PRId64 " to %" PRId64
                      " in dimension %d by Func %s, but "
                      "the buffer only "
                      "covers %" PRId64 " to %" PRId64,
                      buffer, req_min, req_max, int(dim), func_name, actual_min, actual_max);
    }
    if (has_func) {
        return report(uc, loom_error_code_buffer_too_small,
                      "Input buffer %s is accessed at %" PRId64 " to %" PRId64
                      " in dimension %d by Func %s, but the "
                      "buffer only covers %" PRId64 " to %" PRId64,
                      buffer, req_min, req_max, int(dim), func_name, actual_min, actual_max);
    }
    return report(uc, loom_error_code_buffer_too_small,
                  "Input buffer %s is accessed at %" PRId64 " to %" PRId64
                  " in dimension %d, but the buffer only "
                  "covers %" PRId64 " to %" PRId64,
                  buffer, req_min, req_max, int(dim), actual_min, actual_max);
}

int loom_error_buffer_bad_extent(void *uc, const char *buffer_name, int32_t dim, int32_t min,
                                 int32_t extent) {
    if (extent < 0) {
        return report(uc, loom_error_code_buffer_extents_too_large,
                      "Buffer %s has extent %d in dimension %d; an extent must be at least 0",
                      or_unnamed(buffer_name), int(extent), int(dim));
    }
    return report(uc, loom_error_code_buffer_extents_too_large,
                  "Buffer %s has min %d and extent %d in dimension %d, which reaches past the "
                  "largest coordinate %d",
                  or_unnamed(buffer_name), int(min), int(extent), int(dim), INT32_MAX);
}

int loom_buffer_dim_is_null(void *uc, const loom_buffer_t *b) {
    (void)uc;
    return b && b->dimensions > 0 && !b->dim ? 1 : 0;
}

int loom_error_buffer_dim_is_null(void *uc, const char *buffer_name, int32_t dimensions) {
    return report(uc, loom_error_code_buffer_argument_is_null,
                  "Buffer %s has %d dimensions but its dim pointer is NULL; point dim at an array "
                  "of that many loom_dimension_t",
                  or_unnamed(buffer_name), int(dimensions));
}

int loom_error_bound_violated(void *uc, const char *func_name, const char *bound_text, int32_t dim,
                              int32_t bound_min, int32_t bound_max, int32_t actual_min,
                              int32_t actual_max, int32_t is_output) {
    if (is_output) {
        return report(uc, loom_error_code_buffer_too_small,
                      "Func %s: %s requires the output buffer to cover exactly [%d, %d] in "
                      "dimension %d, but it covers [%d, %d]",
                      or_unnamed(func_name), or_unnamed(bound_text), int(bound_min), int(bound_max),
                      int(dim), int(actual_min), int(actual_max));
    }
    return report(uc, loom_error_code_buffer_too_small,
                  "Func %s: %s limits it to [%d, %d] in dimension %d, but the pipeline needs "
                  "[%d, %d] of it",
                  or_unnamed(func_name), or_unnamed(bound_text), int(bound_min), int(bound_max),
                  int(dim), int(actual_min), int(actual_max));
}

int loom_error_buffer_extents_too_large(void *uc, const char *buffer_name, int64_t actual,
                                        int64_t max) {
    if (max > INT32_MAX) {
        return report(uc, loom_error_code_buffer_extents_too_large,
                      "Buffer %s spans %" PRId64 " elements from its first to its last, more "
                      "than the maximum of %" PRId64 " that 64-bit offsets reach",
                      or_unnamed(buffer_name), actual, max);
    }
    return report(uc, loom_error_code_buffer_extents_too_large,
                  "Buffer %s spans %" PRId64 " elements from its first to its last, more than "
                  "the maximum of %" PRId64 " that 32-bit offsets reach: add the large_buffers "
                  "target feature (e.g. host-large_buffers) to address it with 64-bit offsets",
                  or_unnamed(buffer_name), actual, max);
}

int loom_error_allocation_too_large(void *uc, const char *func_name, int64_t elements,
                                    int64_t max) {
    if (max > INT32_MAX) {
        return report(uc, loom_error_code_buffer_extents_too_large,
                      "Func %s needs storage for more than %" PRId64 " elements, the maximum",
                      or_unnamed(func_name), max);
    }
    return report(uc, loom_error_code_buffer_extents_too_large,
                  "Func %s needs storage for %" PRId64 " elements, more than the maximum of "
                  "%" PRId64 " that 32-bit offsets reach: add the large_buffers target feature "
                  "(e.g. host-large_buffers) to address it with 64-bit offsets",
                  or_unnamed(func_name), elements, max);
}

int loom_error_constraint_violated(void *uc, const char *what, int32_t value,
                                   const char *constraint, int32_t constraint_value) {
    return report(uc, loom_error_code_constraint_violated,
                  "Constraint violated: %s (%d) == %s (%d)", or_unnamed(what), int(value),
                  or_unnamed(constraint), int(constraint_value));
}

int loom_error_param_too_small_i64(void *uc, const char *param_name, int64_t value, int64_t min) {
    return report(uc, loom_error_code_param_out_of_range,
                  "Parameter %s is %" PRId64 " but must be at least %" PRId64,
                  or_unnamed(param_name), value, min);
}

int loom_error_param_too_large_i64(void *uc, const char *param_name, int64_t value, int64_t max) {
    return report(uc, loom_error_code_param_out_of_range,
                  "Parameter %s is %" PRId64 " but must be at most %" PRId64,
                  or_unnamed(param_name), value, max);
}

int loom_error_param_too_small_f64(void *uc, const char *param_name, double value, double min) {
    return report(uc, loom_error_code_param_out_of_range,
                  "Parameter %s is %g but must be at least %g", or_unnamed(param_name), value, min);
}

int loom_error_param_too_large_f64(void *uc, const char *param_name, double value, double max) {
    return report(uc, loom_error_code_param_out_of_range,
                  "Parameter %s is %g but must be at most %g", or_unnamed(param_name), value, max);
}

int loom_error_out_of_memory(void *uc) {
    return report(uc, loom_error_code_out_of_memory,
                  "Out of memory allocating a buffer for the pipeline");
}

int loom_error_message(void *uc, const char *message) {
    return report(uc, loom_error_code_generic, "%s", or_unnamed(message));
}

int loom_error_split_too_small(void *uc, const char *func_name, const char *var_name,
                               const char *tail_name, int32_t factor, int32_t extent) {
    return report(uc, loom_error_code_buffer_too_small,
                  "Func %s splits %s by %d with %s, which needs an extent of at least %d, but the "
                  "extent of %s is %d; use TailStrategy::GuardWithIf for this split or a factor "
                  "of at most %d",
                  or_unnamed(func_name), or_unnamed(var_name), int(factor), or_unnamed(tail_name),
                  int(factor), or_unnamed(var_name), int(extent), int(extent));
}

int loom_error_specialize_fail(void *uc, const char *message) {
    return report(uc, loom_error_code_specialize_fail,
                  "A schedule specialized with "
                  "specialize_fail was reached: %s",
                  or_unnamed(message));
}

} // extern "C"
