// C++11 scenarios for test_macros.cpp: idb::Cfh, every idb::Scope constructor, the scope
// macros on the thread's CFH and on named instances, and an exception unwinding through
// open scopes. Compiled with -std=c++11 -pedantic -Werror so probe.hpp stays C++11.
#include "scopes.h"

#include "idb/probe.h"

#include <cstdio>
#include <stdexcept>

void cxx_scope_constructors() {
  idb::Cfh solver("solver[0]");
  std::printf("name %s\n", solver.name());
  {
    idb::Scope a(IDB_PROC, 2000, "kind, id, description");
    idb::Scope b(IDB_CALL, 2001, "with location", "file.cpp", 12, "caller");
  }
  {
    idb::Scope c(solver.get(), IDB_PROC, 2002, "handle");
    idb::Scope d(solver, IDB_LOOP, 2003, "reference", "solver.cpp", 7, "run");
  }
  { idb::Scope e(static_cast<idb_cfh_t *>(nullptr), IDB_COMM, 2004, "null handle"); }
  solver.start(IDB_PROC, 2005, "member start");
  solver.stop(2005);
  std::printf("dump %d\n", solver.dump(stdout) ? 1 : 0);
}

namespace {

int first_odd(const int *values, int count) {
  IDB_PROC_SCOPE(2011);
  for (int i = 0; i < count; ++i) {
    IDB_LOOP_SCOPE(2012, "scan");
    if (values[i] % 2 == 0) continue;
    return values[i];
  }
  return -1;
}

void exchange(idb::Cfh &object, idb_cfh_t *handle) {
  IDB_CFH_SCOPE(object, IDB_PROC, 2013, "object scope");
  IDB_CFH_SCOPE(handle, IDB_COMM, 2014, "handle scope");
  IDB_COMM_SCOPE(2015, "MPI_Isend");
}

} // namespace

void cxx_scope_macros() {
  IDB_PROC_SCOPE(2010);
  const int values[] = {2, 4, 7, 8};
  first_odd(values, 4);
  idb::Cfh object("cxx object");
  idb::Cfh other("cxx other");
  for (int i = 0; i < 2; ++i) {
    IDB_CALL_SCOPE(2016, "exchange");
    exchange(object, other.get());
  }
}

namespace {

void fails(int depth) {
  IDB_PROC_SCOPE(2020);
  if (depth == 0) throw std::runtime_error("thrown through the scopes");
  fails(depth - 1);
}

} // namespace

void cxx_exception_through_scopes() {
  IDB_PROC_SCOPE(2021);
  try {
    IDB_CALL_SCOPE(2022, "try");
    fails(2);
  } catch (const std::exception &) {
    IDB_CALL_SCOPE(2023, "handler");
  }
  IDB_CALL_SCOPE(2024, "after");
}

namespace {

void entered_work(idb::Cfh &object) {
  IDB_CFH_CONTEXT(object);
  IDB_PROC_SCOPE(2030);
  IDB_LOOP_SCOPE(2031, "cxx entered loop");
}

void throws_inside(idb_cfh_t *object) {
  idb::CfhContext in(object);
  IDB_PROC_SCOPE(2032);
  throw std::runtime_error("thrown out of an entered CFH");
}

} // namespace

void cxx_context() {
  IDB_PROC_SCOPE(2033);
  idb::Cfh object("cxx context");
  entered_work(object);
  {
    idb::CfhContext in(object);
    IDB_CALL_SCOPE(2034, "cxx context object");
  }
  try {
    throws_inside(object.get());
  } catch (const std::exception &) {
    IDB_CALL_SCOPE(2035, "cxx handler");
  }
  object.enter();
  { IDB_CALL_SCOPE(2036, "cxx member enter"); }
  object.leave();
  { idb::CfhContext none(static_cast<idb_cfh_t *>(nullptr)); }
}
