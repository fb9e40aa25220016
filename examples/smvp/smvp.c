/* Sparse matrix-vector products over a generated unstructured triangle mesh, split among
 * MPI ranks in strips: the three phases of a finite-element solver's inner loop. The mesh
 * is an NX x NY grid of points whose quads are cut into two triangles along a diagonal
 * chosen by a hash of the quad's position, so every point has between four and eight
 * neighbours in no regular pattern. Each rank owns whole rows of points and
 *   assembles its rows of the P1 stiffness matrix plus a mass shift (CSR), element by
 *   element, recomputing the elements it shares with a neighbouring strip;
 *   multiplies: exchanges the halo rows with the ranks above and below, then y = A x;
 *   updates: normalises y into the next x (a power iteration; the norm is an Allreduce).
 * Usage: smvp [NX [NY [ITERATIONS]]]. Prints the Rayleigh quotient, which depends on the
 * mesh and the iteration count only (not on the number of ranks beyond rounding). */
#include <mpi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int nx, ny;       /* the whole mesh */
  int row0, rows;   /* this rank's rows of points [row0, row0 + rows) */
  int rank, nprocs; /* MPI */
} mesh_t;

/* A row of the matrix in CSR: columns index the local vector, which holds the halo row
 * below (nx values), the owned rows, then the halo row above. */
typedef struct {
  int n;         /* owned rows */
  int *start;    /* n + 1 */
  int *column;   /* start[n] */
  double *value; /* start[n] */
} csr_t;

enum { kMaxPerRow = 9 };

/* Whether the quad with lower-left point (i, j) is cut from (i, j) to (i+1, j+1). */
static int cut_rising(int i, int j) {
  unsigned h = (unsigned)i * 2654435761u ^ (unsigned)j * 2246822519u;
  h ^= h >> 15;
  h *= 2654435761u;
  return (h >> 13) & 1u;
}

/* Local vector index of global point (i, j), or -1 when outside this rank's window. */
static int local_index(const mesh_t *m, int i, int j) {
  int r = j - m->row0 + 1;
  if (i < 0 || i >= m->nx || r < 0 || r > m->rows + 1) return -1;
  return r * m->nx + i;
}

/* The P1 stiffness matrix of a triangle with corners p[3] (x, y pairs), into k[3][3]. */
static void element_matrix(const double p[3][2], double k[3][3]) {
  double b[3], c[3];
  for (int a = 0; a < 3; ++a) {
    int s = (a + 1) % 3, t = (a + 2) % 3;
    b[a] = p[s][1] - p[t][1];
    c[a] = p[t][0] - p[s][0];
  }
  double area = 0.5 * fabs(b[0] * c[1] - b[1] * c[0]);
  for (int a = 0; a < 3; ++a)
    for (int d = 0; d < 3; ++d)
      k[a][d] = (b[a] * b[d] + c[a] * c[d]) / (4.0 * area) + (a == d ? area / 6.0 : area / 12.0);
}

/* Adds v to row `row`, column `col` of a row builder with room for kMaxPerRow entries. */
static void add_entry(int *cols, double *vals, int *count, int col, double v) {
  for (int e = 0; e < *count; ++e)
    if (cols[e] == col) {
      vals[e] += v;
      return;
    }
  cols[*count] = col;
  vals[*count] = v;
  ++*count;
}

/* The two triangles of quad (i, j) as point index triples (global i, j pairs). */
static void quad_triangles(int i, int j, int tri[2][3][2]) {
  int corners[4][2] = {{i, j}, {i + 1, j}, {i + 1, j + 1}, {i, j + 1}};
  static const int rising[2][3] = {{0, 1, 2}, {0, 2, 3}}, falling[2][3] = {{0, 1, 3}, {1, 2, 3}};
  const int(*pick)[3] = cut_rising(i, j) ? rising : falling;
  for (int t = 0; t < 2; ++t)
    for (int a = 0; a < 3; ++a) {
      tri[t][a][0] = corners[pick[t][a]][0];
      tri[t][a][1] = corners[pick[t][a]][1];
    }
}

/* Adds the element contributions of quad (i, j) to the owned rows it touches. */
static void assemble_quad(const mesh_t *m, int i, int j, int *cols, double *vals, int *count) {
  int tri[2][3][2];
  quad_triangles(i, j, tri);
  double h = 1.0 / (m->nx - 1);
  for (int t = 0; t < 2; ++t) {
    double p[3][2], k[3][3];
    for (int a = 0; a < 3; ++a) {
      p[a][0] = tri[t][a][0] * h;
      p[a][1] = tri[t][a][1] * h;
    }
    element_matrix(p, k);
    for (int a = 0; a < 3; ++a) {
      int r = tri[t][a][1] - m->row0;
      if (r < 0 || r >= m->rows) continue; /* another rank's row */
      int row = r * m->nx + tri[t][a][0];
      for (int d = 0; d < 3; ++d)
        add_entry(cols + row * kMaxPerRow, vals + row * kMaxPerRow, count + row,
                  local_index(m, tri[t][d][0], tri[t][d][1]), k[a][d]);
    }
  }
}

