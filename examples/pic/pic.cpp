// A one-dimensional electrostatic particle-in-cell simulation, object by object: two
// particle species (electrons and a heavier, positive species) in a periodic box, and the
// field on a grid. Every step
//   deposits each species' charge onto the grid (linear weighting), summed over the ranks;
//   solves the field: Poisson's equation for the potential by red-black SOR sweeps, then
//   the electric field by central differences;
//   pushes each species' particles (leapfrog), with a relativistic speed limit computed
//   either through std::pow (the expensive form) or by multiplying (the cheap one).
// The particles are split among the MPI ranks; the grid is replicated. Usage:
//   pic [--kernel pow|mul] [--particles N] [--cells N] [--steps N]
// Prints the kinetic and field energy after the last step; both kernels give the same
// physics (up to the last bits of std::pow).
//
// Built through IDB's compiler wrappers (`make CXX="idb-cxx mpicxx"`, which define
// IDB_INSTRUMENTED), each simulation object (the field and each species) owns a named CFH
// and makes it current while it works (deposit, push, reduce, solve): the probes the
// wrappers insert there, and the MPI layer's COMM probes, land in that object's tree, one
// per object and rank. The file holds no probes of its own, and in the pristine build the
// two helpers below compile to nothing.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifdef IDB_INSTRUMENTED
#include <idb/probe.h>
#endif

namespace {

#ifdef IDB_INSTRUMENTED
using ObjectCfh = idb::Cfh;       // an object's CFH, named after the object
using InObject = idb::CfhContext; // its CFH is the current one for the enclosing scope
#else
struct ObjectCfh {
  explicit ObjectCfh(const char *) {}
};
struct InObject {
  explicit InObject(ObjectCfh &) {}
};
#endif

enum class Kernel { pow, mul };

struct Options {
  Kernel kernel = Kernel::mul;
  long particles = 400000; // per species, over all ranks
  int cells = 512;
  int steps = 100;
  double exponent = 2.0; // the power the pow kernel raises v/c to
};

// The grid: charge density, potential and field on `cells` points of a periodic box.
class Field {
public:
  Field(int cells, double length)
      : dx_(length / cells), rho_(cells), phi_(cells), e_(cells), length_(length), cfh_("field") {}

  int cells() const { return int(rho_.size()); }
  double dx() const { return dx_; }
  double length() const { return length_; }
  std::vector<double> &rho() { return rho_; }
  double e(int i) const { return e_[std::size_t(i)]; }

  void clear() { std::fill(rho_.begin(), rho_.end(), 0.0); }

  // Sums the ranks' deposits; every rank then holds the whole density.
  void reduce() {
    InObject in(cfh_);
    MPI_Allreduce(MPI_IN_PLACE, rho_.data(), cells(), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }

  // -phi'' = rho - <rho> by red-black SOR sweeps from the last step's potential, then
  // E = -phi' by central differences.
  void solve(int sweeps) {
    InObject in(cfh_);
    double mean = 0.0;
    for (double r : rho_)
      mean += r;
    mean /= cells();
    const double omega = 1.9, h2 = dx_ * dx_;
    for (int s = 0; s < sweeps; ++s)
      for (int colour = 0; colour < 2; ++colour)
        for (int i = colour; i < cells(); i += 2) {
          double left = phi_[std::size_t((i + cells() - 1) % cells())];
          double right = phi_[std::size_t((i + 1) % cells())];
          double target = 0.5 * (left + right + h2 * (rho_[std::size_t(i)] - mean));
          phi_[std::size_t(i)] += omega * (target - phi_[std::size_t(i)]);
        }
    for (int i = 0; i < cells(); ++i) {
      double left = phi_[std::size_t((i + cells() - 1) % cells())];
      double right = phi_[std::size_t((i + 1) % cells())];
      e_[std::size_t(i)] = (left - right) / (2.0 * dx_);
    }
  }

  double energy() const {
    double sum = 0.0;
    for (double v : e_)
      sum += 0.5 * v * v * dx_;
    return sum;
  }

private:
  double dx_;
  std::vector<double> rho_, phi_, e_;
  double length_;
  ObjectCfh cfh_;
};

// One species: this rank's particles, their charge and mass.
class Species {
public:
  Species(const char *name, double charge, double mass, long count, double length, int rank,
          int nprocs)
      : name_(name), charge_(charge), mass_(mass), cfh_(name) {
    long first = count * rank / nprocs, last = count * (rank + 1) / nprocs;
    for (long p = first; p < last; ++p) { // evenly spaced, with a small sinusoidal push
      double x = length * (double(p) + 0.5) / double(count);
      x_.push_back(x);
      v_.push_back(0.01 * std::sin(2.0 * M_PI * x / length) / std::sqrt(mass));
    }
  }

