# idb_pg_cluster_fixture(PREFIX FIXTURE DIR LABELS): a throwaway PostgreSQL cluster for one
# test suite. Adds PREFIX.pg.cluster_start (tests/pg/pg_cluster.sh start DIR, the fixture's
# setup) and PREFIX.pg.cluster_stop (its cleanup, which CTest runs even when tests fail);
# the suite's tests declare FIXTURES_REQUIRED FIXTURE and find the cluster through DIR.
function(idb_pg_cluster_fixture prefix fixture dir labels)
  set(script ${PROJECT_SOURCE_DIR}/tests/pg/pg_cluster.sh)
  add_test(NAME ${prefix}.pg.cluster_start COMMAND ${script} start ${dir})
  add_test(NAME ${prefix}.pg.cluster_stop COMMAND ${script} stop ${dir})
  set_tests_properties(${prefix}.pg.cluster_start PROPERTIES FIXTURES_SETUP ${fixture}
    LABELS "${labels}" TIMEOUT 120)
  set_tests_properties(${prefix}.pg.cluster_stop PROPERTIES FIXTURES_CLEANUP ${fixture}
    LABELS "${labels}" TIMEOUT 60)
endfunction()

# idb_gtest_labels(TARGET LABELS): gives every test gtest_discover_tests found in TARGET the
# list LABELS, through a file CTest reads after the discovered tests (a list-valued LABELS
# loses its ';' on the way through gtest_discover_tests).
function(idb_gtest_labels target labels)
  set(file ${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake)
  file(WRITE ${file}
    "foreach(t IN LISTS ${target}_TESTS)\n"
    "  set_tests_properties(\${t} PROPERTIES LABELS \"${labels}\")\n"
    "endforeach()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${file})
endfunction()
