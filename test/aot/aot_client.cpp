// Links two AOT-generated static libraries and Loom::Runtime only (no libloom,
// no LLVM), runs both pipelines against plain C++ and checks the error
// reporting of generated code: error codes, messages naming the buffer, the
// global handler, the per-call handler and the default handler (stderr).

#include "aot_blur.h"
#include "aot_brighten.h"
#include "aot_tall.h"

#include <LoomBuffer.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

using loom::Runtime::Buffer;

namespace {

int failures = 0;

void check(bool ok, const std::string &what) {
    if (!ok) {
        std::printf("FAILED: %s\n", what.c_str());
        failures++;
    }
}

bool contains(const std::string &s, const std::string &part) {
    return s.find(part) != std::string::npos;
}

std::vector<std::string> global_messages;
void global_handler(void *, const char *message) {
    global_messages.push_back(message);
}

std::vector<std::string> context_messages;
void context_handler(loom_call_context_t *, const char *message) {
    context_messages.push_back(message);
}

uint8_t brighten_reference(uint8_t v, float scale, int offset) {
    float r = float(v) * scale + float(offset);
    return uint8_t(std::min(std::max(r, 0.0f), 255.0f));
}

void test_brighten() {
    const int w = 37, h = 19;
    Buffer<uint8_t> in(w, h), out(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) in(x, y) = uint8_t((x * 7 + y * 13) % 256);
    int err = brighten(in, 1.5f, -10, out);
    check(err == 0, "brighten returns 0");
    int wrong = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (out(x, y) != brighten_reference(in(x, y), 1.5f, -10)) wrong++;
    check(wrong == 0, "brighten matches plain C++ (" + std::to_string(wrong) + " wrong)");

    // The argv entry point and the metadata describe the same function.
    float scale = 0.5f;
    int offset = 3;
    void *argv[] = {nullptr, in.raw_buffer(), &scale, &offset, out.raw_buffer()};
    check(brighten_argv(argv) == 0, "brighten_argv returns 0");
    check(out(5, 6) == brighten_reference(in(5, 6), 0.5f, 3), "brighten_argv computes");
    const loom_pipeline_metadata_t *md = brighten_metadata();
    check(md->num_arguments == 4, "brighten has 4 arguments in its metadata");
    check(std::string(md->name) == "brighten", "metadata names the pipeline");
    check(std::string(md->arguments[0].name) == "input" &&
              std::string(md->arguments[1].name) == "scale" &&
              std::string(md->arguments[2].name) == "offset" &&
              md->arguments[3].kind == loom_argument_kind_output_buffer,
          "metadata lists input, scale, offset, output in order");
}

void test_blur() {
    const int w = 45, h = 29;
    // The blur reads one pixel beyond the output on every side.
    Buffer<uint16_t> in(w + 2, h + 2), out(w, h);
    in.set_min(-1, -1);
    for (int y = -1; y <= h; y++)
        for (int x = -1; x <= w; x++) in(x, y) = uint16_t(((x + 1) * 31 + (y + 1) * 17 + 5) % 1000);
    check(blur(in, out) == 0, "blur returns 0");
    int wrong = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            auto bx = [&](int i, int j) { return (in(i - 1, j) + in(i, j) + in(i + 1, j)) / 3; };
            int expected = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 3;
            if (out(x, y) != expected) wrong++;
        }
    check(wrong == 0, "blur matches plain C++ (" + std::to_string(wrong) + " wrong)");
}

