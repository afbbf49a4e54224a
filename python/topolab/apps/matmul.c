/* Matrix multiplication, SUMMA communication pattern: ranks on a 2-D grid (MPI_Dims_create);
 * for every step k the owners broadcast a block of A along their row and a block of B along
 * their column, `size` bytes each. The local block products are not simulated (topolab runs
 * SMPI with computation off, so times are communication only). */
#include "common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, rank, dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Dims_create(p, 2, dims);
  MPI_Comm grid, row, col;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Comm_rank(grid, &rank);
  MPI_Cart_coords(grid, rank, 2, coords);
  MPI_Comm_split(grid, coords[0], coords[1], &row);
  MPI_Comm_split(grid, coords[1], coords[0], &col);
  long n = topolab_size(argc, argv);
  char *a = calloc((size_t)n, 1), *b = calloc((size_t)n, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  int steps = dims[0] > dims[1] ? dims[0] : dims[1];
  for (int k = 0; k < steps; k++) {
    MPI_Bcast(a, (int)n, MPI_CHAR, k % dims[1], row);
    MPI_Bcast(b, (int)n, MPI_CHAR, k % dims[0], col);
  }
  topolab_report(MPI_Wtime() - t0);
  free(a);
  free(b);
  MPI_Comm_free(&row);
  MPI_Comm_free(&col);
  MPI_Comm_free(&grid);
  MPI_Finalize();
  return 0;
}
