# The selection's text format without Clang (selection.cpp, probe_id.cpp): what checks an
# experiment definition file's [AUTOINST] section and `idb tune --from`. Included from the
# top level, before the CLI, so that a build without the instrumenter (the sanitizer
# stage of scripts/test.sh) has it too.
add_library(idb_selection STATIC ${CMAKE_CURRENT_LIST_DIR}/selection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/probe_id.cpp)
target_include_directories(idb_selection PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(idb_selection PRIVATE idb_warnings)
