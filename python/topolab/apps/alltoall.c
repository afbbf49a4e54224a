/* All-to-all personalised exchange: every rank sends `size` bytes to every other rank. */
#include "common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  long n = topolab_size(argc, argv);
  char *out = calloc((size_t)n * p, 1), *in = calloc((size_t)n * p, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  MPI_Alltoall(out, (int)n, MPI_CHAR, in, (int)n, MPI_CHAR, MPI_COMM_WORLD);
  topolab_report(MPI_Wtime() - t0);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
