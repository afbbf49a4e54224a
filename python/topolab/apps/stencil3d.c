/* 3-D nearest-neighbour halo exchange: ranks on a periodic 3-D grid (MPI_Dims_create), 10
 * iterations of sending a face of `size` bytes to each of the 6 neighbours. */
#include "common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1};
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Dims_create(p, 3, dims);
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &grid);
  long n = topolab_size(argc, argv);
  char *out = calloc((size_t)n, 1), *in = calloc((size_t)n, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int it = 0; it < 10; it++)
    for (int d = 0; d < 3; d++)
      for (int dir = -1; dir <= 1; dir += 2) {
        int src, dst;
        MPI_Cart_shift(grid, d, dir, &src, &dst);
        MPI_Sendrecv(out, (int)n, MPI_CHAR, dst, d, in, (int)n, MPI_CHAR, src, d, grid,
                     MPI_STATUS_IGNORE);
      }
  topolab_report(MPI_Wtime() - t0);
  free(out);
  free(in);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
