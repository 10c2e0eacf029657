// `saltus filippov futures RUNFILE [--out DIR] [--samples N]`: the sliding
// orbits into a case-1 two-fold and a sample of its futures
// (analyses/two_fold/futures.h), as CSV and a figure like Szalai &
// Jeffrey's Fig. 5: left, the switching surface around x* in (r, omega)
// (Sigma is the graph v = v(r, omega) of h = 0) with its regions and the
// orbits on it; right, the futures in (r, omega, v).

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>

#include "analyses/two_fold/futures.h"
#include "continuation/newton.h"
#include "drivers/filippov_commands.h"
#include "drivers/output.h"
#include "studies/option_tables.h"

namespace saltus::drivers {

namespace {

// The "futures" object, its keys and ranges from the run file's table
// (studies/option_tables_filippov.cpp).
FuturesOptions read_futures_options(const Json& f, const std::filesystem::path& file) {
  const KeyTable& table = filippov_run_file().keys;
  only_keys(f, keys_under(table, "futures."), file, "futures.");
  FuturesOptions o;
  const std::pair<const char*, int*> integers[] = {{"samples", &o.samples},
                                                   {"approach_samples", &o.approach_samples}};
  for (const auto& [key, field] : integers)
    if (f.contains(key)) *field = read_integer(table, std::string("futures.") + key, f[key], file);
  const std::pair<const char*, double*> numbers[] = {{"approach_radius", &o.approach_radius},
                                                     {"arrival_distance", &o.arrival_distance},
                                                     {"approach_time", &o.approach_time},
                                                     {"escape_radius", &o.escape_radius},
                                                     {"max_liftoff_time", &o.max_liftoff_time},
                                                     {"simulate_time", &o.simulate_time},
                                                     {"max_step", &o.max_step}};
  for (const auto& [key, field] : numbers)
    if (f.contains(key)) *field = read_number(table, std::string("futures.") + key, f[key], file);
  return o;
}

std::string num(double x) {
  std::ostringstream o;
  o << std::setprecision(12) << x;
  return o.str();
}

// The figure's axes: iz, the state solved for on Sigma (of those not named
// by the run's "plot", the one along which h changes fastest at x*; the
// rest stay at x*), and ix, iy ("plot" {x, y}, else the first two others).
// The wheel's: iz = v, (ix, iy) = (r, omega); examples/user/two_fold.json's:
// z, (x, y).
struct Axes {
  int ix = 0, iy = 0, iz = 0;
};

Axes axes_of(const FilippovRun& run, const Vector& gradient) {
  const auto& names = run.states;
  const int n = static_cast<int>(names.size());
  const Json plot = run.json.value("plot", Json::object());
  only_keys(plot, keys_under(filippov_run_file().keys, "plot."), run.path, "plot.");
  auto index = [&](const char* key) {
    if (!plot.contains(key)) return -1;
    const std::string name = string(plot[key], run.path, std::string("plot.") + key);
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) fail(run.path, "'plot." + std::string(key) + "' = '" + name + "' is not a state");
    return static_cast<int>(it - names.begin());
  };
  Axes a{index("x"), index("y"), -1};
  if (a.ix >= 0 && a.ix == a.iy) fail(run.path, "'plot': x and y must be two different states");
  for (int i = 0; i < n; ++i)
    if (i != a.ix && i != a.iy && (a.iz < 0 || std::abs(gradient[i]) > std::abs(gradient[a.iz]))) a.iz = i;
  for (int i = 0; i < n; ++i) {
    if (i == a.iz || i == a.ix || i == a.iy) continue;
    if (a.ix < 0)
      a.ix = i;
    else if (a.iy < 0)
      a.iy = i;
  }
  return a;
}

// The (x, y) window of the figure: x* and every future, padded.
struct Window {
  double x_lo, x_hi, y_lo, y_hi;
};

Window window_of(const Vector& xs, const Axes& a, const FuturesResult& r) {
  Window w{xs[a.ix], xs[a.ix], xs[a.iy], xs[a.iy]};
  for (const auto& f : r.futures)
    for (const auto& s : f.segments)
      for (const auto& x : s.x) {
        w.x_lo = std::min(w.x_lo, x[a.ix]), w.x_hi = std::max(w.x_hi, x[a.ix]);
        w.y_lo = std::min(w.y_lo, x[a.iy]), w.y_hi = std::max(w.y_hi, x[a.iy]);
      }
  const double pad_x = 0.1 * (w.x_hi - w.x_lo) + 1e-3, pad_y = 0.1 * (w.y_hi - w.y_lo) + 1e-3;
  w.x_lo -= pad_x, w.x_hi += pad_x, w.y_lo -= pad_y, w.y_hi += pad_y;
  return w;
}

// approach.csv and futures.csv: one row per sample point, blank lines
// between segments (gnuplot lines).
template <filippov::Model M>
void write_orbits(const std::filesystem::path& dir, const M& model, const std::vector<std::string>& states,
                  const FuturesResult& r) {
  std::string header = "orbit,segment,kind,t";
  for (const auto& s : states) header += "," + s;
  header += ",h\n";
  auto write_segment = [&](std::ostream& o, const std::string& id, int k, const FlowSegment& s) {
    for (std::size_t i = 0; i < s.t.size(); ++i) {
      o << id << ',' << k << ',' << segment_name(s.kind) << ',' << s.t[i];
      for (int c = 0; c < s.x[i].size(); ++c) o << ',' << s.x[i][c];
      o << ',' << model.switching(s.x[i].data()) << '\n';
    }
    o << '\n';
  };
  write_file_atomically(dir / "approach.csv", [&](std::ostream& o) {
    o << header << std::setprecision(15);
    for (std::size_t a = 0; a < r.approaches.size(); ++a)
      write_segment(o, "approach" + std::to_string(a), 0, r.approaches[a].path);
  });
  write_file_atomically(dir / "futures.csv", [&](std::ostream& o) {
    o << header << std::setprecision(15);
    for (std::size_t f = 0; f < r.futures.size(); ++f)
      for (std::size_t k = 0; k < r.futures[f].segments.size(); ++k)
        write_segment(o, "future" + std::to_string(f), static_cast<int>(k), r.futures[f].segments[k]);
  });
}

// The point of Sigma over (x, y): h = 0 solved for the axis iz by Newton
// from x* (the wheel's h is linear in v: one step, exact); nullopt where
// it does not converge.
template <filippov::Model M>
std::optional<Vector> on_surface(const M& model, const Vector& xs, const Axes& a, double x, double y) {
  NewtonProblem problem;
  problem.residual = [&model](const Vector& z, Vector* h) {
    *h = Vector::Constant(1, model.switching(z.data()));
  };
  problem.jacobian = [&model](const Vector& z, Matrix* J) { *J = filippov::gradient(model, z).transpose(); };
  problem.solve = [&a](const Matrix& J, const Vector& h, Vector* dz) {
    if (!(std::abs(J(0, a.iz)) > 0.0)) return false;
    *dz = Vector::Zero(J.cols());
    (*dz)[a.iz] = h[0] / J(0, a.iz);
    return true;
  };
  NewtonOptions newton;
  newton.residual_tolerance = 1e-13;
  Vector start = xs;
  start[a.ix] = x;
  start[a.iy] = y;
  const NewtonResult r = damped_newton(problem, start, newton);
  if (!r.converged()) return std::nullopt;
  return r.x;
}

// regions.csv: the regions of Sigma on an (x, y) grid of the window.
template <filippov::Model M>
void write_regions(const std::filesystem::path& dir, const M& model, const std::vector<std::string>& states,
                   const Vector& xs, const Axes& a, const Window& win) {
  write_file_atomically(dir / "regions.csv", [&](std::ostream& o) {
    // region code: 0 crossing, 1 sliding, 2 escaping, 3 other
    o << states[a.ix] << ',' << states[a.iy] << ',' << states[a.iz] << ",region\n" << std::setprecision(12);
    const int n = 161;
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        const double x = win.x_lo + (win.x_hi - win.x_lo) * i / (n - 1);
        const double y = win.y_lo + (win.y_hi - win.y_lo) * j / (n - 1);
        int code = 3;
        double z = std::nan("");
        try {
          if (const auto p = on_surface(model, xs, a, x, y)) {
            z = (*p)[a.iz];
            filippov::Options fo;
            fo.surface_tolerance = 1e-9;
            const auto region = filippov::classify(model, *p, fo).region;
            code = region == filippov::Region::kCrossing   ? 0
                   : region == filippov::Region::kSliding  ? 1
                   : region == filippov::Region::kEscaping ? 2
                                                           : 3;
          }
        } catch (const std::exception&) {
        }
        o << x << ',' << y << ',' << z << ',' << code << '\n';
      }
      o << '\n';
    }
  });
}

