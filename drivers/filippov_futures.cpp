// `saltus filippov futures RUNFILE [--out DIR] [--samples N]`: the sliding
// orbits into a case-1 two-fold and a sample of its futures
// (analyses/two_fold/futures.h), as CSV and a figure like Szalai &
// Jeffrey's Fig. 5: left, the switching surface around x* in (r, omega)
// (Sigma is the graph v = v(r, omega) of h = 0) with its regions and the
// orbits on it; right, the futures in (r, omega, v).

#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

#include "analyses/two_fold/futures.h"
#include "drivers/filippov_commands.h"
#include "drivers/output.h"

namespace saltus::drivers {

namespace {

FuturesOptions read_futures_options(const Json& f, const std::filesystem::path& file) {
  only_keys(f,
            {"samples", "approach_samples", "approach_radius", "arrival_distance", "approach_time",
             "escape_radius", "max_liftoff_time", "simulate_time", "max_step"},
            file, "futures.");
  FuturesOptions o;
  if (f.contains("samples")) o.samples = integer(f["samples"], file, "futures.samples");
  if (f.contains("approach_samples"))
    o.approach_samples = integer(f["approach_samples"], file, "futures.approach_samples");
  const std::pair<const char*, double*> numbers[] = {{"approach_radius", &o.approach_radius},
                                                     {"arrival_distance", &o.arrival_distance},
                                                     {"approach_time", &o.approach_time},
                                                     {"escape_radius", &o.escape_radius},
                                                     {"max_liftoff_time", &o.max_liftoff_time},
                                                     {"simulate_time", &o.simulate_time},
                                                     {"max_step", &o.max_step}};
  for (const auto& [key, field] : numbers)
    if (f.contains(key)) *field = number(f[key], file, std::string("futures.") + key);
  return o;
}

std::string num(double x) {
  std::ostringstream o;
  o << std::setprecision(12) << x;
  return o.str();
}

// The (r, omega) window of the figure: x* and every future, padded.
struct Window {
  double r_lo, r_hi, w_lo, w_hi;
};

Window window_of(const Vector& xs, const FuturesResult& r) {
  Window w{xs[0], xs[0], xs[2], xs[2]};
  for (const auto& f : r.futures)
    for (const auto& s : f.segments)
      for (const auto& x : s.x) {
        w.r_lo = std::min(w.r_lo, x[0]), w.r_hi = std::max(w.r_hi, x[0]);
        w.w_lo = std::min(w.w_lo, x[2]), w.w_hi = std::max(w.w_hi, x[2]);
      }
  const double pad_r = 0.1 * (w.r_hi - w.r_lo) + 1e-3, pad_w = 0.1 * (w.w_hi - w.w_lo) + 1e-3;
  w.r_lo -= pad_r, w.r_hi += pad_r, w.w_lo -= pad_w, w.w_hi += pad_w;
  return w;
}

// approach.csv and futures.csv: one row per sample point, blank lines
// between segments (gnuplot lines).
void write_orbits(const std::filesystem::path& dir, const models::WheelTurntable& wheel,
                  const FuturesResult& r) {
  auto write_segment = [&](std::ostream& o, const std::string& id, int k, const FlowSegment& s) {
    for (std::size_t i = 0; i < s.t.size(); ++i)
      o << id << ',' << k << ',' << segment_name(s.kind) << ',' << s.t[i] << ',' << s.x[i][0] << ','
        << s.x[i][1] << ',' << s.x[i][2] << ',' << wheel.switching(s.x[i].data()) << '\n';
    o << '\n';
  };
  write_file_atomically(dir / "approach.csv", [&](std::ostream& o) {
    o << "orbit,segment,kind,t,r,v,omega,h\n" << std::setprecision(15);
    for (std::size_t a = 0; a < r.approaches.size(); ++a)
      write_segment(o, "approach" + std::to_string(a), 0, r.approaches[a].path);
  });
  write_file_atomically(dir / "futures.csv", [&](std::ostream& o) {
    o << "orbit,segment,kind,t,r,v,omega,h\n" << std::setprecision(15);
    for (std::size_t f = 0; f < r.futures.size(); ++f)
      for (std::size_t k = 0; k < r.futures[f].segments.size(); ++k)
        write_segment(o, "future" + std::to_string(f), static_cast<int>(k), r.futures[f].segments[k]);
  });
}

// regions.csv: the regions of Sigma on an (r, omega) grid of the window, v
// from h = 0.
void write_regions(const std::filesystem::path& dir, const models::WheelTurntable& wheel, const Window& win) {
  write_file_atomically(dir / "regions.csv", [&](std::ostream& o) {
    // region code: 0 crossing, 1 sliding, 2 escaping, 3 other
    o << "r,omega,v,region\n" << std::setprecision(12);
    const int n = 161;
    const double s = std::sin(wheel.gamma), c = std::cos(wheel.gamma);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        const double rr = win.r_lo + (win.r_hi - win.r_lo) * i / (n - 1);
        const double w = win.w_lo + (win.w_hi - win.w_lo) * j / (n - 1);
        const double dw = w - wheel.omega0;
        Vector x(3);
        x << rr, (wheel.d * dw * s - rr * dw * c) / s, w;  // h = 0 solved for v (sin(gamma) != 0)
        int code = 3;
        try {
          filippov::Options fo;
          fo.surface_tolerance = 1e-9;
          const auto p = filippov::classify(wheel, x, fo);
          code = p.region == filippov::Region::kCrossing   ? 0
                 : p.region == filippov::Region::kSliding  ? 1
                 : p.region == filippov::Region::kEscaping ? 2
                                                           : 3;
        } catch (const std::exception&) {
        }
        o << rr << ',' << w << ',' << x[1] << ',' << code << '\n';
      }
      o << '\n';
    }
  });
}

