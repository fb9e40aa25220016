// How the wrappers read a compiler command: sources, linking, and the flags Clang gets.
#include "wrapper.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace idb::instr;

TEST(CompileLine, FindsSourcesAndSkipsOptionValues) {
  auto line = parse_compile_line({"-O2", "-I", "inc", "-DX=1", "-o", "out.c", "-c", "src/a.c",
                                  "-include", "pre.h", "b.cpp", "c.o", "-MF", "dep.c"});
  ASSERT_EQ("", line.error);
  ASSERT_EQ(2u, line.sources.size());
  EXPECT_EQ("src/a.c", line.sources[0].path);
  EXPECT_EQ(7u, line.sources[0].index);
  EXPECT_FALSE(line.sources[0].cxx);
  EXPECT_EQ("b.cpp", line.sources[1].path);
  EXPECT_TRUE(line.sources[1].cxx);
  EXPECT_FALSE(line.links);
  EXPECT_FALSE(line.passthrough);
  std::vector<std::string> flags = {"-I", "inc", "-DX=1", "-include", "pre.h"};
  EXPECT_EQ(flags, line.parse_flags);
}

TEST(CompileLine, LinkOnlyCommandStillLinksTheRuntime) {
  auto line = parse_compile_line({"a.o", "b.o", "-o", "app", "-lm"});
  EXPECT_TRUE(line.sources.empty());
  EXPECT_TRUE(line.links);
  EXPECT_FALSE(line.passthrough);
}

TEST(CompileLine, PreprocessingAndVersionQueriesPassThrough) {
  EXPECT_TRUE(parse_compile_line({"-E", "a.c"}).passthrough);
  EXPECT_TRUE(parse_compile_line({"-MM", "a.c"}).passthrough);
  EXPECT_TRUE(parse_compile_line({"--version"}).passthrough);
}

TEST(CompileLine, LanguageOptionDecides) {
  auto line = parse_compile_line({"-x", "c++", "weird.inc", "-x", "none", "plain.c"});
  ASSERT_EQ(2u, line.sources.size());
  EXPECT_TRUE(line.sources[0].cxx);
  EXPECT_FALSE(line.sources[1].cxx);
  auto assembler = parse_compile_line({"-x", "assembler", "a.s"});
  EXPECT_EQ("", assembler.error);
  EXPECT_TRUE(assembler.sources.empty());
  EXPECT_NE("", parse_compile_line({"-c", "-"}).error);
}

TEST(CompileLine, DependencyFileAsGccNamesIt) {
  EXPECT_EQ("obj/a.d", parse_compile_line({"-MD", "-c", "src/a.c", "-o", "obj/a.o"}).dep_file);
  EXPECT_EQ("a.d", parse_compile_line({"-MMD", "-c", "src/a.c"}).dep_file);
  EXPECT_EQ("x.dep", parse_compile_line({"-MD", "-MF", "x.dep", "-c", "a.c"}).dep_file);
  EXPECT_EQ("", parse_compile_line({"-c", "a.c"}).dep_file);
}

TEST(Wrapper, OneWordWrappersNameTheirCompiler) {
  ::unsetenv("IDB_CC");
  ::unsetenv("IDB_CXX");
  EXPECT_EQ(one_word_compiler("idb-gcc"), "gcc");
  EXPECT_EQ(one_word_compiler("idb-mpicxx"), "mpicxx");
  EXPECT_EQ(one_word_compiler("idb-clang++"), "clang++");
  EXPECT_EQ(one_word_compiler("idb-cc"), std::nullopt) << "the prefix forms take an argument";
  EXPECT_EQ(one_word_compiler("idb-cxx"), std::nullopt);
  EXPECT_EQ(one_word_compiler("gcc"), std::nullopt);
  ::setenv("IDB_CC", "/opt/gcc-13/bin/gcc", 1);
  ::setenv("IDB_CXX", "/opt/gcc-13/bin/g++", 1);
  EXPECT_EQ(one_word_compiler("idb-mpicc"), "/opt/gcc-13/bin/gcc");
  EXPECT_EQ(one_word_compiler("idb-g++"), "/opt/gcc-13/bin/g++");
  ::unsetenv("IDB_CC");
  ::unsetenv("IDB_CXX");
}

TEST(Wrapper, MpiLinksAreToldByTheCompilerOrTheLibraries) {
  ::unsetenv("IDB_MPI");
  EXPECT_TRUE(mpi_layer_position({"mpicc", "a.o", "-o", "app"}).has_value());
  EXPECT_TRUE(mpi_layer_position({"/usr/bin/mpicxx", "a.o"}).has_value());
  EXPECT_TRUE(mpi_layer_position({"gcc", "a.o", "-lmpi"}).has_value());
  EXPECT_FALSE(mpi_layer_position({"gcc", "a.o", "-lm"}).has_value());
  EXPECT_FALSE(mpi_layer_position({"/opt/mpich/bin/gcc", "a.o"}).has_value())
      << "the folder does not count";
  // CMake's FindMPI with a plain compiler: the library by full path, which the layer must
  // precede; an MPI wrapper compiler: at the end, before the libraries it appends.
  const char *lib = "/usr/lib/x86_64-linux-gnu/openmpi/lib/libmpi.so";
  EXPECT_EQ(mpi_layer_position({"c++", "a.o", "-o", "app", lib}), 4u);
  EXPECT_EQ(mpi_layer_position({"c++", "a.o", "libmpi_cxx.so.40", lib}), 2u);
  EXPECT_EQ(mpi_layer_position({"cc", "a.o", "/opt/mpich/lib/libmpich.a"}), 2u);
  EXPECT_EQ(mpi_layer_position({"mpicc", "a.o", "-o", "app"}), 4u);
  EXPECT_EQ(mpi_layer_position({"gcc", "a.o", "-lm"}), std::nullopt);
  EXPECT_FALSE(is_mpi_library("libmpi.c"));
  EXPECT_FALSE(is_mpi_library("-L/opt/mpi/lib"));
  EXPECT_TRUE(is_mpi_library("-lmpich"));
  ::setenv("IDB_MPI", "0", 1);
  EXPECT_FALSE(mpi_layer_position({"mpicc", "a.o"}).has_value());
  ::setenv("IDB_MPI", "1", 1);
  EXPECT_TRUE(mpi_layer_position({"gcc", "a.o"}).has_value());
  ::unsetenv("IDB_MPI");
}
