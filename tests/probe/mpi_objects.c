/* An MPI program with one named CFH per object, for test_context_mpi.cpp: every rank
 * makes the CFHs "field" and "species" and enters each while that object works. The
 * field's MPI_Allreduce is a COMM probe of the MPI layer and must land in "field"; rank r
 * kicks r + 1 times per step, so the merged "species" tells the ranks apart.
 *   mpi_objects STEPS */
#include "idb/probe.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double solve(idb_cfh_t *field, double value) {
  double sum = 0.0;
  IDB_CFH_CONTEXT(field);
  IDB_PROC_SCOPE(1);
  MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

static double push(idb_cfh_t *species, int kicks) {
  double x = 0.0;
  int i;
  IDB_CFH_CONTEXT(species);
  IDB_LOOP_SCOPE(2, "push");
  for (i = 0; i < kicks; ++i) {
    IDB_CALL_SCOPE(3, "kick");
    x += 1.0;
  }
  return x;
}

int main(int argc, char **argv) {
  int rank = 0, step, steps = argc > 1 ? atoi(argv[1]) : 5;
  double total = 0.0;
  idb_cfh_t *field, *species;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  field = idb_cfh_create("field");
  species = idb_cfh_create("species");
  for (step = 0; step < steps; ++step)
    total += solve(field, push(species, rank + 1));
  idb_cfh_destroy(species);
  idb_cfh_destroy(field);
  if (rank == 0) printf("total %g\n", total);
  MPI_Finalize();
  return 0;
}
