#pragma once
// libsaltus_mpi.so: the only part of saltus linked with MPI.
// studies/grid_mpi.cpp loads it only when mpirun started the process:
// linking MPI into saltus itself made every start load libmpi and the seven
// libraries it needs, about 4 ms of CPU a process (the Lorenz example's
// whole run takes 49 ms), for the runs that never use it too.

#include <string>
#include <vector>

#include "studies/grid_mpi.h"

namespace saltus::studies::mpi {

// What grid_mpi.h promises, under MPI (MPI_Init on the first world()).
struct Module {
  World (*world)();
  std::vector<std::string> (*gather_lines)(const std::vector<std::string>& mine);
  void (*barrier)();
  void (*abort)(int code);  // MPI_Abort: does not return
};

}  // namespace saltus::studies::mpi

// The module's one exported symbol.
extern "C" const saltus::studies::mpi::Module* saltus_mpi_module();
