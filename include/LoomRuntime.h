#ifndef LOOM_RUNTIME_H
#define LOOM_RUNTIME_H

/* The C ABI shared by generated code, the JIT and AOT users. Plain C, no
 * dependencies beyond <stdint.h>, stable across Loom versions of one major. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Kinds of element types, matching loom::Type::Code. */
typedef enum loom_type_code_t {
    loom_type_int = 0,
    loom_type_uint = 1,
    loom_type_float = 2,
    loom_type_handle = 3,
    loom_type_bfloat = 4 /* brain float: the upper 16 bits of a float32 */
} loom_type_code_t;

/** An element type: code, bits per lane, lanes. */
typedef struct loom_type_t {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} loom_type_t;

/** One dimension of a buffer: the first coordinate, the number of
 * coordinates, and the distance in elements between neighbours. */
typedef struct loom_dimension_t {
    int32_t min;
    int32_t extent;
    int32_t stride;
    uint32_t flags;
} loom_dimension_t;

struct loom_device_interface_t;
struct loom_buffer_t;

/** Device APIs a pipeline can run kernels on (loom::DeviceAPI's GPU values). */
typedef enum loom_device_api_t {
    loom_device_api_none = 0,
    loom_device_api_opencl = 1,
    loom_device_api_cuda = 2
} loom_device_api_t;

/** The operations of one device API on buffers, in Halide's shape. A buffer
 * with a device allocation points at the table that made it
 * (loom_buffer_t::device_interface). Each returns 0 or a negative
 * loom_error_code_t after reporting a message. */
typedef struct loom_device_interface_t {
    /* Allocate device memory for the buffer's whole span (buffer->device). */
    int (*device_malloc)(void *user_context, struct loom_buffer_t *buffer,
                         const struct loom_device_interface_t *device_interface);
    /* Release the buffer's device memory (a no-op without any); a crop or
     * slice is released as by device_release_crop, a wrapped native handle
     * is only forgotten (its owner frees it). */
    int (*device_free)(void *user_context, struct loom_buffer_t *buffer);
    /* Wait for all work touching the buffer (NULL: all work) to finish. */
    int (*device_sync)(void *user_context, struct loom_buffer_t *buffer);
    /* Device -> host when device-dirty; clears the flag. */
    int (*copy_to_host)(void *user_context, struct loom_buffer_t *buffer);
    /* Allocates when needed; host -> device when host-dirty, or when the
     * device memory is new and the buffer has host memory (new device memory
     * holds nothing yet); clears host-dirty. Dirty on both sides is an error. */
    int (*copy_to_device)(void *user_context, struct loom_buffer_t *buffer,
                          const struct loom_device_interface_t *device_interface);
    /* Copies src into dst where they overlap (host or device on either side). */
    int (*buffer_copy)(void *user_context, struct loom_buffer_t *src,
                       const struct loom_device_interface_t *dst_device_interface,
                       struct loom_buffer_t *dst);
    /* dst (already shaped as a crop of src) shares src's device memory. */
    int (*device_crop)(void *user_context, const struct loom_buffer_t *src,
                       struct loom_buffer_t *dst);
    /* dst (already shaped as slice `pos` of dimension `dim` of src) shares its memory. */
    int (*device_slice)(void *user_context, const struct loom_buffer_t *src, int dim, int pos,
                        struct loom_buffer_t *dst);
    /* Undo device_crop/device_slice on dst. */
    int (*device_release_crop)(void *user_context, struct loom_buffer_t *buffer);
    /* Wrap a native handle (cl_mem, CUdeviceptr) the caller keeps owning. */
    int (*wrap_native)(void *user_context, struct loom_buffer_t *buffer, uint64_t handle,
                       const struct loom_device_interface_t *device_interface);
    /* Forget a wrapped native handle without freeing it. */
    int (*detach_native)(void *user_context, struct loom_buffer_t *buffer);
    /* Drop cached programs, kernels and pooled allocations of this API. */
    void (*release)(void *user_context);
    const char *name;   /* "OpenCL", "CUDA" */
    int32_t device_api; /* loom_device_api_t */
} loom_device_interface_t;

/** Flags of loom_buffer_t::flags. */
enum { loom_buffer_flag_host_dirty = 1, loom_buffer_flag_device_dirty = 2 };

/** A view of (possibly device-resident) memory with up to any number of
 * dimensions. Generated entry points take every image as a loom_buffer_t *. */
typedef struct loom_buffer_t {
    uint64_t device;                                        /* device handle; 0 when none */
    const struct loom_device_interface_t *device_interface; /* API owning `device`, or NULL */
    uint8_t *host;                                          /* element at the mins of all dims */
    uint64_t flags;
    loom_type_t type;
    int32_t dimensions;
    loom_dimension_t *dim;
    void *padding;
} loom_buffer_t;

