/* Allreduce (sum) of a vector of `size` bytes of doubles. */
#include "common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  long n = topolab_size(argc, argv) / (long)sizeof(double);
  if (n < 1) n = 1;
  double *x = calloc((size_t)n, sizeof(double)), *y = calloc((size_t)n, sizeof(double));
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  MPI_Allreduce(x, y, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  topolab_report(MPI_Wtime() - t0);
  free(x);
  free(y);
  MPI_Finalize();
  return 0;
}
