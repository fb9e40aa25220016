# Install rules: headers, the runtime libraries, a CMake package (find_package(idb) gives
# idb::probe and idb::probe_static, and idb::mpi when MPI was found) and pkg-config files
# (idb-probe, idb-mpi).
include(CMakePackageConfigHelpers)

install(DIRECTORY probe_lib/include/idb DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS idb_probe_shared idb_probe_static EXPORT idbTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET idb_mpi)
  install(TARGETS idb_mpi EXPORT idbTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  set(IDB_HAVE_MPI ON)
else()
  set(IDB_HAVE_MPI OFF)
endif()
install(EXPORT idbTargets NAMESPACE idb:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/idb)

configure_package_config_file(cmake/idbConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/idbConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/idb)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/idbConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/idbConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/idbConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/idb)

# The .pc file finds its prefix relative to itself, so an installed tree can move.
file(RELATIVE_PATH IDB_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(cmake/idb-probe.pc.in ${CMAKE_CURRENT_BINARY_DIR}/idb-probe.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/idb-probe.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IDB_HAVE_MPI)
  configure_file(cmake/idb-mpi.pc.in ${CMAKE_CURRENT_BINARY_DIR}/idb-mpi.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/idb-mpi.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