/** Error codes returned by generated entry points (0 is success). */
typedef enum loom_error_code_t {
    loom_success = 0,
    loom_error_code_generic = -1,
    loom_error_code_buffer_too_small = -2,
    loom_error_code_bad_type = -3,
    loom_error_code_bad_dimensions = -4,
    loom_error_code_constraint_violated = -5,
    loom_error_code_param_out_of_range = -6,
    loom_error_code_buffer_argument_is_null = -7,
    loom_error_code_out_of_memory = -8,
    loom_error_code_buffer_extents_too_large = -9,
    loom_error_code_explicit_bounds_too_small = -10,
    loom_error_code_device = -11,
    loom_error_code_specialize_fail = -12
} loom_error_code_t;

/** What a trace event reports (Halide's halide_trace_event_code_t, same
 * values). */
typedef enum loom_trace_event_code_t {
    loom_trace_load = 0,
    loom_trace_store = 1,
    loom_trace_begin_realization = 2,
    loom_trace_end_realization = 3,
    loom_trace_produce = 4,
    loom_trace_end_produce = 5,
    loom_trace_consume = 6,
    loom_trace_end_consume = 7,
    loom_trace_begin_pipeline = 8,
    loom_trace_end_pipeline = 9,
    loom_trace_tag = 10
} loom_trace_event_code_t;

/** One event of a traced pipeline (Halide's halide_trace_event_t).
 * Loads and stores: `value` points at the element (type.lanes is 1: Loom
 * traces vector accesses one lane at a time) and `coordinates` holds its
 * `dimensions` coordinates. Realization, produce and consume events:
 * `coordinates` holds min and extent per dimension (`dimensions` is twice
 * the Func's dimension count); `value` is NULL. Pipeline events: `func` is
 * the pipeline's name, no coordinates. Tag events carry `trace_tag`. The
 * pointers are valid only during the handler's call. */
typedef struct loom_trace_event_t {
    const char *func;
    void *value;
    int32_t *coordinates;
    const char *trace_tag;
    loom_type_t type;
    int32_t event; /* a loom_trace_event_code_t */
    int32_t parent_id;
    int32_t value_index;
    int32_t dimensions;
} loom_trace_event_t;

/** Per-call context passed as the hidden first argument of generated code.
 * When the context is NULL or its error handler is NULL, errors go to the
 * global handler (see loom_set_error_handler); when its print handler is
 * NULL, print() output goes to stderr. (A context brace-initialized with
 * the first two members only has no print handler.) */
typedef struct loom_call_context_t {
    void (*error_handler)(struct loom_call_context_t *context, const char *message);
    void *user_data;
    /** Receives each line of print()/print_when() output of the call. */
    void (*print_handler)(struct loom_call_context_t *context, const char *message);
    /** Heap memory of the call's allocations (NULL: the runtime's own).
     * malloc_handler may return memory of any alignment: the runtime asks
     * for a little more and aligns it. Memory from it goes back through
     * free_handler (NULL: free()), given the pointer malloc_handler
     * returned. */
    void *(*malloc_handler)(struct loom_call_context_t *context, size_t bytes);
    void (*free_handler)(struct loom_call_context_t *context, void *ptr);
    /** Runs the call's parallel loops instead of the thread pool: must call
     * task(context, i, closure) once for every i in [min, min + extent) and
     * return 0, or a nonzero value a task returned. */
    int (*do_par_for_handler)(struct loom_call_context_t *context,
                              int (*task)(void *context, int index, uint8_t *closure), int min,
                              int extent, uint8_t *closure);
    /** Receives the call's trace events (NULL: loom_default_trace) and
     * returns an id: begin_pipeline, begin_realization, produce and consume
     * events pass theirs as parent_id of the events inside them. */
    int32_t (*trace_handler)(struct loom_call_context_t *context, const loom_trace_event_t *event);
} loom_call_context_t;

/** The default trace handler: prints the event as one line through the
 * call's print handler (stderr by default), e.g. `Store f.0(3, 4) = 7`, and
 * returns a process-wide increasing id. When the environment variable
 * LOOM_TRACE_FILE (or Halide's HL_TRACE_FILE) names a file, it appends the
 * event to that file instead, as a binary packet in the layout of Halide's
 * halide_trace_packet_t (what HalideTraceViz reads): uint32 size, int32 id,
 * the loom_type_t, int32 event, parent_id, value_index and dimensions, then
 * the int32 coordinates, the value's bytes (type.lanes elements; zeros for
 * events without a value), the func name and the trace tag, each ending in
 * NUL, padded with zeros to a multiple of 4 bytes; `size` counts all of it.
 * Packets of concurrent calls do not interleave; the file is flushed at
 * each end_pipeline event and at exit. */
int32_t loom_default_trace(void *user_context, const loom_trace_event_t *event);

/** Flushes and closes the trace file of loom_default_trace (Halide's
 * halide_shutdown_trace); the next event opens it again. Returns 0, or
 * loom_error_code_generic if writing it failed. */
