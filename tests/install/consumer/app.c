/* Links the installed runtime from C and records one probe. */
#include <idb/probe.h>
#include <stdio.h>

int main(void) {
  IDB_PROC_SCOPE(1);
  printf("consumer c: probes %s\n", idb_enabled() ? "on" : "off");
  return 0;
}
