#include "analyses/two_fold/map.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "continuation/worker_threads.h"

namespace saltus {

namespace {

std::string str(double x) {
  std::ostringstream out;
  out << std::setprecision(10) << x;
  return out.str();
}

}  // namespace

std::string TwoFoldMapOptions::check() const {
  if (!std::isfinite(r_min) || !std::isfinite(r_max) || !(r_min < r_max))
    return "r range [" + str(r_min) + ", " + str(r_max) + "] must be finite with r_min < r_max";
  if (!std::isfinite(omega_min) || !std::isfinite(omega_max) || !(omega_min < omega_max))
    return "omega range [" + str(omega_min) + ", " + str(omega_max) +
           "] must be finite with omega_min < omega_max";
  if (r_steps < 2 || omega_steps < 2)
    return "resolution " + std::to_string(r_steps) + " x " + std::to_string(omega_steps) +
           " must be at least 2 x 2";
  if (static_cast<long>(r_steps) * omega_steps > 25'000'000)
    return "resolution " + std::to_string(r_steps) + " x " + std::to_string(omega_steps) +
           " exceeds 25 million points";
  if (std::string bad = check_threads(threads, "threads"); !bad.empty()) return bad;
  if (!(guess_offset >= 0.0 && guess_offset < 0.5))
    return "guess_offset = " + str(guess_offset) + " must be in [0, 0.5)";
  if (!(match_tolerance > 0.0)) return "match_tolerance = " + str(match_tolerance) + " must be > 0";
  if (!(progress_interval > 0.0)) return "progress_interval = " + str(progress_interval) + " must be > 0";
  return {};
}

double TwoFoldMap::r(int i) const {
  return options.r_min + (options.r_max - options.r_min) * i / (options.r_steps - 1);
}
double TwoFoldMap::omega(int j) const {
  return options.omega_min + (options.omega_max - options.omega_min) * j / (options.omega_steps - 1);
}

TwoFoldMapPoint two_fold_map_point(const models::WheelTurntable& base, double r_star, double omega_star,
                                   const TwoFoldMapOptions& options) {
  TwoFoldMapPoint p;
  p.r = r_star;
  p.omega = omega_star;
  models::WheelTurntable wheel = base;
  Vector x_star(3);
  try {
    const auto design = base.design_two_fold(r_star, omega_star);
    p.kappa = design.kappa;
    p.k2 = design.k2;
    wheel.kappa = design.kappa;
    wheel.k2 = design.k2;
    x_star << design.r, design.v, design.omega;
    p.designed = true;
  } catch (const std::invalid_argument& e) {
    p.failure = e.what();
    return p;
  }
  p.k2_positive = p.k2 > 0.0;
  p.kappa_positive = p.kappa > 0.0;
  // Newton on the tyre's surface values: G is smooth off Sigma there (the
  // stretched string's Fh(|h| / |g|) has a kink at h = 0 that throws Newton
  // from an offset start), with the same zeros on Sigma; see the header.
  models::WheelTurntable smooth = wheel;
  smooth.tyre = models::TyreModel::kSticking;
  if (!p.kappa_positive) wheel.tyre = models::TyreModel::kSticking;
  const Vector guess = x_star * (1.0 + options.guess_offset);
  try {
    TwoFoldResult located = locate_two_fold(smooth, guess, options.two_fold);
    if (located.located()) located.classification = classify_two_fold(wheel, located.x, options.two_fold);
    if (!located.located()) {
      p.failure = located.message;
      return p;
    }
    const double distance =
        (located.x - x_star).lpNorm<Eigen::Infinity>() / (1.0 + x_star.lpNorm<Eigen::Infinity>());
    if (distance > options.match_tolerance) {
      p.failure = "Newton from the offset start found another two-fold, at " + detail::format(located.x);
      return p;
    }
    p.exists = true;
    p.residual = located.residual;
    p.invariants = *located.classification;
  } catch (const std::exception& e) {
    p.failure = e.what();
    return p;
  }
  const TwoFoldInvariants& c = p.invariants;
  p.k_minus_positive = c.K.mm > 0.0;
  p.k_plus_negative = c.K.pp < 0.0;
  p.j1_negative = c.j_defined && c.J1 < 0.0;
  p.j2_negative = c.j_defined && c.J2 < 0.0;
  p.j1j2_above_one = c.j_defined && c.J1 * c.J2 - 1.0 > 0.0;
  p.case1 = c.type == TwoFoldType::kInvisibleInvisible && c.twofold_case == TwoFoldCase::kCase1 &&
            p.k2_positive && p.kappa_positive;
  return p;
}

TwoFoldMap two_fold_map(const models::WheelTurntable& base, const TwoFoldMapOptions& options) {
  if (const std::string bad = options.check(); !bad.empty())
    throw std::invalid_argument("the two-fold map options: " + bad);
  detail::check_options(options.two_fold, "two_fold_map");
  {
    // The constants other than kappa, k2 must be valid (those two are designed per point).
    models::WheelTurntable probe = base;
    probe.kappa = 1.0;
    probe.k2 = 1.0;
    probe.check();
  }
  TwoFoldMap map;
  map.options = options;
  map.options.progress = nullptr;
  map.options.stop_requested = nullptr;
  const int rows = options.omega_steps, cols = options.r_steps;
  map.points.resize(static_cast<std::size_t>(rows) * cols);
  map.threads = worker_count(options.threads, rows);

  std::atomic<int> next_row{0}, rows_done{0}, workers_done{0};
  auto worker = [&]() {
    for (int j = next_row++; j < rows && !(options.stop_requested && options.stop_requested());
         j = next_row++) {
      for (int i = 0; i < cols; ++i)
        map.points[static_cast<std::size_t>(j) * cols + i] =
            two_fold_map_point(base, map.r(i), map.omega(j), options);
      ++rows_done;
    }
    ++workers_done;
  };
  WorkerThreads pool(map.threads, [&](int) { worker(); });
  if (options.progress) {
    using clock = std::chrono::steady_clock;
    auto last = clock::now();
    while (workers_done < pool.started()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (std::chrono::duration<double>(clock::now() - last).count() >= options.progress_interval) {
        last = clock::now();
        options.progress(rows_done, rows);
      }
    }
  }
  pool.join();
  map.rows_done = rows_done;
  map.interrupted = rows_done < rows;
  for (const auto& p : map.points) {
    map.designed += p.designed;
    map.exists += p.exists;
    map.case1 += p.case1;
  }
  return map;
}

int case_code(const TwoFoldMapPoint& p) {
  if (!p.exists) return -1;
  const auto& c = p.invariants;
  if (c.type != TwoFoldType::kInvisibleInvisible) return 0;
  switch (c.twofold_case) {
    case TwoFoldCase::kCase1:
      return 1;
    case TwoFoldCase::kCase2:
      return 2;
    case TwoFoldCase::kCase3:
      return 3;
    case TwoFoldCase::kBoundary:
      return 4;
    case TwoFoldCase::kNone:
      return 0;
  }
  return 0;
}

void TwoFoldMap::write_csv(std::ostream& out) const {
  out << "r,omega,designed,exists,kappa,k2,Kpp,Kpm,Kmp,Kmm,J1,J2,J1J2m1,b,c,d,e,f,k2pos,kappapos,case1,case_"
         "code,case\n";
  out << std::setprecision(12);
  const int cols = options.r_steps;
  for (int j = 0; j < options.omega_steps; ++j) {
    for (int i = 0; i < cols; ++i) {
      const TwoFoldMapPoint& p = points[static_cast<std::size_t>(j) * cols + i];
      const auto& c = p.invariants;
      const bool j_ok = p.exists && c.j_defined;
      auto num = [&](bool ok, double v) -> std::string { return ok ? str(v) : "nan"; };
      out << p.r << ',' << p.omega << ',' << p.designed << ',' << p.exists << ',' << num(p.designed, p.kappa)
          << ',' << num(p.designed, p.k2) << ',' << num(p.exists, c.K.pp) << ',' << num(p.exists, c.K.pm)
          << ',' << num(p.exists, c.K.mp) << ',' << num(p.exists, c.K.mm) << ',' << num(j_ok, c.J1) << ','
          << num(j_ok, c.J2) << ',' << num(j_ok, c.J1 * c.J2 - 1.0) << ',' << p.k_minus_positive << ','
          << p.k_plus_negative << ',' << p.j1_negative << ',' << p.j2_negative << ',' << p.j1j2_above_one
          << ',' << p.k2_positive << ',' << p.kappa_positive << ',' << p.case1 << ',' << case_code(p) << ','
          << (p.exists ? short_case(c) : std::string(p.designed ? "not located" : "not designed")) << '\n';
    }
    out << '\n';
  }
}

}  // namespace saltus