// The two panels of Fig. 5 (gnuplot script reading the CSV files; columns 5.. are the states).
std::string futures_script(const std::string& name, const std::vector<std::string>& states, const Vector& xs,
                           const Axes& a, const Window& win) {
  const std::string cx = std::to_string(5 + a.ix), cy = std::to_string(5 + a.iy),
                    cz = std::to_string(5 + a.iz);
  std::ostringstream gp;
  gp << "set datafile separator ','\nset datafile columnheaders\n"
     << "set terminal pngcairo size 1600,720 font ',10'\nset output output\n"
     << "set multiplot layout 1,2 title '" << name
     << ": non-deterministic futures of the case-1 two-fold (Szalai & Jeffrey Fig. 5)' noenhanced\n"
     << "set xrange [" << num(win.x_lo) << ":" << num(win.x_hi) << "]\nset yrange [" << num(win.y_lo) << ":"
     << num(win.y_hi) << "]\n"
     << "set xlabel '" << states[a.ix] << "' noenhanced\nset ylabel '" << states[a.iy]
     << "' noenhanced\nunset colorbox\n"
     << "set palette defined (0 '#e5f5e0', 1 '#bdbdbd', 2 'white', 3 '#fee0d2')\nset cbrange [0:3]\n"
     << "set title 'on Sigma: sliding S (grey), escaping E (white), crossing C (green); sliding into x*, "
        "escaping out of it' noenhanced\n"
     << "set label 1 'x*' at " << num(xs[a.ix]) << "," << num(xs[a.iy])
     << " point pt 7 ps 1.2 lc rgb '#d62728' offset 1,1 front\n"
     << "plot 'regions.csv' using 1:2:4 with image pixels notitle, "
     << "'approach.csv' using " << cx << ":" << cy
     << " with lines lw 2 lc rgb '#08519c' title 'sliding orbits into x*', "
     << "'futures.csv' using " << cx << ":(strcol(3) eq 'escaping' ? $" << cy
     << " : NaN) with lines lw 2 lc rgb '#d62728' title 'escaping sliding out of x*', "
     << "'futures.csv' using " << cx << ":" << cy
     << " with lines lw 0.5 lc rgb '#99000000' title 'futures (projection)'\n"
     << "unset label 1\nset title 'futures in (" << states[a.ix] << ", " << states[a.iy] << ", "
     << states[a.iz] << "): slip in h > 0 (orange), h < 0 (purple)' noenhanced\n"
     << "set zlabel '" << states[a.iz] << "' noenhanced\nset view 60, 30\nunset xrange\nunset yrange\n"
     << "splot 'futures.csv' using " << cx << ":(strcol(3) eq 'slip+' ? $" << cy << " : NaN):" << cz
     << " with lines lc rgb '#e6550d' title 'slip+', "
     << "'futures.csv' using " << cx << ":(strcol(3) eq 'slip-' ? $" << cy << " : NaN):" << cz
     << " with lines lc rgb '#756bb1' title 'slip-', "
     << "'futures.csv' using " << cx << ":((strcol(3) eq 'sliding' || strcol(3) eq 'escaping') ? $" << cy
     << " : NaN):" << cz << " with lines lw 2 lc rgb '#252525' title 'on Sigma', "
     << "'+' using (" << num(xs[a.ix]) << "):(" << num(xs[a.iy]) << "):(" << num(xs[a.iz])
     << ") every ::0::0 with points pt 7 ps 1.5 lc rgb '#d62728' title 'x*'\n"
     << "unset multiplot\n";
  return gp.str();
}

