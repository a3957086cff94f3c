#ifndef LOOM_OUTPUT_FILE_TYPE_H
#define LOOM_OUTPUT_FILE_TYPE_H

/** \file OutputFileType: the kinds of file Pipeline::compile_to writes,
 * with Halide's names. */

namespace loom {

/** One kind of output file of Pipeline::compile_to / Func::compile_to.
 * Halide's compiler_log, cpp_stub, featurization, function_info_header,
 * hlpipe, python_extension, pytorch_wrapper, registration and schedule
 * exist so that ports compile; compile_to refuses them with a CompileError
 * (the generator driver writes Loom's registration and schedule files). */
enum class OutputFileType {
    assembly,
    bitcode,
    c_header,
    c_source,
    compiler_log,
    conceptual_stmt,
    conceptual_stmt_html,
    cpp_stub,
    device_code,
    featurization,
    function_info_header,
    hlpipe,
    llvm_assembly,
    object,
    python_extension,
    pytorch_wrapper,
    registration,
    schedule,
    static_library,
    stmt,
    stmt_html,
};

} // namespace loom

#endif
