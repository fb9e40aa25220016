// Links the installed static runtime from C++ and records one probe in a named CFH.
#include <idb/probe.hpp>

#include <cstdio>

int main() {
  idb::Cfh cfh{"consumer"};
  IDB_CFH_SCOPE(cfh.get(), IDB_PROC, 2, "main");
  std::printf("consumer c++: cfh %s\n", cfh.name());
  return 0;
}