Json futures_json(const std::string& name, const std::vector<std::string>& states, const Vector& xs,
                  const FuturesResult& r) {
  Json j;
  j["name"] = name;
  j["x_star"] = Json::object();
  for (std::size_t i = 0; i < states.size(); ++i) j["x_star"][states[i]] = xs[static_cast<int>(i)];
  j["case"] = short_case(r.two_fold);
  j["message"] = r.message;
  Json ap = Json::array();
  for (const auto& a : r.approaches)
    ap.push_back({{"start_region", a.start_region},
                  {"arrived", a.arrived},
                  {"arrival_time", a.arrival_time},
                  {"final_distance", a.final_distance},
                  {"remaining_time", a.remaining_time}});
  j["approaches"] = ap;
  Json fu = Json::array();
  for (const auto& f : r.futures)
    fu.push_back({{"start_region", f.start_region},
                  {"liftoff_time", f.liftoff_time},
                  {"sampled_side", f.side},
                  {"left_side", f.left_side},
                  {"segments", f.segments.size()},
                  {"end_time", f.end_time},
                  {"end", f.end}});
  j["futures"] = fu;
  return j;
}

void print_futures(const FilippovRun& run, const Vector& xs, const FuturesResult& r, std::ostream& out) {
  out << run.name << ": two-fold at " << std::setprecision(10);
  for (std::size_t i = 0; i < run.states.size(); ++i)
    out << (i ? ", " : "") << run.states[i] << " = " << xs[static_cast<int>(i)];
  out << " (" << short_case(r.two_fold) << ")\n  " << r.message << '\n';
  for (const auto& a : r.approaches)
    out << "  from the sliding region: " << (a.arrived ? "arrived" : "did not arrive")
        << " at t = " << std::setprecision(6) << a.arrival_time << ", |x - x*| = " << a.final_distance
        << '\n';
  std::map<std::string, int> ends;
  for (const auto& f : r.futures) ends[f.end.substr(0, f.end.find(" ("))]++;  // without the numbers
  for (const auto& [why, count] : ends) out << "  " << count << " future(s): " << why << '\n';
  if (ends.count("reached Sigma where the barrier function vanishes"))
    out << (run.own ? "  (the barrier is futures.barrier)\n"
                    : "  (the barrier is g, (5): on Sigma at g = 0, omega = omega0, the wheel does not move "
                      "over the disc and the tyre moment sign(g) kappa lambda is undefined)\n");
}

