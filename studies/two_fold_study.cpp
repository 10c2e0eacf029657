#include "studies/two_fold_study.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "continuation/newton.h"
#include "studies/option_tables.h"

namespace saltus::studies {

namespace {

const KeyTable& keys() { return filippov_run_file().keys; }

void need_two_fold_guess(const FilippovRun& run, const char* what) {
  if (!run.has_guess) fail(run.path, std::string("'guess' is missing: give {state: value} near ") + what);
  if (run.states.size() < 3) fail(run.path, "'states': a two-fold needs at least 3 states");
}

void need_wheel(const FilippovRun& run) {
  if (run.own)
    fail(run.path,
         "'filippov': the two-fold map designs the wheel's two-fold by its closed forms (10)-(11) at each "
         "grid point: it needs \"model\": \"wheel_turntable\" (for your own system's two-fold use `saltus "
         "filippov continue`, or saltus.two_fold_continuation in Python)");
}

// The run file's design point {r, omega}, checked before the grid runs.
std::optional<std::pair<double, double>> design_point(const FilippovRun& run) {
  if (!run.json.contains("two_fold_at")) return std::nullopt;
  const Json& at = run.json["two_fold_at"];
  if (!at.is_object()) fail(run.path, "'two_fold_at' must be {\"r\": r*, \"omega\": omega*}");
  return std::make_pair(number(at.value("r", Json()), run.path, "two_fold_at.r"),
                        number(at.value("omega", Json()), run.path, "two_fold_at.omega"));
}

}  // namespace

// ---- Fig. 4

TwoFoldMapOptions two_fold_map_options(const FilippovRun& run, int threads) {
  const std::filesystem::path& file = run.path;
  need_wheel(run);
  const Json m = run.json.value("map", Json::object());
  only_keys(m, keys_under(keys(), "map."), file, "map.");
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
  if (m.contains("threads")) o.threads = read_integer(keys(), "map.threads", m["threads"], file);
  if (m.contains("guess_offset")) o.guess_offset = read_number(keys(), "map.guess_offset", m["guess_offset"], file);
  if (threads < 0) fail(file, "threads = " + std::to_string(threads) + " must be >= 0 (0: all cores)");
  if (threads > 0) o.threads = threads;
  if (const std::string bad = o.check(); !bad.empty()) fail(file, "'map': " + bad);
  design_point(run);
  return o;
}

TwoFoldMapStudy two_fold_map(const FilippovRun& run, TwoFoldMapOptions options,
                             std::function<void(int, int)> progress) {
  need_wheel(run);
  const auto point = design_point(run);
  options.progress = std::move(progress);
  TwoFoldMapStudy s;
  try {
    s.map = saltus::two_fold_map(run.wheel, options);
  } catch (const std::invalid_argument& e) {
    fail(run.path, e.what());
  }
  Json& j = s.summary;
  j["name"] = run.name;
  j["grid"] = {{"r", {options.r_min, options.r_max}},
               {"omega", {options.omega_min, options.omega_max}},
               {"resolution", {options.r_steps, options.omega_steps}}};
  j["threads"] = s.map.threads;
  j["points"] = s.map.points.size();
  j["designed"] = s.map.designed;
  j["exists"] = s.map.exists;
  j["case1"] = s.map.case1;
  if (s.map.interrupted) j["interrupted"] = true, j["rows_done"] = s.map.rows_done;
  // The run file's design point, classified exactly (not on the grid).
  if (point) {
    const auto [r, omega] = *point;
    const TwoFoldMapPoint p = two_fold_map_point(run.wheel, r, omega, options);
    j["two_fold_at"] = {{"r", r},
                        {"omega", omega},
                        {"exists", p.exists},
                        {"case", p.exists ? short_case(p.invariants) : p.failure},
                        {"case1", p.case1}};
  }
  return s;
}

// ---- Fig. 5

FuturesOptions futures_options(const FilippovRun& run, int samples) {
  const std::filesystem::path& file = run.path;
  const Json f = run.json.value("futures", Json::object());
  only_keys(f, keys_under(keys(), "futures."), file, "futures.");
  FuturesOptions o;
  const std::pair<const char*, int*> integers[] = {{"samples", &o.samples},
                                                   {"approach_samples", &o.approach_samples}};
  for (const auto& [key, field] : integers)
    if (f.contains(key)) *field = read_integer(keys(), std::string("futures.") + key, f[key], file);
  const std::pair<const char*, double*> numbers[] = {{"approach_radius", &o.approach_radius},
                                                     {"arrival_distance", &o.arrival_distance},
                                                     {"approach_time", &o.approach_time},
                                                     {"escape_radius", &o.escape_radius},
                                                     {"max_liftoff_time", &o.max_liftoff_time},
                                                     {"simulate_time", &o.simulate_time},
                                                     {"max_step", &o.max_step}};
  for (const auto& [key, field] : numbers)
    if (f.contains(key)) *field = read_number(keys(), std::string("futures.") + key, f[key], file);
  if (samples < 0) fail(file, "samples = " + std::to_string(samples) + " must be >= 1");
  if (samples > 0) o.samples = samples;
  if (const std::string bad = o.check(); !bad.empty()) fail(file, "'futures': " + bad);
  return o;
}

namespace {

Json futures_json(const FilippovRun& run, const Vector& xs, const FuturesResult& r) {
  Json j;
  j["name"] = run.name;
  j["x_star"] = by_name(run.states, xs);
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

}  // namespace

FuturesStudy two_fold_futures(const FilippovRun& run, const FuturesOptions& options) {
  need_two_fold_guess(run, "the case-1 two-fold");
  FuturesStudy s;
  std::string error;
  try {
    visit_model(run, [&](const auto& model) {
      const TwoFoldResult located = locate_two_fold(model, run.guess);
      if (!located.located()) {
        error = located.message;
        return;
      }
      s.x_star = located.x;
      s.gradient = filippov::gradient(model, located.x);
      s.result = sample_futures(model, located.x, options, {}, run.barrier);
      if (!s.result.ok) error = s.result.message;
    });
  } catch (const std::invalid_argument& e) {  // bad options or a model the analysis refuses: input
    fail(run.path, e.what());
  }
  if (!error.empty()) throw StudyError(run.path.string() + ": " + error);
  s.summary = futures_json(run, s.x_star, s.result);
  return s;
}

SigmaAxes sigma_axes(const FilippovRun& run, const Vector& gradient) {
  const auto& names = run.states;
  const int n = static_cast<int>(names.size());
  const Json plot = run.json.value("plot", Json::object());
  only_keys(plot, keys_under(keys(), "plot."), run.path, "plot.");
  auto index = [&](const char* key) {
    if (!plot.contains(key)) return -1;
    const std::string name = string(plot[key], run.path, std::string("plot.") + key);
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) fail(run.path, "'plot." + std::string(key) + "' = '" + name + "' is not a state");
    return static_cast<int>(it - names.begin());
  };
  SigmaAxes a{index("x"), index("y"), -1};
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

namespace {

// The point of Sigma over (x, y): h = 0 solved for the axis iz by Newton
// from x* (the wheel's h is linear in v: one step, exact); nullopt where
// it does not converge.
template <filippov::Model M>
std::optional<Vector> on_surface(const M& model, const Vector& xs, const SigmaAxes& a, double x, double y) {
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

}  // namespace

std::vector<SigmaPoint> sigma_regions(const FilippovRun& run, const Vector& x_star, const SigmaAxes& a,
                                      const std::array<double, 4>& window, int n) {
  if (n < 2) throw StudyError("sigma_regions: the grid needs n >= 2 points a side, got " + std::to_string(n));
  const auto [x_lo, x_hi, y_lo, y_hi] = window;
  std::vector<SigmaPoint> grid;
  grid.reserve(static_cast<std::size_t>(n) * n);
  visit_model(run, [&](const auto& model) {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        SigmaPoint p{x_lo + (x_hi - x_lo) * i / (n - 1), y_lo + (y_hi - y_lo) * j / (n - 1), std::nan(""), 3};
        try {
          if (const auto on = on_surface(model, x_star, a, p.x, p.y)) {
            p.z = (*on)[a.iz];
            filippov::Options fo;
            fo.surface_tolerance = 1e-9;
            const auto region = filippov::classify(model, *on, fo).region;
            p.region = region == filippov::Region::kCrossing   ? 0
                       : region == filippov::Region::kSliding  ? 1
                       : region == filippov::Region::kEscaping ? 2
                                                               : 3;
          }
        } catch (const std::exception&) {  // a field not defined there: region 3
        }
        grid.push_back(p);
      }
  });
  return grid;
}

// ---- The continuation

TwoFoldContinuationOptions two_fold_continuation_options(const FilippovRun& run) {
  const std::filesystem::path& file = run.path;
  const Json c = run.json.value("continuation", Json::object());
  only_keys(c, keys_under(keys(), "continuation."), file, "continuation.");
  TwoFoldContinuationOptions options;
  if (c.contains("parameter")) options.parameter = string(c["parameter"], file, "continuation.parameter");
  options.continuation = read_continuation_options(c, ContinuationOptions{}, file, "continuation.");
  if (const std::string bad = options.check(); !bad.empty()) fail(file, "'continuation': " + bad);
  std::vector<std::string> parameters = wheel_parameter_names();
  if (run.own) parameters = run.own->spec->parameters;
  if (std::find(parameters.begin(), parameters.end(), options.parameter) == parameters.end()) {
    std::string known;
    for (const auto& p : parameters) known += (known.empty() ? "" : ", ") + p;
    fail(file,
         "'continuation.parameter' = '" + options.parameter + "' is not a parameter (known: " + known + ")");
  }
  for (const auto& [key, bound] : options.continuation.bounds)
    if (key != options.parameter && std::find(run.states.begin(), run.states.end(), key) == run.states.end())
      fail(file, "'continuation.bounds." + key + "': bounds are on the states or " + options.parameter);
  return options;
}

TwoFoldContinuation continue_two_fold(const FilippovRun& run, const TwoFoldContinuationOptions& options) {
  if (!run.has_guess) fail(run.path, "'guess' is missing: give {state: value} near the two-fold to continue");
  if (run.states.size() != 3)
    fail(run.path, "'states': a two-fold continues as a curve in one parameter only with 3 states (" +
                       std::to_string(run.states.size()) + " given)");
  TwoFoldContinuation c;
  try {
    c = visit_model(run,
                    [&](const auto& model) { return saltus::continue_two_fold(model, run.guess, options); });
  } catch (const std::invalid_argument& e) {  // bad options: input
    fail(run.path, e.what());
  }
  if (!c.ok) throw StudyError(run.path.string() + ": " + c.message);
  return c;
}

Json two_fold_continuation_json(const FilippovRun& run, const TwoFoldContinuation& c) {
  Json j;
  j["name"] = run.name;
  j["parameter"] = c.parameter;
  j["points"] = c.branch.points.size();
  j["message"] = c.message;
  Json boundaries = Json::array();
  for (const auto& b : c.boundaries)
    boundaries.push_back({{"test", b.name},
                          {c.parameter, b.parameter},
                          {"x", by_name(run.states, b.x)},
                          {"status", to_string(b.status)},
                          {"precision", b.precision},
                          {"before", b.before},
                          {"after", b.after}});
  j["boundaries"] = boundaries;
  return j;
}

}  // namespace saltus::studies
