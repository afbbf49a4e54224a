/* A topolab workload (topolab.workload) replayed with MPI under SMPI: the same messages and
 * dependencies the flit simulator runs, at flow level. argv[1] is the message file, one message
 * a line: "src dst bytes delay_s ndeps dep...", message ids are line numbers from 0, ranks are
 * MPI ranks. Every receive is posted at the start (MPI_Irecv, tag = message id), so a
 * rendezvous transfer starts as soon as its sender posts it; each rank then sends its messages
 * in file order (MPI_Isend), each once the messages it waits for have arrived and its delay
 * has passed, and finally waits for everything it sends and receives. With argv[2] = "serial"
 * a rank's send also waits for its previous send to complete: one message at a time leaves a
 * rank, as the flit simulator's endpoints inject them; otherwise its messages in flight share
 * its link. argv[3] is the hosts' speed in flop/s: a delay of d seconds is d times that many
 * flops on the sender's host. Buffers are SMPI's
 * shared allocations: no memory for the data. Prints "topolab-time <s>", the slowest rank's
 * time from the start to its last completion. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"

typedef struct {
  int src, dst;
  long bytes;
  double delay;
  int ndeps;
  int *deps;
} message;

static message *read_messages(const char *path, int *count) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int n = 0, cap = 1024;
  message *m = malloc(sizeof(message) * cap);
  message x;
  while (fscanf(f, "%d %d %ld %lf %d", &x.src, &x.dst, &x.bytes, &x.delay, &x.ndeps) == 5) {
    x.deps = x.ndeps ? malloc(sizeof(int) * x.ndeps) : NULL;
    for (int k = 0; k < x.ndeps; k++)
      if (fscanf(f, "%d", &x.deps[k]) != 1) MPI_Abort(MPI_COMM_WORLD, 2);
    if (n == cap) m = realloc(m, sizeof(message) * (cap *= 2));
    m[n++] = x;
  }
  fclose(f);
  *count = n;
  return m;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 2) MPI_Abort(MPI_COMM_WORLD, 2);
  message *m = read_messages(argv[1], &n);
  int serial = argc > 2 && strcmp(argv[2], "serial") == 0, previous = -1;
  double host_flops = argc > 3 ? atof(argv[3]) : 1e9;
  long largest = 1;
  for (int i = 0; i < n; i++)
    if (m[i].bytes > largest) largest = m[i].bytes;
  char *buf = SMPI_SHARED_MALLOC(largest);
  MPI_Request *recv = calloc(n, sizeof(MPI_Request));
  MPI_Request *send = calloc(n, sizeof(MPI_Request));
  char *arrived = calloc(n, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int i = 0; i < n; i++) {
    recv[i] = send[i] = MPI_REQUEST_NULL;
    if (m[i].dst == rank && m[i].src != rank)
      MPI_Irecv(buf, (int)m[i].bytes, MPI_CHAR, m[i].src, i, MPI_COMM_WORLD, &recv[i]);
  }
  for (int i = 0; i < n; i++) {
    if (m[i].src != rank) continue;
    for (int k = 0; k < m[i].ndeps; k++) {
      int d = m[i].deps[k];
      if (!arrived[d]) {
        MPI_Wait(&recv[d], MPI_STATUS_IGNORE);
        arrived[d] = 1;
      }
    }
    if (m[i].delay > 0) smpi_execute_flops(m[i].delay * host_flops);
    if (m[i].dst == rank) {
      arrived[i] = 1; /* a message to oneself (an iteration's gate) moves no data */
      continue;
    }
    if (serial && previous >= 0) MPI_Wait(&send[previous], MPI_STATUS_IGNORE);
    MPI_Isend(buf, (int)m[i].bytes, MPI_CHAR, m[i].dst, i, MPI_COMM_WORLD, &send[i]);
    previous = i;
  }
  MPI_Waitall(n, recv, MPI_STATUSES_IGNORE);
  MPI_Waitall(n, send, MPI_STATUSES_IGNORE);
  topolab_report(MPI_Wtime() - start);
  SMPI_SHARED_FREE(buf);
  MPI_Finalize();
  return 0;
}
