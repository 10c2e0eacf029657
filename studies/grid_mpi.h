#pragma once
// The grid runner's ranks (studies/grid_runner.h): under `mpirun -n N` the
// blocks of a study are split over N processes (threads within each), the
// records gathered on rank 0, which alone writes the files. MPI is in a
// module of its own (studies/mpi_module.h), built when CMake finds MPI and
// loaded only when mpirun started the process; otherwise there is one rank
// and these are no-ops. Under mpirun without the module, world() throws.

#include <string>
#include <vector>

namespace saltus::studies::mpi {

struct World {
  int rank = 0, size = 1;
};

// This process's rank; MPI is initialised on the first call when mpirun
// started the process (and finalised at exit).
World world();

// Every rank's lines on rank 0 (its own first, then rank 1's, ...); other
// ranks get nothing back. Collective: every rank calls it.
std::vector<std::string> gather_lines(const std::vector<std::string>& mine);

// Collective: waits for every rank.
void barrier();

// Ends every rank (MPI_Abort) with the exit code; without MPI, std::exit.
[[noreturn]] void abort(int code);

}  // namespace saltus::studies::mpi
