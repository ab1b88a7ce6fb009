# install.cmake - what `cmake --install` puts where: libcsearch (shared), its
# public headers, the csearch command, and the CMake package that lets a
# model built out of tree say find_package(csearch) and link
# csearch::csearch (docs/own-model.md).  The built-in models stay in the
# command: the library is the framework a model needs, nothing more.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(csearch::csearch ALIAS csearch_core)
set_target_properties(csearch_core PROPERTIES
  EXPORT_NAME csearch
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR})
# the installed command finds the installed library wherever the prefix is
set_target_properties(csearch PROPERTIES
  INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")

install(TARGETS csearch_core EXPORT csearchTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS csearch RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/framework/include/csearch
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(csearch_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/csearch)
install(EXPORT csearchTargets NAMESPACE csearch::
  DESTINATION ${csearch_cmake_dir} FILE csearchTargets.cmake)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/csearchConfig.cmake.in
  ${PROJECT_BINARY_DIR}/csearchConfig.cmake
  INSTALL_DESTINATION ${csearch_cmake_dir}
  PATH_VARS CMAKE_INSTALL_BINDIR)
# 0.x: a new minor version may change the ABI (CS_ABI_VERSION), so only the
# same major.minor matches
write_basic_package_version_file(${PROJECT_BINARY_DIR}/csearchConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/csearchConfig.cmake
              ${PROJECT_BINARY_DIR}/csearchConfigVersion.cmake
  DESTINATION ${csearch_cmake_dir})
