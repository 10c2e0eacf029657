#pragma once
// The `saltus filippov` subcommands (Szalai & Jeffrey, Secs. III-V):
//   twofold RUNFILE [--json]                     a two-fold located by Newton from the run file's
//                                                guess and classified: x*, K (22), J1, J2, (30), the case
//   map RUNFILE [--out DIR] [--threads N]        Fig. 4: the conditions of case 1 over a grid of the
//                                                designed (r*, omega*), CSV and a figure with panels
//   futures RUNFILE [--out DIR] [--samples N]    Fig. 5: sliding orbits into the case-1 two-fold and
//                                                sampled futures out of it, CSV and a figure
//   continue RUNFILE [--out DIR]                 the two-fold continued in one constant, with the case
//                                                boundaries located
// Run files: the built-in wheel (examples/wheel_turntable.json) or your own
// Filippov system by expressions (the "filippov" schema of
// models/filippov_expression.h; examples/user/wheel_turntable.json,
// examples/user/two_fold.json); keys in filippov_run_file_help(). `map`
// designs the wheel's two-fold by its closed forms (10)-(11): the wheel only.

#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "drivers/studies.h"
#include "studies/filippov_study.h"

namespace saltus::drivers {

int filippov_twofold_command(const std::filesystem::path& file, bool json, std::ostream& out,
                             std::ostream& err);
// threads: 0 = the run file's (default all cores).
int filippov_map_command(const std::filesystem::path& file, const std::filesystem::path& out_dir, int threads,
                         bool json, std::ostream& out, std::ostream& err);
// samples: 0 = the run file's (default 16).
int filippov_futures_command(const std::filesystem::path& file, const std::filesystem::path& out_dir,
                             int samples, bool json, std::ostream& out, std::ostream& err);
int filippov_continue_command(const std::filesystem::path& file, const std::filesystem::path& out_dir,
                              bool json, std::ostream& out, std::ostream& err);

// Writes <stem>.gp into dir and runs gnuplot there; the script writes
// <stem>.png (to a temporary name, renamed on success). Returns false and
// sets *warning if gnuplot failed (the data files stay); false, writing
// nothing and no warning, under --no-figures (studies/output.h).
bool render_gnuplot(const std::filesystem::path& dir, const std::string& stem, const std::string& script,
                    std::string* warning);

// The output folder: out_dir, else out/<name>.
std::filesystem::path output_folder(const FilippovRun& run, const std::filesystem::path& out_dir);

}  // namespace saltus::drivers