// The two panels of Fig. 5 (gnuplot script reading the CSV files).
std::string futures_script(const std::string& name, const Vector& xs, const Window& win) {
  std::ostringstream gp;
  gp << "set datafile separator ','\nset datafile columnheaders\n"
     << "set terminal pngcairo size 1600,720 font ',10'\nset output output\n"
     << "set multiplot layout 1,2 title '" << name
     << ": non-deterministic futures of the case-1 two-fold (Szalai & Jeffrey Fig. 5)' noenhanced\n"
     << "set xrange [" << num(win.r_lo) << ":" << num(win.r_hi) << "]\nset yrange [" << num(win.w_lo) << ":"
     << num(win.w_hi) << "]\n"
     << "set xlabel 'r'\nset ylabel 'omega' noenhanced\nunset colorbox\n"
     << "set palette defined (0 '#e5f5e0', 1 '#bdbdbd', 2 'white', 3 '#fee0d2')\nset cbrange [0:3]\n"
     << "set title 'on Sigma: sliding S (grey), escaping E (white), crossing C (green); sliding into x*, "
        "escaping out of it' noenhanced\n"
     << "set label 1 'x*' at " << num(xs[0]) << "," << num(xs[2])
     << " point pt 7 ps 1.2 lc rgb '#d62728' offset 1,1 front\n"
     << "plot 'regions.csv' using 1:2:4 with image pixels notitle, "
     << "'approach.csv' using 5:7 with lines lw 2 lc rgb '#08519c' title 'sliding orbits into x*', "
     << "'futures.csv' using 5:(strcol(3) eq 'escaping' ? $7 : NaN) with lines lw 2 lc rgb '#d62728' title "
        "'escaping sliding out of x*', "
     << "'futures.csv' using 5:7 with lines lw 0.5 lc rgb '#99000000' title 'futures (projection)'\n"
     << "unset label 1\nset title 'futures in (r, omega, v): slip in h > 0 (orange), h < 0 (purple)' "
        "noenhanced\n"
     << "set zlabel 'v'\nset view 60, 30\nunset xrange\nunset yrange\n"
     << "splot 'futures.csv' using 5:(strcol(3) eq 'slip+' ? $7 : NaN):6 with lines lc rgb '#e6550d' title "
        "'slip+', "
     << "'futures.csv' using 5:(strcol(3) eq 'slip-' ? $7 : NaN):6 with lines lc rgb '#756bb1' title "
        "'slip-', "
     << "'futures.csv' using 5:((strcol(3) eq 'sliding' || strcol(3) eq 'escaping') ? $7 : NaN):6 with lines "
        "lw 2 lc rgb "
        "'#252525' title 'on Sigma', "
     << "'+' using (" << num(xs[0]) << "):(" << num(xs[2]) << "):(" << num(xs[1])
     << ") every ::0::0 with points pt 7 ps 1.5 lc rgb '#d62728' title 'x*'\n"
     << "unset multiplot\n";
  return gp.str();
}

