#include "studies/grid_mpi.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "studies/mpi_module.h"

namespace saltus::studies::mpi {
namespace fs = std::filesystem;

namespace {

// Open MPI's mpirun (and PMIx launchers) set these in every rank's
// environment; a plain `saltus` run never loads MPI.
bool under_mpirun() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

// libsaltus_mpi.so beside the executable (the build tree), else where
// `cmake --install` puts it relative to the executable's folder.
const Module* load() {
  std::error_code error;
  const fs::path bin = fs::read_symlink("/proc/self/exe", error).parent_path();
  std::vector<fs::path> places{bin / "libsaltus_mpi.so"};
#ifdef SALTUS_MPI_MODULE_FROM_BIN
  places.push_back(bin / SALTUS_MPI_MODULE_FROM_BIN / "libsaltus_mpi.so");
#endif
  std::string looked;
  for (const auto& place : places) {
    if (!fs::exists(place)) {
      looked += (looked.empty() ? "" : ", ") + place.lexically_normal().string();
      continue;
    }
    // RTLD_GLOBAL: the components Open MPI dlopens resolve symbols of libmpi.
    void* handle = dlopen(place.c_str(), RTLD_NOW | RTLD_GLOBAL);
    const auto entry =
        handle ? reinterpret_cast<const Module* (*)()>(dlsym(handle, "saltus_mpi_module")) : nullptr;
    if (!entry) {
      const char* why = dlerror();
      throw std::runtime_error("mpirun started saltus, but its MPI module " + place.string() +
                               " does not load (" + (why ? why : "no saltus_mpi_module") +
                               "): rebuild saltus");
    }
    return entry();
  }
  throw std::runtime_error(
      "mpirun started saltus, but it has no MPI module (looked for " + looked +
      "): saltus was built without MPI (Debian: apt-get install libopenmpi-dev openmpi-bin, then "
      "rebuild), or the module was moved; without mpirun the study runs on this machine's threads");
}

// Null when mpirun did not start the process: one rank.
const Module* module() {
  if (!under_mpirun()) return nullptr;
  static const Module* const m = load();  // on a throw, the next call tries again
  return m;
}

}  // namespace

World world() { return module() ? module()->world() : World{}; }

std::vector<std::string> gather_lines(const std::vector<std::string>& mine) {
  return module() ? module()->gather_lines(mine) : mine;
}

void barrier() {
  if (module()) module()->barrier();
}

void abort(int code) {
  if (module()) module()->abort(code);
  std::exit(code);
}

}  // namespace saltus::studies::mpi
