/* C99 scenarios for test_macros.cpp: every C scope macro, left through each way out of a
 * block (return, break, continue, goto, falling off the end). Compiled with -std=c99
 * -pedantic -Werror, so the header must stay plain C99 apart from the cleanup
 * attribute, which GCC and Clang accept under -pedantic. */
#include "scopes.h"

#include "idb/probe.h"

#include <stddef.h>

static int early_return(int x) {
  IDB_PROC_SCOPE(1001);
  if (x > 0) return x;
  { IDB_CALL_SCOPE(1002, "after"); }
  return 0;
}

static void loop_exits(void) {
  int i;
  IDB_PROC_SCOPE(1010);
  for (i = 0; i < 10; ++i) {
    IDB_LOOP_SCOPE(1011, "iteration");
    if (i % 2) continue;
    if (i == 6) break;
    { IDB_CALL_SCOPE(1012, "even"); }
  }
  while (i > 0) {
    IDB_LOOP_SCOPE(1013, "while");
    break;
  }
}

static void goto_exit(int n) {
  IDB_PROC_SCOPE(1020);
  {
    IDB_COMM_SCOPE(1021, "MPI_Send");
    if (n > 0) goto done;
    { IDB_CALL_SCOPE(1022, "skipped by goto"); }
  }
done : { IDB_CALL_SCOPE(1023, "done"); }
}

static int find(int target) {
  int i;
  IDB_PROC_SCOPE(1030);
  for (i = 0; i < 10; ++i) {
    IDB_LOOP_SCOPE(1031, "search");
    if (i == target) return i;
  }
  return -1;
}

void c_scopes_exits(void) {
  IDB_PROC_SCOPE(1000);
  early_return(1);
  early_return(0);
  loop_exits();
  goto_exit(1);
  goto_exit(0);
  find(3);
}

void c_scopes_named(void) {
  idb_cfh_t *object = idb_cfh_create("c object");
  int i;
  for (i = 0; i < 3; ++i) {
    IDB_CFH_SCOPE(object, IDB_PROC, 1040, "c method");
    if (i == 1) continue;
    { IDB_CFH_SCOPE(object, IDB_CALL, 1041, "c call"); }
  }
  { IDB_CFH_SCOPE(NULL, IDB_PROC, 1042, "on the thread"); }
  idb_cfh_destroy(object);
}

static int object_work(idb_cfh_t *object, int n) {
  int i;
  IDB_CFH_CONTEXT(object);
  IDB_PROC_SCOPE(1050);
  for (i = 0; i < 10; ++i) {
    IDB_LOOP_SCOPE(1051, "c entered loop");
    if (i == n) break;
  }
  if (n > 1) return n;
  { IDB_CALL_SCOPE(1052, "c entered call"); }
  return 0;
}

void c_context(void) {
  idb_cfh_t *object = idb_cfh_create("c context");
  IDB_PROC_SCOPE(1053);
  object_work(object, 1);
  object_work(object, 2);
  {
    IDB_CFH_CONTEXT(NULL);
    IDB_CALL_SCOPE(1054, "c after");
  }
  idb_cfh_destroy(object);
}