/* Assembly: every quad that touches an owned row, then the rows packed into CSR. */
static csr_t assemble(const mesh_t *m) {
  int n = m->rows * m->nx;
  int *cols = malloc(sizeof(int) * (size_t)n * kMaxPerRow);
  double *vals = malloc(sizeof(double) * (size_t)n * kMaxPerRow);
  int *count = calloc((size_t)n, sizeof(int));
  int jlo = m->row0 > 0 ? m->row0 - 1 : 0, jhi = m->row0 + m->rows;
  if (jhi > m->ny - 1) jhi = m->ny - 1;
  for (int j = jlo; j < jhi; ++j)
    for (int i = 0; i < m->nx - 1; ++i)
      assemble_quad(m, i, j, cols, vals, count);
  csr_t a = {n, malloc(sizeof(int) * (size_t)(n + 1)), NULL, NULL};
  a.start[0] = 0;
  for (int r = 0; r < n; ++r)
    a.start[r + 1] = a.start[r] + count[r];
  a.column = malloc(sizeof(int) * (size_t)a.start[n]);
  a.value = malloc(sizeof(double) * (size_t)a.start[n]);
  for (int r = 0; r < n; ++r) {
    memcpy(a.column + a.start[r], cols + r * kMaxPerRow, sizeof(int) * (size_t)count[r]);
    memcpy(a.value + a.start[r], vals + r * kMaxPerRow, sizeof(double) * (size_t)count[r]);
  }
  free(cols);
  free(vals);
  free(count);
  return a;
}

/* Sends the first and last owned rows to the neighbours and receives their halo rows. */
static void exchange_halo(const mesh_t *m, double *x) {
  MPI_Request req[4];
  int n = 0, nx = m->nx;
  double *below = x, *first = x + nx, *last = x + m->rows * nx, *above = x + (m->rows + 1) * nx;
  if (m->rank > 0) {
    MPI_Irecv(below, nx, MPI_DOUBLE, m->rank - 1, 1, MPI_COMM_WORLD, &req[n++]);
    MPI_Isend(first, nx, MPI_DOUBLE, m->rank - 1, 2, MPI_COMM_WORLD, &req[n++]);
  }
  if (m->rank < m->nprocs - 1) {
    MPI_Irecv(above, nx, MPI_DOUBLE, m->rank + 1, 2, MPI_COMM_WORLD, &req[n++]);
    MPI_Isend(last, nx, MPI_DOUBLE, m->rank + 1, 1, MPI_COMM_WORLD, &req[n++]);
  }
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

/* y = A x over the owned rows; x is the local vector with its halo rows current. */
static void multiply(const csr_t *a, const double *x, double *y) {
  for (int r = 0; r < a->n; ++r) {
    double sum = 0.0;
    for (int e = a->start[r]; e < a->start[r + 1]; ++e)
      sum += a->value[e] * x[a->column[e]];
    y[r] = sum;
  }
}

/* The global dot product of two owned-row vectors. */
static double dot(const double *u, const double *v, int n) {
  double local = 0.0, global = 0.0;
  for (int r = 0; r < n; ++r)
    local += u[r] * v[r];
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return global;
}

/* x (owned part) = y / |y|. */
static void update(double *x_owned, const double *y, int n) {
  double scale = 1.0 / sqrt(dot(y, y, n));
  for (int r = 0; r < n; ++r)
    x_owned[r] = y[r] * scale;
}

static mesh_t make_mesh(int nx, int ny) {
  mesh_t m = {nx, ny, 0, 0, 0, 1};
  MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m.nprocs);
  int base = ny / m.nprocs, extra = ny % m.nprocs;
  m.rows = base + (m.rank < extra);
  m.row0 = m.rank * base + (m.rank < extra ? m.rank : extra);
  return m;
}

/* The power iteration; returns the Rayleigh quotient x.Ax of the last x. */
static double power_iteration(const mesh_t *m, const csr_t *a, int iterations) {
  int n = a->n, nx = m->nx;
  double *x = calloc((size_t)(n + 2 * nx), sizeof(double)), *y = malloc(sizeof(double) * n);
  for (int r = 0; r < n; ++r) /* a smooth start that every rank count reproduces */
    x[nx + r] = 1.0 + 0.5 * sin(0.001 * (double)(m->row0 * nx + r));
  update(x + nx, x + nx, n);
  double lambda = 0.0;
  for (int it = 0; it < iterations; ++it) {
    exchange_halo(m, x);
    multiply(a, x, y);
    lambda = dot(x + nx, y, n);
    update(x + nx, y, n);
  }
  free(x);
  free(y);
  return lambda;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int nx = argc > 1 ? atoi(argv[1]) : 400, ny = argc > 2 ? atoi(argv[2]) : 400;
  int iterations = argc > 3 ? atoi(argv[3]) : 200;
  mesh_t m = make_mesh(nx, ny);
  if (nx < 2 || ny < m.nprocs || iterations < 1) {
    if (m.rank == 0) fprintf(stderr, "usage: smvp [NX>=2 [NY>=ranks [ITERATIONS>=1]]]\n");
    MPI_Finalize();
    return 2;
  }
  csr_t a = assemble(&m);
  double lambda = power_iteration(&m, &a, iterations);
  if (m.rank == 0)
    printf("smvp: %d x %d points, %d ranks, %d iterations, lambda %.10e\n", nx, ny, m.nprocs,
           iterations, lambda);
  free(a.start);
  free(a.column);
  free(a.value);
  MPI_Finalize();
  return 0;
}
