// `saltus filippov map RUNFILE [--out DIR] [--threads N]`: Fig. 4 of Szalai &
// Jeffrey (analyses/two_fold/map.h) as map.csv, map.json and a figure
// with the paper's panels (a)-(g) plus the case of each grid point.

#include <iomanip>
#include <sstream>

#include "analyses/two_fold/map.h"
#include "drivers/filippov_commands.h"
#include "drivers/output.h"
#include "studies/option_tables.h"

namespace saltus::drivers {

namespace {

// The "map" object, its keys and ranges from the run file's table
// (studies/option_tables_filippov.cpp).
TwoFoldMapOptions read_map_options(const Json& m, const std::filesystem::path& file) {
  const KeyTable& table = filippov_run_file().keys;
  only_keys(m, keys_under(table, "map."), file, "map.");
  TwoFoldMapOptions o;
  auto range = [&](const char* key, double* lo, double* hi) {
    if (!m.contains(key)) return;
    const Json& v = m[key];
    if (!v.is_array() || v.size() != 2) fail(file, std::string("'map.") + key + "' must be [min, max]");
    *lo = number(v[0], file, std::string("map.") + key + "[0]");
    *hi = number(v[1], file, std::string("map.") + key + "[1]");
  };
  range("r", &o.r_min, &o.r_max);
  range("omega", &o.omega_min, &o.omega_max);
  if (m.contains("resolution")) {
    const Json& v = m["resolution"];
    if (!v.is_array() || v.size() != 2) fail(file, "'map.resolution' must be [n_r, n_omega]");
    o.r_steps = integer(v[0], file, "map.resolution[0]");
    o.omega_steps = integer(v[1], file, "map.resolution[1]");
  }
  if (m.contains("threads")) o.threads = read_integer(table, "map.threads", m["threads"], file);
  if (m.contains("guess_offset"))
    o.guess_offset = read_number(table, "map.guess_offset", m["guess_offset"], file);
  return o;
}

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
  if (run.own)
    fail(file,
         "'filippov': `saltus filippov map` designs the wheel's two-fold by its closed forms (10)-(11) "
         "at each grid point: it needs \"model\": \"wheel_turntable\" (use `filippov continue` for your "
         "own system)");
  TwoFoldMapOptions options = read_map_options(run.json.value("map", Json::object()), file);
  if (threads < 0) fail(file, "--threads " + std::to_string(threads) + " must be >= 0 (0: all cores)");
  if (threads > 0) options.threads = threads;
  if (const std::string bad = options.check(); !bad.empty()) fail(file, "'map': " + bad);
  options.progress = [&err](int done, int rows) {
    err << "saltus filippov map: " << done << " / " << rows << " rows\n" << std::flush;
  };
  TwoFoldMap map;
  try {
    map = two_fold_map(run.wheel, options);
  } catch (const std::invalid_argument& e) {
    fail(file, e.what());
  }
  const std::filesystem::path dir = output_folder(run, out_dir);
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "map.csv", [&](std::ostream& o) { map.write_csv(o); });

  // The run file's design point, classified exactly (not on the grid).
  const bool has_point = run.json.contains("two_fold_at");
  Json j;
  j["name"] = run.name;
  j["grid"] = {{"r", {options.r_min, options.r_max}},
               {"omega", {options.omega_min, options.omega_max}},
               {"resolution", {options.r_steps, options.omega_steps}}};
  j["threads"] = map.threads;
  j["points"] = map.points.size();
  j["designed"] = map.designed;
  j["exists"] = map.exists;
  j["case1"] = map.case1;
  double r_mark = 0.0, omega_mark = 0.0;
  if (has_point) {
    r_mark = run.json["two_fold_at"]["r"].get<double>();
    omega_mark = run.json["two_fold_at"]["omega"].get<double>();
    const TwoFoldMapPoint p = two_fold_map_point(run.wheel, r_mark, omega_mark, options);
    j["two_fold_at"] = {{"r", r_mark},
                        {"omega", omega_mark},
                        {"exists", p.exists},
                        {"case", p.exists ? short_case(p.invariants) : p.failure},
                        {"case1", p.case1}};
  }
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
