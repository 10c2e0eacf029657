#include "drivers/filippov_commands.h"

#include <unistd.h>

#include <cstdio>
#include <iomanip>

#include "drivers/studies.h"
#include "studies/output.h"
#include "studies/two_fold_study.h"

namespace saltus::drivers {

std::filesystem::path output_folder(const FilippovRun& run, const std::filesystem::path& out_dir) {
  return out_dir.empty() ? std::filesystem::path("out") / run.name : out_dir;
}

bool render_gnuplot(const std::filesystem::path& dir, const std::string& stem, const std::string& script,
                    std::string* warning) {
  if (!figures_drawn()) return false;  // --no-figures: neither the script nor gnuplot
  const std::string tmp = stem + ".png.tmp" + std::to_string(::getpid());
  write_file_atomically(dir / (stem + ".gp"), [&](std::ostream& o) {
    o << "# gnuplot script written by saltus; run `gnuplot " << stem << ".gp` in this folder\n"
      << "if (!exists('output')) output = '" << stem << ".png'\n"
      << script;
  });
  // For /bin/sh: single quotes, ' written as '\''.
  auto quoted = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  const std::string command = "cd " + quoted(dir.string()) + " && gnuplot -e " +
                              quoted("output='" + tmp + "'") + " " + quoted(stem + ".gp") + " 2>&1";
  std::string text;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe)) text += buffer;
    if (::pclose(pipe) == 0 && std::filesystem::exists(dir / tmp)) {
      std::filesystem::rename(dir / tmp, dir / (stem + ".png"));
      return true;
    }
  }
  std::filesystem::remove(dir / tmp);
  if (warning) *warning = "gnuplot failed, figure " + stem + ".png not drawn: " + text;
  return false;
}

int filippov_twofold_command(const std::filesystem::path& file, bool json_out, std::ostream& out,
                             std::ostream& err) {
  const FilippovRun run = read_filippov_run(file);
  TwoFoldResult result;
  try {
    result = studies::two_fold(run);
  } catch (const StudyError& e) {  // a switching surface without gradient there, ...
    err << "saltus filippov twofold: " << e.what() << '\n';
    return 1;
  }
  if (const std::string why = studies::two_fold_failure(run, result); !why.empty()) {
    err << "saltus filippov twofold: " << file.string() << ": " << why << '\n';
    return 2;
  }
  const TwoFoldClassification& c = *result.classification;
  if (json_out) {
    out << studies::two_fold_json(run, result).dump(2) << '\n';
  } else {
    out << run.name << ": two-fold at " << point_text(run.states, c.x, 12) << " (residual "
        << std::setprecision(3) << c.residual << ")\n"
        << "  K++ = " << std::setprecision(9) << c.K.pp << ", K+- = " << c.K.pm << ", K-+ = " << c.K.mp
        << ", K-- = " << c.K.mm << "\n  ";
    if (c.j_defined)
      out << "J1 = " << c.J1 << ", J2 = " << c.J2 << ", eigenvalues of (30): " << c.eigenvalues[0] << ", "
          << c.eigenvalues[1];
    else
      out << "J1, J2 and (30) undefined (K++ K-- > 0)";
    out << "\n  " << type_name(c.type) << ", " << case_name(c.twofold_case)
        << (c.nondeterministic ? " (non-deterministic)" : "") << '\n';
  }
  return 0;
}

namespace {

// The last state component (the wheel's omega*) along the curve against the parameter, boundaries labelled.
void draw_continuation(const FilippovRun& run, const TwoFoldContinuation& c, const std::filesystem::path& dir,
                       std::ostream& err) {
  const int n = static_cast<int>(run.states.size()), shown = n - 1;
  Figure f{run.name + ": two-fold continued in " + c.parameter, c.parameter, run.states[shown] + "*", {}, {}};
  Figure::Series s{"two-fold", {}, "lines", ""};
  for (const auto& p : c.branch.points) s.points.emplace_back(p.y[n], p.y[shown]);
  f.series.push_back(std::move(s));
  for (const auto& b : c.boundaries) f.labels.push_back({b.parameter, b.x[shown], b.name});
  f.labels_title = "case boundaries";
  std::string warning;
  draw(f, dir, "twofold_branch", &warning);
  if (!warning.empty()) err << "saltus filippov continue: warning: " << warning << '\n';
}

}  // namespace

int filippov_continue_command(const std::filesystem::path& file, const std::filesystem::path& out_dir,
                              bool json_out, std::ostream& out, std::ostream& err) {
  const FilippovRun run = read_filippov_run(file);
  TwoFoldContinuation c;
  try {
    c = continue_two_fold(run, two_fold_continuation_options(run));
  } catch (const StudyError& e) {  // the start not located, ...
    err << "saltus filippov continue: " << e.what() << '\n';
    return 2;
  }
  const std::filesystem::path dir = output_folder(run, out_dir);
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "twofold_branch.csv", [&](std::ostream& o) { c.branch.write_csv(o); });
  const Json j = two_fold_continuation_json(run, c);
  write_file_atomically(dir / "twofold_branch.json", [&](std::ostream& o) { o << j.dump(2) << '\n'; });
  draw_continuation(run, c, dir, err);
  if (json_out) {
    out << j.dump(2) << '\n';
  } else {
    out << run.name << ": " << c.message << '\n';
    for (const auto& b : c.boundaries)
      out << "  " << std::setw(7) << b.name << "  " << c.parameter << " = " << std::setprecision(10)
          << b.parameter << "  at " << point_text(run.states, b.x, 10) << "  (" << b.before << " -> "
          << b.after << ", " << to_string(b.status) << ")\n";
    out << "wrote " << dir.string() << '\n';
  }
  return 0;
}

}  // namespace saltus::drivers
