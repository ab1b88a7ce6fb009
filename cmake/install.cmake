# install.cmake - what `cmake --install` puts where: libcsearch (shared and
# static), its public headers, the csearch command with its man page and
# bash completion, the CMake package that lets a model built out of tree
# say find_package(csearch) and link csearch::csearch (docs/own-model.md),
# and csearch.pc for pkg-config.  The built-in models stay in the command:
# the library is the framework a model needs, nothing more.
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

# libcsearch.a: the shared library's objects (position independent, only
# cs_* visible to the linker of a program's own shared objects), for
# programs that want no run-time dependency on libcsearch.so; its own
# dependencies are in csearch-static.pc (and csearch.pc's Libs.private)
add_library(csearch_static STATIC $<TARGET_OBJECTS:csearch_core>)
set_target_properties(csearch_static PROPERTIES OUTPUT_NAME csearch)
install(TARGETS csearch_static ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

install(FILES ${PROJECT_SOURCE_DIR}/docs/csearch.1
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/completion/csearch.bash
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME csearch)

# csearch.pc: relative to where it lies (${pcfiledir}), so the files work
# wherever `cmake --install --prefix` put them; absolute GNUInstallDirs
# values are kept as they are
file(RELATIVE_PATH csearch_pc_up /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
string(REGEX REPLACE "/$" "" csearch_pc_up "${csearch_pc_up}")
set(csearch_pc_prefix "\${pcfiledir}/${csearch_pc_up}")
foreach(dir LIBDIR INCLUDEDIR)
  string(TOLOWER ${dir} name)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(csearch_pc_${name} "${CMAKE_INSTALL_${dir}}")
  else()
    set(csearch_pc_${name} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(csearch_pc_private "")
if(CMAKE_DL_LIBS)
  set(csearch_pc_private "-l${CMAKE_DL_LIBS}")
endif()
if(CSEARCH_HAVE_MPI)
  find_package(MPI COMPONENTS C QUIET) # found in framework/: cached
  string(REPLACE ";" " " csearch_pc_mpi "${MPI_C_LIBRARIES}")
  string(APPEND csearch_pc_private " ${csearch_pc_mpi}")
endif()
# csearch.pc for libcsearch.so, csearch-static.pc for libcsearch.a
foreach(pc csearch csearch-static)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in
    ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()

# The MiniZinc solver: fzn-csearch, csearch's mznlib and a solver
# configuration that names both relative to itself, so that
# `minizinc --solver csearch` works wherever the prefix is, once
# MZN_SOLVER_PATH holds PREFIX/share/minizinc/solvers (docs/minizinc.md)
set_target_properties(fzn-csearch PROPERTIES
  INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
install(TARGETS fzn-csearch RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/models/flatzinc/mznlib/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/minizinc/csearch)
set(CSEARCH_MSC_MZNLIB ../csearch)
file(RELATIVE_PATH CSEARCH_MSC_EXECUTABLE
  ${CMAKE_INSTALL_FULL_DATADIR}/minizinc/solvers
  ${CMAKE_INSTALL_FULL_BINDIR}/fzn-csearch)
configure_file(${PROJECT_SOURCE_DIR}/models/flatzinc/csearch.msc.in
  ${PROJECT_BINARY_DIR}/csearch.msc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/csearch.msc
  DESTINATION ${CMAKE_INSTALL_DATADIR}/minizinc/solvers)

# The same for the build tree: MZN_SOLVER_PATH=build/solvers runs this
# build's fzn-csearch on the source tree's mznlib
set(CSEARCH_MSC_MZNLIB ${PROJECT_SOURCE_DIR}/models/flatzinc/mznlib)
set(CSEARCH_MSC_EXECUTABLE ${PROJECT_BINARY_DIR}/models/fzn-csearch)
configure_file(${PROJECT_SOURCE_DIR}/models/flatzinc/csearch.msc.in
  ${PROJECT_BINARY_DIR}/solvers/csearch.msc @ONLY)
