/* Scenarios written with the public scope macros and C++ helpers, compiled as C99
 * (scopes_c.c) and as C++11 (scopes_cxx11.cpp) to show the headers work in those
 * standards; test_macros.cpp runs each in a child process and checks the tree it
 * records. */
#ifndef IDB_TEST_SCOPES_H
#define IDB_TEST_SCOPES_H

#ifdef __cplusplus
extern "C" {
#endif

/* C99: IDB_PROC_SCOPE, IDB_LOOP_SCOPE, IDB_CALL_SCOPE and IDB_COMM_SCOPE left through
 * return, break, continue, goto and the end of the block. */
void c_scopes_exits(void);

/* C99: IDB_CFH_SCOPE on a named CFH ("c object") and on NULL (the thread's CFH). */
void c_scopes_named(void);

/* C99: IDB_CFH_CONTEXT on a named CFH ("c context") left through return and break, with
 * the thread's probes (IDB_*_SCOPE) inside it, and on NULL. */
void c_context(void);

#ifdef __cplusplus
}

/* C++11: idb::Scope through each constructor, idb::Cfh's members. */
void cxx_scope_constructors();

/* C++11: the macros, on the thread's CFH and on idb::Cfh / idb_cfh_t* instances. */
void cxx_scope_macros();

/* C++11: an exception thrown through three open scopes and caught outside them. */
void cxx_exception_through_scopes();

/* C++11: idb::CfhContext on idb::Cfh and idb_cfh_t*, IDB_CFH_CONTEXT, Cfh::enter/leave,
 * and an exception thrown out of an entered CFH ("cxx context"). */
void cxx_context();
#endif

#endif /* IDB_TEST_SCOPES_H */