int loom_shutdown_trace(void);

/** Global error handler: called with the user context (may be NULL) and a
 * message. The default prints the message to stderr; it never aborts. */
typedef void (*loom_error_handler_t)(void *user_context, const char *message);

/** Replace the global error handler; returns the previous one. Passing NULL
 * restores the default. */
loom_error_handler_t loom_set_error_handler(loom_error_handler_t handler);

/** Report an error message through the context's handler or the global one. */
void loom_report_error(void *user_context, const char *message);

/** The device interface of an API, or NULL when this runtime has none for it
 * (the driver library is loaded only when a buffer or kernel needs it). */
const loom_device_interface_t *loom_device_interface_for(int32_t device_api);
const loom_device_interface_t *loom_opencl_device_interface(void);
const loom_device_interface_t *loom_cuda_device_interface(void);

/** Where CUDA work runs. By default every CUDA operation runs in the
 * primary context of the device LOOM_CUDA_DEVICE names (default 0), on that
 * context's NULL stream. Either choice below replaces that for the whole
 * process; the context is made current around each operation, on whatever
 * thread runs it, and the caller's current context is left as it was.
 * Before destroying a context (or stream) given here, wait for the work on
 * it and call loom_cuda_device_interface()->release(NULL): Loom keeps the
 * modules and pooled memory of each context it has used. A buffer's device
 * memory belongs to the context it was allocated in. */

/** Run all CUDA work in `cu_context` (a CUcontext) on `cu_stream` (a
 * CUstream of that context; NULL: the context's NULL stream). A NULL
 * context goes back to the primary context. */
void loom_cuda_set_context(void *cu_context, void *cu_stream);

/** Choose the context and stream per call (Halide's
 * halide_cuda_acquire_context / halide_cuda_get_stream, as hooks set at run
 * time rather than weak symbols). acquire is called before each CUDA
 * operation with the call's user context (the loom_call_context_t * given
 * to a generated function, so a struct that starts with one can carry the
 * caller's context and stream; in JIT use it is Loom's own context, which
 * hooks must not read); it stores a CUcontext in *cu_context (left
 * NULL: the default above) and a CUstream in *cu_stream, and returns 0, or
 * nonzero to fail the operation. release (may be NULL) is called after the
 * operation with the context acquire gave. Frees of device memory call no
 * hook: memory knows its context. NULL hooks: the default again. */
typedef struct loom_cuda_context_hooks_t {
    int (*acquire)(void *user_context, void **cu_context, void **cu_stream);
    void (*release)(void *user_context, void *cu_context);
} loom_cuda_context_hooks_t;
void loom_cuda_set_context_hooks(const loom_cuda_context_hooks_t *hooks);

/** Buffer operations that dispatch through buffer->device_interface (or
 * through the interface given). Each returns 0 or a negative error code. */
int loom_device_malloc(void *user_context, loom_buffer_t *buffer,
                       const loom_device_interface_t *device_interface);
int loom_device_free(void *user_context, loom_buffer_t *buffer);
int loom_device_sync(void *user_context, loom_buffer_t *buffer);
int loom_copy_to_host(void *user_context, loom_buffer_t *buffer);
int loom_copy_to_device(void *user_context, loom_buffer_t *buffer,
                        const loom_device_interface_t *device_interface);
int loom_device_wrap_native(void *user_context, loom_buffer_t *buffer,
                            const loom_device_interface_t *device_interface, uint64_t handle);
int loom_device_detach_native(void *user_context, loom_buffer_t *buffer);
/** Device allocations, crops and slices made through the runtime and not yet
 * freed (blocks kept in the runtime's pool for reuse and wrapped native
 * handles not counted): tests check that pipelines free what they allocate. */
int64_t loom_device_live_allocations(void);

/** Does the running CPU have every instruction-set extension in `features`,
 * a comma-separated list of LLVM/GCC x86 names ("sse4.1,avx,avx2,fma")?
 * 1 if so; 0 if not, or if a name is unknown or the CPU is no x86. An empty
 * list is 1. The wrapper of a multitarget library calls it to pick the
 * variant its CPU runs. */
int loom_can_use_cpu_features(const char *features);

/** Description of one argument of a generated entry point (for metadata). */
typedef enum loom_argument_kind_t {
    loom_argument_kind_input_scalar = 0,
    loom_argument_kind_input_buffer = 1,
    loom_argument_kind_output_buffer = 2
} loom_argument_kind_t;

typedef struct loom_argument_t {
    const char *name;
    int32_t kind;       /* loom_argument_kind_t */
    int32_t dimensions; /* 0 for scalars */
    loom_type_t type;
} loom_argument_t;

typedef struct loom_pipeline_metadata_t {
    int32_t version;
    int32_t num_arguments;
    const loom_argument_t *arguments;
    const char *target;
    const char *name;
} loom_pipeline_metadata_t;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif
