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

#include "drivers/filippov_commands.h"
#include "studies/output.h"
#include "studies/two_fold_study.h"

namespace saltus::drivers {

namespace {

using Axes = SigmaAxes;

std::string num(double x) {
  std::ostringstream o;
  o << std::setprecision(12) << x;
  return o.str();
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

// regions.csv: the regions of Sigma on a 161 x 161 grid of the window
// (studies::sigma_regions; region code 0 crossing, 1 sliding, 2 escaping, 3 other).
void write_regions(const std::filesystem::path& dir, const FilippovRun& run, const Vector& xs, const Axes& a,
                   const Window& win) {
  const int n = 161;
  const auto grid = sigma_regions(run, xs, a, {win.x_lo, win.x_hi, win.y_lo, win.y_hi}, n);
  write_file_atomically(dir / "regions.csv", [&](std::ostream& o) {
    o << run.states[a.ix] << ',' << run.states[a.iy] << ',' << run.states[a.iz] << ",region\n"
      << std::setprecision(12);
    for (std::size_t k = 0; k < grid.size(); ++k) {
      o << grid[k].x << ',' << grid[k].y << ',' << grid[k].z << ',' << grid[k].region << '\n';
      if ((k + 1) % n == 0) o << '\n';
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

}  // namespace

int filippov_futures_command(const std::filesystem::path& file, const std::filesystem::path& out_dir,
                             int samples, bool json_out, std::ostream& out, std::ostream& err) {
  const FilippovRun run = read_filippov_run(file);
  if (samples < 0) fail(file, "--samples " + std::to_string(samples) + " must be >= 1");
  const FuturesOptions options = futures_options(run, samples);
  FuturesStudy f;
  try {
    f = two_fold_futures(run, options);
  } catch (const StudyError& e) {  // not located, not case 1, ...
    err << "saltus filippov futures: " << e.what() << '\n';
    return 2;
  }
  const Axes axes = sigma_axes(run, f.gradient);
  const std::filesystem::path dir = output_folder(run, out_dir);
  std::filesystem::create_directories(dir);
  const Vector& xs = f.x_star;
  const Window win = window_of(xs, axes, f.result);
  visit_model(run, [&](const auto& model) { write_orbits(dir, model, run.states, f.result); });
  write_regions(dir, run, xs, axes, win);
  std::string warning;
  render_gnuplot(dir, "futures", futures_script(run.name, run.states, xs, axes, win), &warning);
  if (!warning.empty()) err << "saltus filippov futures: warning: " << warning << '\n';
  write_file_atomically(dir / "futures.json", [&](std::ostream& o) { o << f.summary.dump(2) << '\n'; });
  if (json_out) {
    out << f.summary.dump(2) << '\n';
  } else {
    print_futures(run, xs, f.result, out);
    out << "wrote " << dir.string() << '\n';
  }
  return 0;
}

}  // namespace saltus::drivers
