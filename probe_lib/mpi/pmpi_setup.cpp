// PMPI wrappers of the calls that frame a run and of the common communicator calls:
// MPI_Init and MPI_Init_thread start the runtime and record the rank and size;
// MPI_Finalize combines the ranks' profiles (merge.h) before the real finalize;
// MPI_Abort writes the rank's own profile first when spilling is on (own_profile.h); the
// communicator constructors and MPI_Comm_free are COMM probes with time only.
#include "comm_probe.h"
#include "merge.h"
#include "own_profile.h"
#include "wait_states.h"

#include "idb/probe.h"

namespace idb::mpi {

const char *function_name(Function f) {
  static const char *const names[] = {
#define IDB_MPI_NAME_(name) #name,
      IDB_MPI_FUNCTIONS(IDB_MPI_NAME_)
#undef IDB_MPI_NAME_
  };
  return f >= 0 && f < kFunctionCount ? names[f] : "MPI";
}

} // namespace idb::mpi

using namespace idb::mpi;

namespace {

void record_rank() {
  int rank = comm_rank(MPI_COMM_WORLD), size = comm_size(MPI_COMM_WORLD);
  idb_ext_set_rank(rank, size);
  setup_own_profile(rank, size);
  wait_init();
}

} // namespace

extern "C" {

int MPI_Init(int *argc, char ***argv) {
  idb_init(nullptr);
  int rc = MPI_SUCCESS;
  {
    Call call(k_MPI_Init);
    rc = PMPI_Init(argc, argv);
  }
  if (rc == MPI_SUCCESS) record_rank();
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  idb_init(nullptr);
  int rc = MPI_SUCCESS;
  {
    Call call(k_MPI_Init_thread);
    rc = PMPI_Init_thread(argc, argv, required, provided);
  }
  if (rc == MPI_SUCCESS) record_rank();
  return rc;
}

int MPI_Finalize(void) {
  finalize_profile();
  return PMPI_Finalize();
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
  if (spill_on()) save_own_profile(nullptr, 0);
  return PMPI_Abort(comm, errorcode);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
  Call call(k_MPI_Comm_split);
  int rc = PMPI_Comm_split(comm, color, key, newcomm);
  if (rc == MPI_SUCCESS) wait_comm_created(*newcomm);
  return rc;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
  Call call(k_MPI_Comm_dup);
  int rc = PMPI_Comm_dup(comm, newcomm);
  if (rc == MPI_SUCCESS) wait_comm_created(*newcomm);
  return rc;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) {
  Call call(k_MPI_Comm_create);
  int rc = PMPI_Comm_create(comm, group, newcomm);
  if (rc == MPI_SUCCESS) wait_comm_created(*newcomm);
  return rc;
}

int MPI_Comm_free(MPI_Comm *comm) {
  Call call(k_MPI_Comm_free);
  wait_comm_freed(*comm);
  return PMPI_Comm_free(comm);
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm) {
  Call call(k_MPI_Comm_split_type);
  int rc = PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  if (rc == MPI_SUCCESS) wait_comm_created(*newcomm);
  return rc;
}

int MPI_Cart_create(MPI_Comm old_comm, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *comm_cart) {
  Call call(k_MPI_Cart_create);
  int rc = PMPI_Cart_create(old_comm, ndims, dims, periods, reorder, comm_cart);
  if (rc == MPI_SUCCESS) wait_comm_created(*comm_cart);
  return rc;
}

} // extern "C"