void test_errors_through_global_handler() {
    loom_set_error_handler(global_handler);

    // Too small: the blur reads input at -1 .. w in x, the buffer starts at 0.
    Buffer<uint16_t> small(20, 20), blurred(20, 20);
    global_messages.clear();
    int err = blur(small, blurred);
    check(err == loom_error_code_buffer_too_small, "too-small input gives buffer_too_small");
    check(global_messages.size() == 1 && contains(global_messages[0], "Input buffer input") &&
              contains(global_messages[0], "-1 to 20"),
          "too-small message names the buffer and range: " +
              (global_messages.empty() ? std::string("(none)") : global_messages[0]));

    // Wrong type.
    Buffer<float> floats(10, 10);
    Buffer<uint8_t> out(10, 10);
    global_messages.clear();
    err = brighten(floats, 1.0f, 0, out);
    check(err == loom_error_code_bad_type, "wrong type gives bad_type");
    check(global_messages.size() == 1 &&
              contains(global_messages[0], "Buffer input has type float32") &&
              contains(global_messages[0], "uint8"),
          "wrong-type message names the buffer and types: " +
              (global_messages.empty() ? std::string("(none)") : global_messages[0]));

    // Wrong dimensionality.
    Buffer<uint8_t> three(10, 10, 3);
    global_messages.clear();
    err = brighten(three, 1.0f, 0, out);
    check(err == loom_error_code_bad_dimensions, "wrong dimensions give bad_dimensions");
    check(global_messages.size() == 1 &&
              contains(global_messages[0], "Buffer input has 3 dimensions") &&
              contains(global_messages[0], "needs 2"),
          "wrong-dimensions message names the buffer: " +
              (global_messages.empty() ? std::string("(none)") : global_messages[0]));

    // A null buffer.
    global_messages.clear();
    err = brighten(nullptr, 1.0f, 0, out);
    check(err == loom_error_code_buffer_argument_is_null, "NULL buffer gives argument_is_null");
    check(global_messages.size() == 1 && contains(global_messages[0], "input"),
          "NULL-buffer message names the buffer");

    loom_set_error_handler(nullptr);
}

void test_errors_through_context_handler() {
    context_messages.clear();
    global_messages.clear();
    loom_set_error_handler(global_handler);
    loom_call_context_t context{context_handler, nullptr, nullptr, nullptr,
                                nullptr,         nullptr, nullptr};
    Buffer<uint8_t> in(10, 10), out(10, 10);
    in.set_min(1, 0); // output 0..9 reads input 0..9, the input starts at 1
    int err = brighten_with_context(&context, in, 1.0f, 0, out);
    check(err == loom_error_code_buffer_too_small, "per-call context: error code");
    check(context_messages.size() == 1 && contains(context_messages[0], "input") &&
              global_messages.empty(),
          "per-call context handler gets the message, the global one does not");
    loom_set_error_handler(nullptr);
}

// The default handler writes to stderr and the call returns an error code.
void test_default_handler_prints() {
    loom_set_error_handler(nullptr);
    std::fflush(stderr);
    char path[] = "/tmp/loom_aot_stderr_XXXXXX";
    int fd = mkstemp(path);
    check(fd >= 0, "temporary file for stderr");
    if (fd < 0) return;
    int saved = dup(2);
    dup2(fd, 2);

    Buffer<float> floats(4, 4);
    Buffer<uint8_t> out(4, 4);
    int err = brighten(floats, 1.0f, 0, out);

    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::string text;
    if (FILE *f = std::fopen(path, "r")) {
        char chunk[256];
        size_t n;
        while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0) text.append(chunk, n);
        std::fclose(f);
    }
    close(fd);
    std::remove(path);
    check(err == loom_error_code_bad_type, "default handler: the call returns bad_type");
    check(contains(text, "Buffer input has type float32"),
          "default handler printed the message to stderr: \"" + text + "\"");
}

std::string last_message() {
    return global_messages.empty() ? std::string("(none)") : global_messages.back();
}

// Calls from C that once crashed (issue 16) return an error code and say why.
void test_bad_calls_from_c() {
    loom_set_error_handler(global_handler);
    Buffer<uint8_t> in(8, 3), out(8, 3);
    float scale = 1.0f;
    int offset = 0;

    // A buffer that claims two dimensions but has no dim array.
    loom_buffer_t no_dims = *in.raw_buffer();
    no_dims.dim = nullptr;
    global_messages.clear();
    int err = brighten(&no_dims, scale, offset, out);
    check(err == loom_error_code_buffer_argument_is_null &&
              contains(last_message(), "Buffer input has 2 dimensions but its dim pointer is NULL"),
          "dim == NULL gives an error naming the buffer: " + last_message());

    // argv itself NULL, and a NULL pointer where a scalar's value belongs.
    global_messages.clear();
    err = brighten_argv(nullptr);
    check(err == loom_error_code_generic && contains(last_message(), "brighten_argv: argv is NULL"),
          "brighten_argv(NULL) gives an error: " + last_message());
    void *argv[] = {nullptr, in.raw_buffer(), nullptr, &offset, out.raw_buffer()};
    global_messages.clear();
    err = brighten_argv(argv);
    check(err == loom_error_code_generic &&
              contains(last_message(), "argv[2] is NULL, but it must point to the value of the "
                                       "scalar argument scale"),
          "a NULL scalar pointer in argv gives an error: " + last_message());

    // An empty output of the vectorized pipeline computes nothing, successfully.
    Buffer<uint8_t> empty_in(0, 3), empty_out(0, 3);
    global_messages.clear();
    err = brighten(empty_in, scale, offset, empty_out);
    check(err == 0, "an empty output of a vectorized pipeline: " + last_message());

    // An output whose last coordinate passes 2^31 - 1.
    Buffer<uint8_t> high_in(10, 1), high_out(10, 1);
    high_in.set_min(INT32_MAX - 5, 0);
    high_out.set_min(INT32_MAX - 5, 0);
    global_messages.clear();
    err = brighten(high_in, scale, offset, high_out);
    check(err != 0 && contains(last_message(), "reaches past the largest coordinate 2147483647"),
          "an output reaching past INT_MAX gives an error: " + last_message());

    // An input whose rows are 2^30 bytes apart: element offsets pass 2^31.
    uint8_t data[64] = {0};
    loom_dimension_t shape[2] = {{0, 8, 1, 0}, {0, 3, 1 << 30, 0}};
    loom_buffer_t strided = *in.raw_buffer();
    strided.host = data;
    strided.dim = shape;
    Buffer<uint8_t> one_row(8, 1);
    global_messages.clear();
    err = brighten(&strided, scale, offset, one_row);
    check(err == loom_error_code_buffer_extents_too_large &&
              contains(last_message(), "Buffer input spans 2147483656 elements") &&
              contains(last_message(), "large_buffers"),
          "an input spanning more than 2^31 elements gives an error: " + last_message());
    loom_set_error_handler(nullptr);
}

// An input whose three rows lie 2^30 + 32 bytes apart (row 2 starts past
// byte 2^31), in a MAP_NORESERVE mapping of which a few pages are touched:
// tall (host-large_buffers) reads it right; brighten (host) refuses it.
void test_large_buffers() {
    const int64_t stride = (int64_t(1) << 30) + 32;
    const int width = 32, rows = 3;
    size_t bytes = size_t((rows - 1) * stride + width + 64);
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    check(p != MAP_FAILED, "mapping 2 GiB with MAP_NORESERVE");
    if (p == MAP_FAILED) return;
    auto *data = static_cast<uint8_t *>(p);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < width; x++) data[y * stride + x] = uint8_t(x * 7 + y * 40);
    loom_dimension_t shape[2] = {{0, width, 1, 0}, {0, rows, int32_t(stride), 0}};
    Buffer<uint8_t> in(data, 2, shape), out(width, rows);
    int err = tall(in, out);
    check(err == 0, "tall (large_buffers) on an input spanning 2^31 + 96 bytes");
    bool right = true;
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < width; x++)
            right = right && out(x, y) == uint8_t(data[y * stride + x] + data[x]);
    check(right, "tall (large_buffers) reads rows past byte 2^31 right");

    loom_set_error_handler(global_handler);
    global_messages.clear();
    Buffer<uint8_t> out32(width, rows);
    err = brighten(in, 1.0f, 0, out32);
    check(err == loom_error_code_buffer_extents_too_large &&
              contains(last_message(), "Buffer input spans 2147483744 elements") &&
              contains(last_message(), "add the large_buffers target feature"),
          "without large_buffers the same input is refused: " + last_message());
    loom_set_error_handler(nullptr);
    munmap(p, bytes);
}

} // namespace

int main() {
    test_brighten();
    test_blur();
    test_errors_through_global_handler();
    test_errors_through_context_handler();
    test_default_handler_prints();
    test_bad_calls_from_c();
    test_large_buffers();
    if (failures) {
        std::printf("%d check(s) failed\n", failures);
        return 1;
    }
    std::printf("aot_client: all checks passed\n");
    return 0;
}
