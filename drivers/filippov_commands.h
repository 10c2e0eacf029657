#pragma once
// `saltus filippov twofold RUNFILE [--json]`: a two-fold singularity of a
// Filippov system located by Newton from the run file's guess and classified
// (Szalai & Jeffrey, Sec. IV): x*, K (22), J1, J2, the eigen-problem (30),
// the case. Run files: examples/wheel_turntable.json; keys in kFilippovRunFileHelp.

#include <filesystem>
#include <ostream>

namespace saltus::drivers {

int filippov_twofold_command(const std::filesystem::path& file, bool json, std::ostream& out, std::ostream& err);

extern const char* const kFilippovRunFileHelp;

}  // namespace saltus::drivers
