# Installs headers, libloom, the AOT runtime and a CMake package so that a
# downstream project can `find_package(Loom)` and link `Loom::loom`.
include(CMakePackageConfigHelpers)

install(TARGETS loom loom_runtime EXPORT LoomTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(LOOM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Loom)
install(EXPORT LoomTargets NAMESPACE Loom:: DESTINATION ${LOOM_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/LoomConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/LoomConfig.cmake
                              INSTALL_DESTINATION ${LOOM_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/LoomConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/LoomConfig.cmake ${PROJECT_BINARY_DIR}/LoomConfigVersion.cmake
        DESTINATION ${LOOM_CMAKE_DIR})

# libloom finds libLLVM through its RUNPATH wherever Loom is installed.
set_target_properties(loom PROPERTIES INSTALL_RPATH "${LLVM_LIBRARY_DIR}" BUILD_RPATH "${LLVM_LIBRARY_DIR}")

# The generator driver's main() and the add_loom_library helpers.
install(TARGETS loom_generator EXPORT LoomTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/cmake/LoomGenerator.cmake DESTINATION ${LOOM_CMAKE_DIR})
