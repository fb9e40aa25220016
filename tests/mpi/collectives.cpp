// A C++ MPI program (calling the C API, as C++ MPI codes do) with a known pattern of the
// collectives the C program leaves out, for the PMPI layer's tests.
// Usage: collectives ITERATIONS
// Per iteration, under PROC probe 10 "round" (an idb::Scope): MPI_Alltoall of 2 ints per
// rank; MPI_Reduce of 4 doubles to rank 1; MPI_Scatter of 3 ints per rank from rank 0;
// MPI_Allgatherv of rank + 1 ints from every rank; MPI_Scan of 1 long; MPI_Reduce_scatter_block
// of 2 ints per rank; a blocking MPI_Send/MPI_Recv of 6 chars from each even rank to the
// next odd one; MPI_Barrier.
#include <idb/probe.h>

#include <cstdlib>
#include <mpi.h>
#include <vector>

namespace {

void round_of_collectives(int rank, int size) {
  idb::Scope scope(IDB_PROC, 10, "round");
  std::vector<int> out(2 * std::size_t(size), rank), in(2 * std::size_t(size));
  MPI_Alltoall(out.data(), 2, MPI_INT, in.data(), 2, MPI_INT, MPI_COMM_WORLD);
  double four[4] = {1, 2, 3, 4}, four_sum[4];
  MPI_Reduce(four, four_sum, 4, MPI_DOUBLE, MPI_SUM, 1, MPI_COMM_WORLD);
  std::vector<int> scatter_out(3 * std::size_t(size)), three(3);
  MPI_Scatter(scatter_out.data(), 3, MPI_INT, three.data(), 3, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  int total = 0;
  for (int r = 0; r < size; ++r) {
    counts[std::size_t(r)] = r + 1;
    displs[std::size_t(r)] = total;
    total += r + 1;
  }
  std::vector<int> mine(static_cast<std::size_t>(rank) + 1, rank);
  std::vector<int> all(static_cast<std::size_t>(total));
  MPI_Allgatherv(mine.data(), rank + 1, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT,
                 MPI_COMM_WORLD);
  long one = 1, prefix = 0;
  MPI_Scan(&one, &prefix, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  std::vector<int> blocks(2 * std::size_t(size), 1), block(2);
  MPI_Reduce_scatter_block(blocks.data(), block.data(), 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  char six[6] = {'h', 'e', 'l', 'l', 'o', 0};
  if (rank % 2 == 0 && rank + 1 < size)
    MPI_Send(six, 6, MPI_CHAR, rank + 1, 5, MPI_COMM_WORLD);
  else if (rank % 2 == 1)
    MPI_Recv(six, 6, MPI_CHAR, rank - 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iterations = argc > 1 ? std::atoi(argv[1]) : 10;
  for (int i = 0; i < iterations; ++i)
    round_of_collectives(rank, size);
  MPI_Finalize();
  return 0;
}
