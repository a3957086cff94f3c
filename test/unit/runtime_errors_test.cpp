// The runtime's error functions: message formats, return codes and routing
// through the per-call and global handlers.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/RuntimeFunctions.h"

namespace {

std::vector<std::string> context_messages, global_messages;

void context_handler(loom_call_context_t *, const char *message) {
    context_messages.push_back(message);
}
void global_handler(void *, const char *message) {
    global_messages.push_back(message);
}

// Runs f with a context handler and returns the one message it reported.
template <typename F> std::string message_of(F &&f, int expected_code) {
    context_messages.clear();
    loom_call_context_t context{&context_handler, nullptr, nullptr, nullptr,
                                nullptr,          nullptr, nullptr};
    REQUIRE(f(&context) == expected_code);
    REQUIRE(context_messages.size() == 1);
    return context_messages[0];
}

} // namespace

TEST_CASE("runtime: buffer_too_small names the buffer, range, dimension and Func", "[runtime]") {
    REQUIRE(message_of(
                [](void *uc) {
                    return loom_error_buffer_too_small(uc, "blur", "input", 1, -1, 100, 0, 99);
                },
                loom_error_code_buffer_too_small) ==
            "Input buffer input is accessed at -1 to 100 in dimension 1 by Func blur, but the "
            "buffer only covers 0 to 99");
    REQUIRE(
        message_of(
            [](void *uc) { return loom_error_buffer_too_small(uc, "", "input", 0, 0, 10, 0, 9); },
            loom_error_code_buffer_too_small) == "Input buffer input is accessed at 0 to 10 in "
                                                 "dimension 0, but the buffer only covers 0 to 9");
    REQUIRE(
        message_of(
            [](void *uc) { return loom_error_buffer_too_small(uc, "out", "out", 0, 0, 10, 0, 9); },
            loom_error_code_buffer_too_small) ==
        "Output buffer out is accessed at 0 to 10 in dimension "
        "0 by Func out, but the buffer only covers 0 to 9");
}

TEST_CASE("runtime: type, dimension and null-buffer errors", "[runtime]") {
    REQUIRE(message_of([](void *uc) { return loom_error_bad_type(uc, "in", 0, 32, 1, 1, 8, 1); },
                       loom_error_code_bad_type) ==
            "Buffer in has type int32 but the pipeline needs uint8");
    REQUIRE(message_of([](void *uc) { return loom_error_bad_type(uc, "in", 2, 32, 4, 1, 1, 1); },
                       loom_error_code_bad_type) ==
            "Buffer in has type float32x4 but the pipeline needs bool");
    REQUIRE(message_of([](void *uc) { return loom_error_bad_dimensions(uc, "in", 3, 2); },
                       loom_error_code_bad_dimensions) ==
            "Buffer in has 3 dimensions but the pipeline needs 2");
    REQUIRE(message_of([](void *uc) { return loom_error_buffer_argument_is_null(uc, "in"); },
                       loom_error_code_buffer_argument_is_null) == "Buffer argument in is NULL");
    REQUIRE(message_of([](void *uc) { return loom_error_out_of_memory(uc); },
                       loom_error_code_out_of_memory)
                .find("memory") != std::string::npos);
    REQUIRE(
        message_of([](void *uc) { return loom_error_param_too_small_f64(uc, "sigma", 0.5, 1.0); },
                   loom_error_code_param_out_of_range) ==
        "Parameter sigma is 0.5 but must be at least 1");
    REQUIRE(message_of([](void *uc) { return loom_error_message(uc, "custom"); },
                       loom_error_code_generic) == "custom");
}

TEST_CASE("runtime: without a context handler errors go to the global handler", "[runtime]") {
    global_messages.clear();
    loom_error_handler_t previous = loom_set_error_handler(&global_handler);
    REQUIRE(loom_error_bad_dimensions(nullptr, "in", 1, 2) == loom_error_code_bad_dimensions);
    loom_call_context_t no_handler{nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    REQUIRE(loom_error_bad_dimensions(&no_handler, "in", 1, 2) == loom_error_code_bad_dimensions);
    REQUIRE(global_messages.size() == 2);
    // Passing NULL restores the default (which prints and does not abort).
    REQUIRE(loom_set_error_handler(nullptr) == &global_handler);
    loom_report_error(nullptr, "printed by the default handler (expected in test output)");
    REQUIRE(global_messages.size() == 2);
    loom_set_error_handler(previous);
}

TEST_CASE("runtime: loom_malloc is 64-byte aligned", "[runtime]") {
    for (size_t bytes : {size_t(0), size_t(1), size_t(63), size_t(1000), size_t(1) << 20}) {
        void *p = loom_malloc(nullptr, bytes);
        REQUIRE(p != nullptr);
        REQUIRE(reinterpret_cast<uintptr_t>(p) % 64 == 0);
        loom_free(nullptr, p);
    }
    REQUIRE(loom_malloc(nullptr, SIZE_MAX) == nullptr);
}