// Locates the two-fold and samples its futures; the status and message of a failure.
struct FuturesRun {
  int code = 0;
  std::string error;
  Vector x_star, gradient;
  FuturesResult result;
};

FuturesRun run_futures(const FilippovRun& run, const FuturesOptions& options) {
  FuturesRun f;
  try {
    visit_model(run, [&](const auto& model) {
      const TwoFoldResult located = locate_two_fold(model, run.guess);
      if (!located.located()) {
        f.code = 2, f.error = located.message;
        return;
      }
      f.x_star = located.x;
      f.gradient = filippov::gradient(model, located.x);
      f.result = sample_futures(model, located.x, options, {}, run.barrier);
      if (!f.result.ok) f.code = 2, f.error = f.result.message;
    });
  } catch (const std::exception& e) {
    f.code = 1, f.error = e.what();
  }
  return f;
}

}  // namespace

int filippov_futures_command(const std::filesystem::path& file, const std::filesystem::path& out_dir,
                             int samples, bool json_out, std::ostream& out, std::ostream& err) {
  const FilippovRun run = read_filippov_run(file);
  if (!run.has_guess) fail(file, "'guess' is missing: give {state: value} near the case-1 two-fold");
  if (run.states.size() < 3) fail(file, "'states': a two-fold needs at least 3 states");
  FuturesOptions options = read_futures_options(run.json.value("futures", Json::object()), file);
  if (samples < 0) fail(file, "--samples " + std::to_string(samples) + " must be >= 1");
  if (samples > 0) options.samples = samples;
  if (const std::string bad = options.check(); !bad.empty()) fail(file, "'futures': " + bad);
  const FuturesRun f = run_futures(run, options);
  if (f.code != 0) {
    err << "saltus filippov futures: " << file.string() << ": " << f.error << '\n';
    return f.code;
  }
  const Axes axes = axes_of(run, f.gradient);
  const std::filesystem::path dir = output_folder(run, out_dir);
  std::filesystem::create_directories(dir);
  const Vector& xs = f.x_star;
  const Window win = window_of(xs, axes, f.result);
  visit_model(run, [&](const auto& model) {
    write_orbits(dir, model, run.states, f.result);
    write_regions(dir, model, run.states, xs, axes, win);
  });
  std::string warning;
  render_gnuplot(dir, "futures", futures_script(run.name, run.states, xs, axes, win), &warning);
  if (!warning.empty()) err << "saltus filippov futures: warning: " << warning << '\n';
  const Json j = futures_json(run.name, run.states, xs, f.result);
  write_file_atomically(dir / "futures.json", [&](std::ostream& o) { o << j.dump(2) << '\n'; });
  if (json_out) {
    out << j.dump(2) << '\n';
  } else {
    print_futures(run, xs, f.result, out);
    out << "wrote " << dir.string() << '\n';
  }
  return 0;
}

}  // namespace saltus::drivers