Json futures_json(const std::string& name, const Vector& xs, const FuturesResult& r) {
  Json j;
  j["name"] = name;
  j["x_star"] = {{"r", xs[0]}, {"v", xs[1]}, {"omega", xs[2]}};
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

void print_futures(const std::string& name, const Vector& xs, const FuturesResult& r, std::ostream& out) {
  out << name << ": two-fold at r = " << std::setprecision(10) << xs[0] << ", v = " << xs[1]
      << ", omega = " << xs[2] << " (" << short_case(r.two_fold) << ")\n  " << r.message << '\n';
  for (const auto& a : r.approaches)
    out << "  from the sliding region: " << (a.arrived ? "arrived" : "did not arrive")
        << " at t = " << std::setprecision(6) << a.arrival_time << ", |x - x*| = " << a.final_distance
        << '\n';
  std::map<std::string, int> ends;
  for (const auto& f : r.futures) ends[f.end.substr(0, f.end.find(" ("))]++;  // without the numbers
  for (const auto& [why, count] : ends) out << "  " << count << " future(s): " << why << '\n';
  if (ends.count("reached Sigma where the barrier function vanishes"))
    out << "  (the barrier is g, (5): on Sigma at g = 0, omega = omega0, the wheel does not move over the "
           "disc and "
           "the tyre moment sign(g) kappa lambda is undefined)\n";
}

}  // namespace

int filippov_futures_command(const std::filesystem::path& file, const std::filesystem::path& out_dir,
                             int samples, bool json_out, std::ostream& out, std::ostream& err) {
  const FilippovRun run = read_filippov_run(file);
  if (!run.has_guess) fail(file, "'guess' is missing: give {r, v, omega} near the case-1 two-fold");
  FuturesOptions options = read_futures_options(run.json.value("futures", Json::object()), file);
  if (samples < 0) fail(file, "--samples " + std::to_string(samples) + " must be >= 1");
  if (samples > 0) options.samples = samples;
  if (const std::string bad = options.check(); !bad.empty()) fail(file, "'futures': " + bad);
  const models::WheelTurntable& wheel = run.wheel;
  TwoFoldResult located;
  FuturesResult r;
  try {
    located = locate_two_fold(wheel, run.guess);
    if (!located.located()) {
      err << "saltus filippov futures: " << file.string() << ": " << located.message << '\n';
      return 2;
    }
    r = sample_futures(wheel, located.x, options, {},
                       [&wheel](const Vector& x) { return wheel.rolling(x.data()); });
  } catch (const std::exception& e) {
    err << "saltus filippov futures: " << file.string() << ": " << e.what() << '\n';
    return 1;
  }
  if (!r.ok) {
    err << "saltus filippov futures: " << file.string() << ": " << r.message << '\n';
    return 2;
  }
  const std::filesystem::path dir = output_folder(run, out_dir);
  std::filesystem::create_directories(dir);
  const Vector& xs = located.x;
  write_orbits(dir, wheel, r);
  const Window win = window_of(xs, r);
  write_regions(dir, wheel, win);
  std::string warning;
  render_gnuplot(dir, "futures", futures_script(run.name, xs, win), &warning);
  if (!warning.empty()) err << "saltus filippov futures: warning: " << warning << '\n';
  const Json j = futures_json(run.name, xs, r);
  write_file_atomically(dir / "futures.json", [&](std::ostream& o) { o << j.dump(2) << '\n'; });
  if (json_out) {
    out << j.dump(2) << '\n';
  } else {
    print_futures(run.name, xs, r, out);
    out << "wrote " << dir.string() << '\n';
  }
  return 0;
}

}  // namespace saltus::drivers
