/* Shared by topolab's SMPI kernels: the message size from argv[1] (bytes, default 65536) and the
 * report line "topolab-time <seconds>" (the slowest rank's time between two barriers), which
 * topolab.simgrid parses. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static long topolab_size(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 65536;
  return n > 0 ? n : 1;
}

static void topolab_report(double seconds) {
  int rank;
  double slowest;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("topolab-time %.9f\n", slowest);
}
