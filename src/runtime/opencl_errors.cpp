// OpenCL error codes by name, so that every failure says "CL_OUT_OF_RESOURCES"
// rather than -5, together with the call that failed and what it was for.

#include "opencl_internal.h"

namespace loom_rt {

std::string cl_error_name(cl_int err) {
    switch (err) {
#define LOOM_CL_ERROR(name)                                                                        \
    case name:                                                                                     \
        return #name;
        LOOM_CL_ERROR(CL_SUCCESS)
        LOOM_CL_ERROR(CL_DEVICE_NOT_FOUND)
        LOOM_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
        LOOM_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
        LOOM_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        LOOM_CL_ERROR(CL_OUT_OF_RESOURCES)
        LOOM_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
        LOOM_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
        LOOM_CL_ERROR(CL_MEM_COPY_OVERLAP)
        LOOM_CL_ERROR(CL_IMAGE_FORMAT_MISMATCH)
        LOOM_CL_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        LOOM_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
        LOOM_CL_ERROR(CL_MAP_FAILURE)
        LOOM_CL_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        LOOM_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        LOOM_CL_ERROR(CL_COMPILE_PROGRAM_FAILURE)
        LOOM_CL_ERROR(CL_LINKER_NOT_AVAILABLE)
        LOOM_CL_ERROR(CL_LINK_PROGRAM_FAILURE)
        LOOM_CL_ERROR(CL_DEVICE_PARTITION_FAILED)
        LOOM_CL_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        LOOM_CL_ERROR(CL_INVALID_VALUE)
        LOOM_CL_ERROR(CL_INVALID_DEVICE_TYPE)
        LOOM_CL_ERROR(CL_INVALID_PLATFORM)
        LOOM_CL_ERROR(CL_INVALID_DEVICE)
        LOOM_CL_ERROR(CL_INVALID_CONTEXT)
        LOOM_CL_ERROR(CL_INVALID_QUEUE_PROPERTIES)
        LOOM_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
        LOOM_CL_ERROR(CL_INVALID_HOST_PTR)
        LOOM_CL_ERROR(CL_INVALID_MEM_OBJECT)
        LOOM_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        LOOM_CL_ERROR(CL_INVALID_IMAGE_SIZE)
        LOOM_CL_ERROR(CL_INVALID_SAMPLER)
        LOOM_CL_ERROR(CL_INVALID_BINARY)
        LOOM_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
        LOOM_CL_ERROR(CL_INVALID_PROGRAM)
        LOOM_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
        LOOM_CL_ERROR(CL_INVALID_KERNEL_NAME)
        LOOM_CL_ERROR(CL_INVALID_KERNEL_DEFINITION)
        LOOM_CL_ERROR(CL_INVALID_KERNEL)
        LOOM_CL_ERROR(CL_INVALID_ARG_INDEX)
        LOOM_CL_ERROR(CL_INVALID_ARG_VALUE)
        LOOM_CL_ERROR(CL_INVALID_ARG_SIZE)
        LOOM_CL_ERROR(CL_INVALID_KERNEL_ARGS)
        LOOM_CL_ERROR(CL_INVALID_WORK_DIMENSION)
        LOOM_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
        LOOM_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
        LOOM_CL_ERROR(CL_INVALID_GLOBAL_OFFSET)
        LOOM_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST)
        LOOM_CL_ERROR(CL_INVALID_EVENT)
        LOOM_CL_ERROR(CL_INVALID_OPERATION)
        LOOM_CL_ERROR(CL_INVALID_GL_OBJECT)
        LOOM_CL_ERROR(CL_INVALID_BUFFER_SIZE)
        LOOM_CL_ERROR(CL_INVALID_MIP_LEVEL)
        LOOM_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
        LOOM_CL_ERROR(CL_INVALID_PROPERTY)
        LOOM_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR)
        LOOM_CL_ERROR(CL_INVALID_COMPILER_OPTIONS)
        LOOM_CL_ERROR(CL_INVALID_LINKER_OPTIONS)
        LOOM_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef LOOM_CL_ERROR
    // Later versions and extensions (the 1.2 headers do not name them).
    case -69:
        return "CL_INVALID_PIPE_SIZE";
    case -70:
        return "CL_INVALID_DEVICE_QUEUE";
    case -71:
        return "CL_INVALID_SPEC_ID";
    case -72:
        return "CL_MAX_SIZE_RESTRICTION_EXCEEDED";
    case -1000:
        return "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR";
    case -1001:
        return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
        return "unknown OpenCL error " + std::to_string(err);
    }
}

int cl_fail(void *uc, cl_int err, const char *call, const std::string &context) {
    std::string message = std::string("OpenCL: ") + call + " failed with " + cl_error_name(err);
    if (!context.empty()) message += " (" + context + ")";
    return device_error(uc, message);
}

} // namespace loom_rt
