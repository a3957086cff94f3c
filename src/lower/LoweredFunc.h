#ifndef LOOM_LOWER_LOWERED_FUNC_H
#define LOOM_LOWER_LOWERED_FUNC_H

// The result of lowering: one entry point as a statement over its arguments.
// This is the contract between lowering and every code generator.
//
// Inside `body`:
//  - each scalar argument `p` is the Variable "p" of its type;
//  - each buffer argument `b` is the Variable "b.buffer" of Handle type (a
//    loom_buffer_t *); lowering binds "b" (host pointer), "b.min.<d>",
//    "b.extent.<d>" and "b.stride.<d>" with LetStmts of buffer_get_* calls;
//  - "__user_context" (Handle) is the hidden context pointer, passed as the
//    first argument of every Extern call to the runtime's error functions;
//  - Load/Store name a buffer argument's host pointer or an Allocate, and
//    index it in elements (Int(32) indices);
//  - AssertStmt's message is an Int(32) Extern call returning an error code;
//    a failing assert returns that code from the entry point.
// A generator emits:  int NAME(args...)                  public, context NULL
//                     int NAME_argv(void **argv)          argv[0] = user context,
//                         argv[i+1] = loom_buffer_t * for buffers, or a
//                         pointer to the value for scalars
//                     const loom_pipeline_metadata_t *NAME_metadata()

#include <map>
#include <string>
#include <vector>

#include "ir/IR.h"
#include "lower/DeviceKernel.h"

namespace loom {
namespace Internal {

struct LoweredArgument {
    enum Kind { InputScalar, InputBuffer, OutputBuffer };
    std::string name;
    Kind kind = InputScalar;
    Type type;          // element type for buffers
    int dimensions = 0; // 0 for scalars
    Parameter param;    // for Params, ImageParams and output buffers
    Buffer<> buffer;    // for concrete Buffers the pipeline reads

    bool is_buffer() const { return kind != InputScalar; }
};

struct LoweredFunc {
    std::string name;
    std::vector<LoweredArgument> args;
    Stmt body;
    /** Concrete Buffers the body reads that are not arguments: ahead-of-time
     * outputs embed them in the object as constant data (see
     * embed_concrete_buffers in src/aot). Inside `body` they look like
     * buffer arguments ("b.buffer" and the rest). Empty after lower(). */
    std::vector<LoweredArgument> embedded_buffers;
    /** GPU kernels the body launches (lower/OutlineGPUKernels.h), and the
     * device source of each API holding them, which the launches carry. */
    std::vector<DeviceKernel> kernels;
    std::map<DeviceAPI, std::string> device_sources;
    /** The body before device and host lowering (GPU loops in place, no
     * kernels outlined, no copies): compile_to_conceptual_stmt prints it. */
    Stmt conceptual_body;
};

} // namespace Internal
} // namespace loom

#endif
