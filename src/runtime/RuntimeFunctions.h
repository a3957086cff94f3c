#ifndef LOOM_RUNTIME_FUNCTIONS_H
#define LOOM_RUNTIME_FUNCTIONS_H

/* Functions of the runtime that generated code calls. All take the hidden
 * user context first. Error functions format a message, report it through
 * loom_report_error and return their (negative) error code.
 * Each returns the matching loom_error_code_* value of LoomRuntime.h. */

#include "LoomRuntime.h"

#ifdef __cplusplus
extern "C" {
#endif

int loom_error_buffer_argument_is_null(void *uc, const char *buffer_name);
int loom_error_bad_type(void *uc, const char *buffer_name, int32_t actual_code, int32_t actual_bits,
                        int32_t actual_lanes, int32_t expected_code, int32_t expected_bits,
                        int32_t expected_lanes);
int loom_error_bad_dimensions(void *uc, const char *buffer_name, int32_t actual, int32_t expected);
/* 1 when buffer `b` has dimensions but no dim array (a C caller's mistake);
 * reports nothing. */
int loom_buffer_dim_is_null(void *uc, const loom_buffer_t *b);
int loom_error_buffer_dim_is_null(void *uc, const char *buffer_name, int32_t dimensions);
/* Buffer `buffer_name` is read (or written, for outputs) over [req_min, req_max]
 * in dimension `dim` by Func `func_name` but covers only [actual_min, actual_max]. */
int loom_error_buffer_too_small(void *uc, const char *func_name, const char *buffer_name,
                                int32_t dim, int64_t req_min, int64_t req_max, int64_t actual_min,
                                int64_t actual_max);
/* Buffer `buffer_name`'s dimension `dim` has a negative extent, or ends past
 * the largest int32 coordinate. */
int loom_error_buffer_bad_extent(void *uc, const char *buffer_name, int32_t dim, int32_t min,
                                 int32_t extent);
/* bound() of Func `func_name` (`bound_text`, e.g. "bound(x, 0, 16)") fixes dimension `dim`
 * to [bound_min, bound_max], but the output buffer is [actual_min, actual_max]
 * (is_output != 0) or the pipeline needs [actual_min, actual_max] of it. */
int loom_error_bound_violated(void *uc, const char *func_name, const char *bound_text, int32_t dim,
                              int32_t bound_min, int32_t bound_max, int32_t actual_min,
                              int32_t actual_max, int32_t is_output);
/* Buffer `buffer_name`'s elements lie `actual` elements apart, more than the
 * `max` its offsets reach (2^31 - 1, or 2^63 - 1 with large_buffers). */
int loom_error_buffer_extents_too_large(void *uc, const char *buffer_name, int64_t actual,
                                        int64_t max);
/* The storage of Func `func_name` (an internal allocation) holds `elements`
 * elements, more than `max` (as above; with large_buffers, `elements` is
 * only known to pass it). */
int loom_error_allocation_too_large(void *uc, const char *func_name, int64_t elements, int64_t max);
int loom_error_constraint_violated(void *uc, const char *what, int32_t value,
                                   const char *constraint, int32_t constraint_value);
int loom_error_param_too_small_i64(void *uc, const char *param_name, int64_t value, int64_t min);
int loom_error_param_too_large_i64(void *uc, const char *param_name, int64_t value, int64_t max);
int loom_error_param_too_small_f64(void *uc, const char *param_name, double value, double min);
int loom_error_param_too_large_f64(void *uc, const char *param_name, double value, double max);
int loom_error_out_of_memory(void *uc);
int loom_error_message(void *uc, const char *message); /* generic */
/* Func `func_name` splits `var_name` by `factor` with a tail strategy (`tail_name`) that
 * shifts the last iteration inwards, but the extent of `var_name` is only `extent`. */
int loom_error_split_too_small(void *uc, const char *func_name, const char *var_name,
                               const char *tail_name, int32_t factor, int32_t extent);
/* No specialize() condition held and the stage ends in specialize_fail(message). */
int loom_error_specialize_fail(void *uc, const char *message);

/* Bounds-query mode (buffer `b` has no host memory): sets dimension `dim`
 * of `b` to [min, min + extent) with a dense stride; dimensions are set in
 * order. Returns 0. */
int loom_bounds_query_set_dim(void *uc, loom_buffer_t *b, int32_t dim, int32_t min, int32_t extent);

/* Memory for Allocate nodes on the heap (64-byte aligned). Without a
 * custom malloc handler, freed blocks of 64 KiB and more are kept for the
 * next loom_malloc (up to LOOM_ALLOCATION_CACHE bytes, default 512 MiB;
 * "off" keeps none). */
void *loom_malloc(void *uc, size_t bytes);
void loom_free(void *uc, void *ptr);
/* Frees the blocks loom_free kept; the next one reads LOOM_ALLOCATION_CACHE
 * again. */
void loom_release_allocation_cache(void);
/* The bytes loom_free keeps now (for tests). */
int64_t loom_allocation_cache_bytes(void);

/* Parallel loops: calls task(user_context, i, closure) for every i in
 * [min, min + extent) on the thread pool (the calling thread helps) and returns
 * 0, or the first nonzero value a task returned (indices not started by then
 * are skipped). Nested calls from inside a task are fine. A context with a
 * do_par_for_handler runs the loop through it instead. The pool has
 * LOOM_NUM_THREADS threads (default: the core count), created on first use. */
int loom_do_par_for(void *user_context,
                    int (*task)(void *user_context, int index, uint8_t *closure), int min,
                    int extent, uint8_t *closure);
/* loom_do_par_for on the thread pool, ignoring the context's
 * do_par_for_handler (which may call it for the work it does not take). */
int loom_default_do_par_for(void *user_context,
                            int (*task)(void *user_context, int index, uint8_t *closure), int min,
                            int extent, uint8_t *closure);
/* The pool's thread count (including the calling thread). */
int loom_get_num_threads(void);
/* Resize the pool (n <= 0: back to the default); returns the previous count.
 * Meant for tests and set-up: call it while no parallel loop runs. */
int loom_set_num_threads(int n);

/* Streaming (non-temporal) stores: generated code writes an output buffer of
 * at least this many bytes with streaming stores where its loops allow
 * (lower/StreamingStores.cpp). Read once from LOOM_STREAMING_STORES (0/off:
 * never, 1/on/always: any size, or a byte count with an optional k/m/g
 * suffix), by default half the last-level cache (16 MiB when unknown); the
 * value is cached. INT64_MAX means never. */
int64_t loom_streaming_store_threshold(void *uc);
/* For tests: the next loom_streaming_store_threshold() reads the environment again. */
void loom_reset_streaming_store_threshold(void);

/* ---- GPU (see src/lower/DeviceKernel.h for the kernels' side) ----
 * Device-API-generic calls generated host code makes around kernels; each
 * returns 0 or a negative loom_error_code_t after reporting a message. */

/* Launches kernel `kernel_name` of `source` (the device source of all the
 * pipeline's kernels of `device_api`, one program) on a grid of
 * blocks_x*y*z blocks of threads_x*y*z threads. The program is built once
 * per context and cached (memory and disk); the kernel object once.
 * Asynchronous: errors of the kernel itself surface at the next copy or sync.
 * OpenCL reads LOOM_OCL_DEVICE_TYPE (cpu|gpu|accelerator|all; default a gpu,
 * else any device) and LOOM_OCL_PLATFORM_NAME (a substring) when it first
 * creates its context, LOOM_OCL_BUILD_OPTIONS (added to the build options)
 * and LOOM_KERNEL_CACHE_DIR (default $XDG_CACHE_HOME/loom/kernels or
 * ~/.cache/loom/kernels; empty: no disk cache) when it builds a program;
 * LOOM_DEBUG >= 1 prints each program's source once per process.
 * CUDA (cuda_*.cpp) runs in the primary context of device LOOM_CUDA_DEVICE
 * (default 0) unless loom_cuda_set_context / loom_cuda_set_context_hooks
 * chose another; `source` is CUDA C, compiled with NVRTC for the device's
 * compute capability (options from LOOM_NVRTC_OPTIONS; disk cache as
 * above), or an AOT CUDA bundle (cuda_compile.h) whose best image is loaded;
 * LOOM_DEBUG >= 1 prints NVRTC's ptxas report once per program.
 * `arg_kinds` has one letter per kernel argument, in order:
 *   'b'  args[i] holds a loom_buffer_t * with a device allocation of this API;
 *   '1' '2' '4' '8'  a scalar of that many bytes in the low bytes of args[i];
 *   's'  (last only) the kernel's dynamic shared/local memory, shared_bytes
 *        long (args[i] unused; CUDA kernels take it as extern __shared__
 *        memory, not as a parameter).
 * shared_bytes is the dynamic shared memory of the launch (0 when none). */
int loom_device_run(void *uc, int32_t device_api, const char *source, const char *kernel_name,
                    int32_t blocks_x, int32_t blocks_y, int32_t blocks_z, int32_t threads_x,
                    int32_t threads_y, int32_t threads_z, int32_t shared_bytes,
                    const char *arg_kinds, const uint64_t *args);

/* What one block of a kernel may use on the device the runtime runs
 * device_api's kernels on (the JIT checks kernels of constant block size
 * against it at compile time; launches check again). */
typedef struct loom_device_limits_t {
    int64_t max_threads_per_block;
    int64_t max_threads[3];   /* per dimension */
    int64_t max_shared_bytes; /* shared (local) memory per block */
    char device_name[128];
} loom_device_limits_t;

/* Fills *limits for the device of device_api (initializing the API if it
 * was not yet); returns 0, or an error code (reported through uc) when the
 * API has no device here. */
int loom_device_get_limits(void *uc, int32_t device_api, loom_device_limits_t *limits);

/* Generated-code forms of the buffer operations in LoomRuntime.h, taking the
 * device API as a number (loom_device_api_t). */
int loom_buffer_copy_to_device(void *uc, loom_buffer_t *b, int32_t device_api);
int loom_buffer_copy_to_host(void *uc, loom_buffer_t *b);
int loom_buffer_set_host_dirty(void *uc, loom_buffer_t *b, int32_t dirty);
int loom_buffer_set_device_dirty(void *uc, loom_buffer_t *b, int32_t dirty);

/* Before a kernel reads b: device memory of this API (moving b off another
 * API first), then a host -> device copy when the host copy is newer or the
 * device memory is new and b has host memory. */
int loom_buffer_prepare_device_input(void *uc, loom_buffer_t *b, int32_t device_api);
/* Before a kernel only writes b: device memory of this API; a copy only
 * when the host copy is newer (the kernel may not write all of b). */
int loom_buffer_prepare_device_output(void *uc, loom_buffer_t *b, int32_t device_api);

/* A pipeline-internal buffer of `bytes` bytes (1-D, UInt(8)) whose device
 * memory kernels use; `host` (may be NULL) is its host memory, when host
 * code also reads or writes it. Returns NULL after reporting an error. */
loom_buffer_t *loom_device_buffer_create(void *uc, void *host, int64_t bytes, int32_t device_api);
/* Frees the device memory of a buffer from loom_device_buffer_create, and it. */
int loom_device_buffer_destroy(void *uc, loom_buffer_t *b);

/* For tests and tools: how many device programs of `device_api` this process
 * built from source and loaded from the disk kernel cache (either pointer
 * may be NULL). */
void loom_device_program_stats(int32_t device_api, int64_t *built_from_source,
                               int64_t *loaded_from_cache);
/* For tests: releases all state of `device_api` (kernels, programs, pooled
 * memory, context, queue), so that the next use chooses the device again from
 * the environment. Fails (returns an error code) while device allocations,
 * crops or wrapped handles of the API are live. */
int loom_device_reset(void *uc, int32_t device_api);

/* print()/print_when(): writes a line to stderr. */
void loom_print(void *uc, const char *message);
/* With LOOM_TRACE_FILE or HL_TRACE_FILE set: appends the event, with id
 * `id`, to that file as a binary packet (trace_file.cpp) and returns 1;
 * otherwise (or when the file cannot be opened) returns 0. */
int loom_trace_file_write(void *uc, const loom_trace_event_t *event, int32_t id);
/* One trace event (lower/InjectTracing.cpp): builds a loom_trace_event_t of
 * the arguments and passes it to the context's trace_handler, else to
 * loom_default_trace; returns the handler's id. */
int32_t loom_trace(void *uc, const char *func, void *value, int32_t *coordinates, int32_t type_code,
                   int32_t type_bits, int32_t type_lanes, int32_t event_code, int32_t parent_id,
                   int32_t value_index, int32_t dimensions, const char *trace_tag);

#ifdef __cplusplus
}
#endif

#endif
