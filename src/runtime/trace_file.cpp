// Binary trace files: with LOOM_TRACE_FILE (or Halide's HL_TRACE_FILE) set,
// the default trace handler appends each event to that file in the layout
// of Halide's halide_trace_packet_t (see loom_default_trace in
// LoomRuntime.h), so that tools written for Halide's trace files read it.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "RuntimeFunctions.h"

namespace {

/** The open trace file; one per process, as the environment is. */
struct TraceFile {
    std::mutex mutex;
    std::string path;   // the file `file` is open on
    std::string failed; // a path that could not be opened (reported once)
    FILE *file = nullptr;

    ~TraceFile() { close(); }
    int close() {
        int result = 0;
        if (file && std::fclose(file) != 0) result = loom_error_code_generic;
        file = nullptr;
        path.clear();
        return result;
    }
};

TraceFile &trace_file() {
    static TraceFile t;
    return t;
}

const char *trace_file_name() {
    const char *name = std::getenv("LOOM_TRACE_FILE");
    if (!name || !*name) name = std::getenv("HL_TRACE_FILE");
    return name && *name ? name : nullptr;
}

void put_u32(std::vector<uint8_t> &p, size_t at, uint32_t v) {
    std::memcpy(p.data() + at, &v, sizeof(v));
}

/** The event as one packet. */
std::vector<uint8_t> packet(const loom_trace_event_t *e, int32_t id) {
    const size_t header = 28;
    int dimensions = e->dimensions > 0 && e->coordinates ? e->dimensions : 0;
    size_t coordinate_bytes = size_t(dimensions) * sizeof(int32_t);
    size_t value_bytes = size_t(e->type.lanes) * ((e->type.bits + 7) / 8);
    const char *func = e->func ? e->func : "";
    const char *tag = e->trace_tag ? e->trace_tag : "";
    size_t func_bytes = std::strlen(func) + 1, tag_bytes = std::strlen(tag) + 1;
    size_t size = header + coordinate_bytes + value_bytes + func_bytes + tag_bytes;
    size = (size + 3) & ~size_t(3);
    std::vector<uint8_t> p(size, 0);
    put_u32(p, 0, uint32_t(size));
    put_u32(p, 4, uint32_t(id));
    p[8] = e->type.code;
    p[9] = e->type.bits;
    std::memcpy(p.data() + 10, &e->type.lanes, sizeof(e->type.lanes));
    put_u32(p, 12, uint32_t(e->event));
    put_u32(p, 16, uint32_t(e->parent_id));
    put_u32(p, 20, uint32_t(e->value_index));
    put_u32(p, 24, uint32_t(dimensions));
    size_t at = header;
    if (coordinate_bytes) std::memcpy(p.data() + at, e->coordinates, coordinate_bytes);
    at += coordinate_bytes;
    if (e->value && value_bytes) std::memcpy(p.data() + at, e->value, value_bytes);
    at += value_bytes;
    std::memcpy(p.data() + at, func, func_bytes);
    std::memcpy(p.data() + at + func_bytes, tag, tag_bytes);
    return p;
}

} // namespace

extern "C" int loom_trace_file_write(void *user_context, const loom_trace_event_t *event,
                                     int32_t id) {
    const char *name = trace_file_name();
    TraceFile &t = trace_file();
    std::vector<uint8_t> bytes;
    if (name) bytes = packet(event, id);
    std::lock_guard<std::mutex> lock(t.mutex);
    // The variable is read at every event, so a program (or a test) may set
    // it, or point it elsewhere, between runs.
    if (!name) {
        if (t.file) t.close();
        return 0;
    }
    if (t.path != name) {
        t.close();
        t.file = std::fopen(name, "ab");
        if (!t.file) {
            if (t.failed != name) {
                t.failed = name;
                std::string message = std::string("Loom: cannot open the trace file ") + name +
                                      " for appending; trace events are printed instead";
                loom_print(user_context, message.c_str());
            }
            return 0;
        }
        t.path = name;
    }
    std::fwrite(bytes.data(), 1, bytes.size(), t.file);
    if (event->event == loom_trace_end_pipeline) std::fflush(t.file);
    return 1;
}

extern "C" int loom_shutdown_trace(void) {
    TraceFile &t = trace_file();
    std::lock_guard<std::mutex> lock(t.mutex);
    return t.close();
}
