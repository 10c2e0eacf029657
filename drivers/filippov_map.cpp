// `saltus filippov map RUNFILE [--out DIR] [--threads N]`: Fig. 4 of Szalai &
// Jeffrey (analyses/two_fold/map.h) as map.csv, map.json and a figure
// with the paper's panels (a)-(g) plus the case of each grid point.

#include <iomanip>
#include <sstream>

#include "drivers/filippov_commands.h"
#include "studies/output.h"
#include "studies/two_fold_study.h"

namespace saltus::drivers {

namespace {

std::string num(double x) {
  std::ostringstream o;
  o << std::setprecision(12) << x;
  return o.str();
}

std::string map_script(const std::string& title, const TwoFoldMapOptions& o, bool mark, double r_mark,
                       double omega_mark) {
  std::ostringstream s;
  s << "set datafile separator ','\nset datafile columnheaders\n"
    << "set terminal pngcairo size 1800,960 font ',10'\nset output output\n"
    << "set xrange [" << num(o.r_min) << ":" << num(o.r_max) << "]\nset yrange [" << num(o.omega_min) << ":"
    << num(o.omega_max) << "]\n"
    << "set xlabel 'r*'\nset ylabel 'omega*' noenhanced\nunset colorbox\nset tics out\n";
  if (mark)
    s << "set label 1 '' at " << num(r_mark) << "," << num(omega_mark)
      << " point pt 7 ps 1.2 lc rgb '#d62728' front\n";
  s << "set multiplot layout 2,4 title "
    << "'" << title
    << ": conditions of a non-deterministic two-fold over the designed (r*, omega*) (Szalai & Jeffrey Fig. "
       "4; "
       "red dot: the run file point)' noenhanced\n";
  const struct {
    int column;
    const char* title;
  } flags[] = {{21, "(a) case 1 (Teixeira, non-deterministic), k2 > 0, kappa > 0"},
               {14, "(b) K-- > 0"},
               {15, "(c) K++ < 0"},
               {16, "(d) J1 < 0"},
               {17, "(e) J2 < 0"},
               {18, "(f) J1 J2 - 1 > 0"}};
  s << "set palette defined (0 'white', 1 '#808080')\nset cbrange [0:1]\n";
  for (const auto& f : flags)
    s << "set title '" << f.title << "' noenhanced\nplot 'map.csv' using 1:2:" << f.column
      << " with image pixels notitle\n";
  s << "set title '(g) k2 > 0 (blue), kappa > 0 (orange), both (grey)' noenhanced\n"
    << "set palette defined (0 'white', 1 '#9ecae1', 2 '#fdae6b', 3 '#808080')\nset cbrange [0:3]\n"
    << "plot 'map.csv' using 1:2:($19 + 2 * $20) with image pixels notitle\n"
    << "set title 'case 1 grey, 2 blue, 3 orange; not (27) white' noenhanced\n"
    << "set palette defined (-1 '#404040', 0 'white', 1 '#808080', 2 '#6baed6', 3 '#fd8d3c', 4 'black')\n"
    << "set cbrange [-1:4]\nplot 'map.csv' using 1:2:22 with image pixels notitle\n"
    << "unset multiplot\n";
  return s.str();
}

}  // namespace

int filippov_map_command(const std::filesystem::path& file, const std::filesystem::path& out_dir, int threads,
                         bool json_out, std::ostream& out, std::ostream& err) {
  const FilippovRun run = read_filippov_run(file);
  if (threads < 0) fail(file, "--threads " + std::to_string(threads) + " must be >= 0 (0: all cores)");
  const TwoFoldMapOptions options = two_fold_map_options(run, threads);
  const TwoFoldMapStudy study = two_fold_map(run, options, [&err](int done, int rows) {
    err << "saltus filippov map: " << done << " / " << rows << " rows\n" << std::flush;
  });
  const TwoFoldMap& map = study.map;
  const Json& j = study.summary;
  const std::filesystem::path dir = output_folder(run, out_dir);
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "map.csv", [&](std::ostream& o) { map.write_csv(o); });

  const bool has_point = j.contains("two_fold_at");
  const double r_mark = has_point ? j["two_fold_at"]["r"].get<double>() : 0.0;
  const double omega_mark = has_point ? j["two_fold_at"]["omega"].get<double>() : 0.0;
  write_file_atomically(dir / "map.json", [&](std::ostream& o) { o << j.dump(2) << '\n'; });
  std::string warning;
  render_gnuplot(dir, "map", map_script(run.name, options, has_point, r_mark, omega_mark), &warning);
  if (!warning.empty()) err << "saltus filippov map: warning: " << warning << '\n';
  if (json_out) {
    out << j.dump(2) << '\n';
  } else {
    out << run.name << ": " << options.r_steps << " x " << options.omega_steps << " grid of (r*, omega*) on "
        << map.threads << " threads: " << map.designed << " designed, " << map.exists
        << " two-folds located, " << map.case1 << " in case 1 with k2, kappa > 0\n";
    if (has_point)
      out << "  at (r*, omega*) = (" << r_mark << ", " << omega_mark
          << "): " << j["two_fold_at"]["case"].get<std::string>() << '\n';
    out << "wrote " << dir.string() << '\n';
  }
  return 0;
}

}  // namespace saltus::drivers
