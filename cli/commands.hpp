// The subcommands of `idb`. Each takes the arguments after its name and returns the
// process exit code: 0 on success, 1 when the work failed, 2 on a usage error.
#pragma once

namespace idb::cli {

int show(int argc, char **argv);
int load(int argc, char **argv);
int runs(int argc, char **argv);
int query(int argc, char **argv);
int export_rows(int argc, char **argv); // `idb export` (export is a C++ keyword)
int report(int argc, char **argv);
int score(int argc, char **argv);
int dynamics(int argc, char **argv);
int edf_command(int argc, char **argv); // `idb edf` (edf is the library's namespace)
int run(int argc, char **argv);
int tune(int argc, char **argv);
int migrate(int argc, char **argv);

} // namespace idb::cli
