# CMake helpers for Loom generators, in the Loom build tree and from an
# installed Loom (find_package(Loom) includes this file).
#
#   add_loom_generator(<target> SOURCES <src>... [LINK_LIBRARIES <lib>...])
#     An executable of generator classes with the driver's main().
#
#   add_loom_library(<name> FROM <generator target>
#                    [GENERATOR <registered name>]   default: <name>
#                    [FUNCTION_NAME <c name>]        default: <name>
#                    [TARGETS <target string>]       default: host
#                    [PARAMS <param=value>...]
#                    [AUTOSCHEDULER <name>]          e.g. Loom (outputs need estimates)
#                    [EXTRA_OUTPUTS <kind>...])      e.g. stmt assembly c_source schedule
#     Runs the generator at build time and gives a library target <name>
#     (the generated <name>.a) whose include directory holds <name>.h and
#     which links Loom::Runtime. The files land in
#     ${CMAKE_CURRENT_BINARY_DIR}/<name>.loom/. GPU targets (host-opencl,
#     host-cuda) embed the kernels; the extra output device_source writes
#     their source (<name>.cl for opencl, <name>.cu for cuda).

include_guard(GLOBAL)

function(add_loom_generator TARGET)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK_LIBRARIES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "add_loom_generator(${TARGET}): SOURCES is required")
  endif()
  add_executable(${TARGET} ${ARG_SOURCES})
  target_link_libraries(${TARGET} PRIVATE Loom::loom Loom::Generator ${ARG_LINK_LIBRARIES})
endfunction()

# The extensions of an output kind for a target string (device_source: one
# file per GPU API of the target).
function(_loom_output_extension kind target out_var)
  if(kind STREQUAL "device_source")
    string(REPLACE "-" ";" features "${target}")
    set(exts)
    if("opencl" IN_LIST features)
      list(APPEND exts .cl)
    endif()
    if("cuda" IN_LIST features)
      list(APPEND exts .cu)
    endif()
    if(NOT exts)
      message(FATAL_ERROR "add_loom_library: the device_source output needs a GPU target "
                          "(with opencl or cuda), not '${target}'")
    endif()
    set(${out_var} ${exts} PARENT_SCOPE)
    return()
  endif()
  set(ext_static_library .a)
  set(ext_h .h)
  set(ext_object .o)
  set(ext_assembly .s)
  set(ext_c_source .c)
  set(ext_llvm_assembly .ll)
  set(ext_stmt .stmt)
  set(ext_stmt_html .stmt.html)
  set(ext_schedule .schedule.h)
  if(NOT DEFINED ext_${kind})
    message(FATAL_ERROR "add_loom_library: unknown output kind '${kind}'; valid kinds: "
                        "static_library h object assembly c_source llvm_assembly stmt stmt_html "
                        "device_source schedule")
  endif()
  set(${out_var} ${ext_${kind}} PARENT_SCOPE)
endfunction()

function(add_loom_library TARGET)
  cmake_parse_arguments(ARG "" "FROM;GENERATOR;FUNCTION_NAME;AUTOSCHEDULER"
                        "TARGETS;PARAMS;EXTRA_OUTPUTS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "add_loom_library(${TARGET}): unexpected arguments: "
                        "${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_FROM)
    message(FATAL_ERROR "add_loom_library(${TARGET}): FROM <generator target> is required")
  endif()
  if(NOT TARGET ${ARG_FROM})
    message(FATAL_ERROR "add_loom_library(${TARGET}): '${ARG_FROM}' is not a target "
                        "(create it first with add_loom_generator or add_executable)")
  endif()
  if(NOT ARG_GENERATOR)
    set(ARG_GENERATOR ${TARGET})
  endif()
  if(NOT ARG_FUNCTION_NAME)
    set(ARG_FUNCTION_NAME ${TARGET})
  endif()
  if(NOT ARG_TARGETS)
    set(ARG_TARGETS host)
  endif()
  # AUTOSCHEDULER <name>: the generator's Funcs that schedule() leaves alone
  # are scheduled by that auto-scheduler (Loom's built-in one is "Loom"),
  # for the sizes the outputs' set_estimates give.
  if(ARG_AUTOSCHEDULER)
    list(APPEND ARG_PARAMS autoscheduler=${ARG_AUTOSCHEDULER})
  endif()
  list(LENGTH ARG_TARGETS n_targets)
  if(n_targets GREATER 1)
    message(FATAL_ERROR "add_loom_library(${TARGET}): one target per library "
                        "(got ${ARG_TARGETS}); make one library per target instead")
  endif()

  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${TARGET}.loom)
  file(MAKE_DIRECTORY ${dir})
  set(outputs ${dir}/${TARGET}.a ${dir}/${TARGET}.h)
  set(kinds static_library)
  foreach(kind IN LISTS ARG_EXTRA_OUTPUTS)
    _loom_output_extension(${kind} "${ARG_TARGETS}" exts)
    foreach(ext IN LISTS exts)
      list(APPEND outputs ${dir}/${TARGET}${ext})
    endforeach()
    string(APPEND kinds ",${kind}")
  endforeach()

  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${ARG_FROM} -g ${ARG_GENERATOR} -o ${dir} -f ${ARG_FUNCTION_NAME} -n ${TARGET}
            -e ${kinds} target=${ARG_TARGETS} ${ARG_PARAMS}
    DEPENDS ${ARG_FROM}
    COMMENT "Loom: generating ${TARGET} (${ARG_GENERATOR}, target=${ARG_TARGETS})"
    VERBATIM)
  add_custom_target(${TARGET}.update DEPENDS ${outputs})

  add_library(${TARGET} STATIC IMPORTED GLOBAL)
  set_target_properties(${TARGET} PROPERTIES
    IMPORTED_LOCATION ${dir}/${TARGET}.a
    INTERFACE_INCLUDE_DIRECTORIES ${dir}
    INTERFACE_LINK_LIBRARIES Loom::Runtime)
  add_dependencies(${TARGET} ${TARGET}.update)
endfunction()
