#include "studies/mpi_module.h"

#include <mpi.h>

#include <cstdlib>

namespace saltus::studies::mpi {
namespace {

void finalize() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

World world_under_mpi() {
  static const World w = [] {
    World w;
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      int provided = 0;  // only the main thread calls MPI (the workers compute)
      MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
      std::atexit(finalize);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w.size);
    return w;
  }();
  return w;
}

std::vector<std::string> gather_under_mpi(const std::vector<std::string>& mine) {
  const World w = world_under_mpi();
  if (w.size == 1) return mine;
  std::string packed;  // the lines, each ended by '\n' (journal lines hold none)
  for (const auto& l : mine) packed += l + '\n';
  int length = static_cast<int>(packed.size());
  std::vector<int> lengths(w.size), offsets(w.size);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (w.rank == 0) {
    long long total = 0;
    for (int r = 0; r < w.size; ++r) offsets[r] = static_cast<int>(total), total += lengths[r];
    all.resize(total);
  }
  MPI_Gatherv(packed.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; (end = all.find('\n', at)) != std::string::npos; at = end + 1)
    lines.push_back(all.substr(at, end - at));
  return lines;
}

void barrier_under_mpi() {
  if (world_under_mpi().size > 1) MPI_Barrier(MPI_COMM_WORLD);
}

void abort_under_mpi(int code) {
  if (world_under_mpi().size > 1) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

}  // namespace
}  // namespace saltus::studies::mpi

extern "C" const saltus::studies::mpi::Module* saltus_mpi_module() {
  using namespace saltus::studies::mpi;
  static const Module module{world_under_mpi, gather_under_mpi, barrier_under_mpi, abort_under_mpi};
  return &module;
}