  const char *name() const { return name_; }

  // Linear (cloud-in-cell) weighting of this rank's particles onto the grid.
  void deposit(Field &field) const {
    InObject in(cfh_);
    std::vector<double> &rho = field.rho();
    double weight = charge_ * field.length() / double(field.cells()) / double(total_count());
    for (double x : x_) {
      double s = x / field.dx();
      int i = int(s);
      double f = s - i;
      rho[std::size_t(i % field.cells())] += weight * (1.0 - f) / field.dx();
      rho[std::size_t((i + 1) % field.cells())] += weight * f / field.dx();
    }
  }

  // Leapfrog push; the speed limit c makes the step relativistic-like.
  void push(const Field &field, double dt, const Options &options) {
    InObject in(cfh_);
    const double c = 1.0, qm = charge_ / mass_;
    for (std::size_t p = 0; p < x_.size(); ++p) {
      double s = x_[p] / field.dx();
      int i = int(s);
      double f = s - i;
      double e = (1.0 - f) * field.e(i % field.cells()) + f * field.e((i + 1) % field.cells());
      double u = v_[p] / c;
      double u2 = options.kernel == Kernel::pow ? std::pow(std::fabs(u), options.exponent) : u * u;
      double gamma = 1.0 / std::sqrt(1.0 + u2);
      v_[p] += qm * e * dt * gamma;
      x_[p] = std::fmod(x_[p] + v_[p] * dt + field.length(), field.length());
    }
  }

  double kinetic_energy() const {
    double sum = 0.0;
    for (double v : v_)
      sum += 0.5 * mass_ * v * v;
    return sum / double(total_count());
  }

private:
  long total_count() const {
    long local = long(x_.size()), total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    return total;
  }

  const char *name_;
  double charge_, mass_;
  std::vector<double> x_, v_;
  mutable ObjectCfh cfh_; // entering it leaves the species as it was
};

// The simulation: the objects and the order of the phases in a step.
class Simulation {
public:
  Simulation(const Options &options, int rank, int nprocs)
      : options_(options), field_(options.cells, 2.0 * M_PI * 8.0),
        electrons_("electrons", -1.0, 1.0, options.particles, field_.length(), rank, nprocs),
        ions_("ions", 1.0, 100.0, options.particles, field_.length(), rank, nprocs) {}

  void step(double dt) {
    field_.clear();
    electrons_.deposit(field_);
    ions_.deposit(field_);
    field_.reduce();
    field_.solve(20);
    electrons_.push(field_, dt, options_);
    ions_.push(field_, dt, options_);
  }

  void run() {
    for (int s = 0; s < options_.steps; ++s)
      step(0.1);
  }

  // Kinetic energy of both species summed over the ranks, and the field energy.
  void report(int rank) const {
    double local = electrons_.kinetic_energy() + ions_.kinetic_energy(), total = 0.0;
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
      std::printf("pic: %ld particles x 2 species, %d cells, %d steps, kernel %s: kinetic %.6e "
                  "field %.6e\n",
                  options_.particles, options_.cells, options_.steps,
                  options_.kernel == Kernel::pow ? "pow" : "mul", total, field_.energy());
  }

private:
  Options options_;
  Field field_;
  Species electrons_, ions_;
};

bool parse(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc) return false;
    const char *value = argv[++i];
    if (arg == "--kernel" && std::strcmp(value, "pow") == 0)
      o.kernel = Kernel::pow;
    else if (arg == "--kernel" && std::strcmp(value, "mul") == 0)
      o.kernel = Kernel::mul;
    else if (arg == "--particles")
      o.particles = std::atol(value);
    else if (arg == "--cells")
      o.cells = std::atoi(value);
    else if (arg == "--steps")
      o.steps = std::atoi(value);
    else
      return false;
  }
  return o.particles > 0 && o.cells >= 4 && o.steps > 0;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  Options options;
  if (!parse(argc, argv, options)) {
    if (rank == 0)
      std::fprintf(stderr, "usage: pic [--kernel pow|mul] [--particles N] [--cells N>=4] "
                           "[--steps N]\n");
    MPI_Finalize();
    return 2;
  }
  Simulation simulation(options, rank, nprocs);
  simulation.run();
  simulation.report(rank);
  MPI_Finalize();
  return 0;
}
