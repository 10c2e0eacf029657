#pragma once
// Dormand-Prince 8(5,3) with its order-7 dense output: DOP853 of Hairer,
// Norsett & Wanner, Solving Ordinary Differential Equations I (2nd ed.,
// Springer 1993), Sec. II.5 (the method) and II.6 (dense output), as in
// Hairer's Fortran code DOP853 (1993 onwards).
//
// Why our own: Boost.Odeint has no 8th-order stepper with dense output
// (runge_kutta_fehlberg78 has none), and the event-driven simulator locates
// its events on the dense output. The coefficients are the published ones
// (Hairer's dop853.f; read here from the table scipy ships in
// scipy/integrate/_ivp/dop853_coefficients.py, 17 significant digits); the
// code is written for the simulator's needs, not taken from either.
//
// The method. Twelve stages k_1..k_12 (c, a below), the 8th-order solution
//   y1 = y0 + h sum_i b_i k_i,
// and two embedded error estimates, of 5th order err5 = h sum_i e5_i k_i and
// of 3rd order err3 = h sum_i e3_i k_i, combined (Hairer's eq. in DOP853) as
//   err = |err5|^2 / sqrt(|err5|^2 + 0.01 |err3|^2),
// which behaves like err5 where the step is in the asymptotic regime and
// guards against err5 vanishing by accident. |.| is here the weighted maximum
// norm of odeint's default error checker (continuation/flow/simulate.cpp's
// LeadingErrorChecker): max over the first `controlled` components of
//   |e_i| / (abs + rel (|y0_i| + |h| |f(y0)_i|)),
// so that the two methods read tolerances the same way and the components
// past `controlled` (say, the state-transition matrix) ride along unchecked.
//
// Step-size control as Hairer's: with fac = err^(1/8) / safety clamped to
// [1 / max_factor, 1 / min_factor], h_new = h / fac; a rejected step
// retries with h / min(1 / min_factor, err^(1/8) / safety), and the step
// accepted right after a rejection does not grow. The last stage is FSAL:
// k_13 = f(t0 + h, y1) is the next step's k_1 (12 evaluations per accepted
// step, 11 per rejected one).
//
// Dense output (order 7), on s = (t - t0) / h in [0, 1], s' = 1 - s:
//   y(t) = y0 + s (r1 + s' (r2 + s (r3 + s' (r4 + s (r5 + s' (r6 + s r7))))))
// with r1 = y1 - y0, r2 = h f0 - r1, r3 = r1 - h f1 - r2 and r4..r7 = h sum_i
// d_ji k_i over the 13 stages and three more (k_14..k_16 at c = 0.1, 0.2,
// 7/9). The three extra evaluations are made only when a step's dense output
// is first asked for (calc_state), so steps that need no interpolation cost
// 12 evaluations, not 15; calc_leading asks for the leading components
// alone (the state without its state-transition matrix), whose three extra
// stages cost three evaluations of the field alone.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace saltus::flow {

namespace detail::dop853 {

inline constexpr int kStages = 12;       // k_1..k_12 make the step
inline constexpr int kDenseStages = 16;  // k_13 = f(t0 + h, y1), k_14..k_16 for the dense output

inline constexpr std::array<double, kDenseStages> c = {0.0,
                                                       0.05260015195876773,
                                                       0.0789002279381516,
                                                       0.1183503419072274,
                                                       0.2816496580927726,
                                                       0.3333333333333333,
                                                       0.25,
                                                       0.3076923076923077,
                                                       0.6512820512820513,
                                                       0.6,
                                                       0.8571428571428571,
                                                       1.0,
                                                       1.0,
                                                       0.1,
                                                       0.2,
                                                       0.7777777777777778};

// a[i][j], j < i: row i builds stage i (0-based) from the earlier stages; row
// 12 is b (the step's weights), rows 13..15 the dense output's extra stages.
inline constexpr double a[kDenseStages][kDenseStages - 1] = {
    {},
    {0.05260015195876773},
    {0.0197250569845379, 0.0591751709536137},
    {0.02958758547680685, 0.0, 0.08876275643042054},
    {0.2413651341592667, 0.0, -0.8845494793282861, 0.924834003261792},
    {0.037037037037037035, 0.0, 0.0, 0.17082860872947386, 0.12546768756682242},
    {0.037109375, 0.0, 0.0, 0.17025221101954405, 0.06021653898045596, -0.017578125},
    {0.03709200011850479, 0.0, 0.0, 0.17038392571223998, 0.10726203044637328, -0.015319437748624402,
     0.008273789163814023},
    {0.6241109587160757, 0.0, 0.0, -3.3608926294469414, -0.868219346841726, 27.59209969944671,
     20.154067550477894, -43.48988418106996},
    {0.47766253643826434, 0.0, 0.0, -2.4881146199716677, -0.590290826836843, 21.230051448181193,
     15.279233632882423, -33.28821096898486, -0.020331201708508627},
    {-0.9371424300859873, 0.0, 0.0, 5.186372428844064, 1.0914373489967295, -8.149787010746927,
     -18.52006565999696, 22.739487099350505, 2.4936055526796523, -3.0467644718982196},
    {2.273310147516538, 0.0, 0.0, -10.53449546673725, -2.0008720582248625, -17.9589318631188,
     27.94888452941996, -2.8589982771350235, -8.87285693353063, 12.360567175794303, 0.6433927460157636},
    {0.054293734116568765, 0.0, 0.0, 0.0, 0.0, 4.450312892752409, 1.8915178993145003, -5.801203960010585,
     0.3111643669578199, -0.1521609496625161, 0.20136540080403034, 0.04471061572777259},
    {0.056167502283047954, 0.0, 0.0, 0.0, 0.0, 0.0, 0.25350021021662483, -0.2462390374708025,
     -0.12419142326381637, 0.15329179827876568, 0.00820105229563469, 0.007567897660545699, -0.008298},
    {0.03183464816350214, 0.0, 0.0, 0.0, 0.0, 0.028300909672366776, 0.053541988307438566,
     -0.05492374857139099, 0.0, 0.0, -0.00010834732869724932, 0.0003825710908356584, -0.00034046500868740456,
     0.1413124436746325},
    {-0.42889630158379194, 0.0, 0.0, 0.0, 0.0, -4.697621415361164, 7.683421196062599, 4.06898981839711,
     0.3567271874552811, 0.0, 0.0, 0.0, -0.0013990241651590145, 2.9475147891527724, -9.15095847217987}};

// The error estimates' weights on k_1..k_12 (err = h sum_i e_i k_i).
inline constexpr std::array<double, kStages> e3 = {-0.18980075407240762,
                                                   0.0,
                                                   0.0,
                                                   0.0,
                                                   0.0,
                                                   4.450312892752409,
                                                   1.8915178993145003,
                                                   -5.801203960010585,
                                                   -0.4226823213237919,
                                                   -0.1521609496625161,
                                                   0.20136540080403034,
                                                   0.02265179219836082};
inline constexpr std::array<double, kStages> e5 = {0.01312004499419488,
                                                   0.0,
                                                   0.0,
                                                   0.0,
                                                   0.0,
                                                   -1.2251564463762044,
                                                   -0.4957589496572502,
                                                   1.6643771824549864,
                                                   -0.35032884874997366,
                                                   0.3341791187130175,
                                                   0.08192320648511571,
                                                   -0.022355307863886294};

// The dense output's r4..r7 = h sum_i d[j][i] k_i over all 16 stages.
inline constexpr double d[4][kDenseStages] = {
    {-8.428938276109013, 0.0, 0.0, 0.0, 0.0, 0.5667149535193777, -3.0689499459498917, 2.38466765651207,
     2.117034582445028, -0.871391583777973, 2.2404374302607883, 0.6315787787694688, -0.08899033645133331,
     18.148505520854727, -9.194632392478356, -4.436036387594894},
    {10.427508642579134, 0.0, 0.0, 0.0, 0.0, 242.28349177525817, 165.20045171727028, -374.5467547226902,
     -22.113666853125306, 7.733432668472264, -30.674084731089398, -9.332130526430229, 15.697238121770845,
     -31.139403219565178, -9.35292435884448, 35.81684148639408},
    {19.985053242002433, 0.0, 0.0, 0.0, 0.0, -387.0373087493518, -189.17813819516758, 527.8081592054236,
     -11.57390253995963, 6.8812326946963, -1.0006050966910838, 0.7777137798053443, -2.778205752353508,
     -60.19669523126412, 84.32040550667716, 11.99229113618279},
    {-25.69393346270375, 0.0, 0.0, 0.0, 0.0, -154.18974869023643, -231.5293791760455, 357.6391179106141,
     93.40532418362432, -37.45832313645163, 104.0996495089623, 29.8402934266605, -43.53345659001114,
     96.32455395918828, -39.17726167561544, -149.72683625798564}};

}  // namespace detail::dop853

struct Dop853Options {
  double absolute_tolerance = 1e-12;  // error weights abs + rel (|y_i| + |h f_i|), as odeint's
  double relative_tolerance = 1e-12;
  std::size_t controlled = 0;  // only the first `controlled` components count in the error norm
  double max_step = 1e300;     // no step is longer
  double safety = 0.9;         // Hairer's defaults: h_new / h in [min_factor, max_factor]
  double min_factor = 1.0 / 3.0;
  double max_factor = 6.0;
  int max_rejections = 500;  // in a row: then do_step throws (odeint's failed_step_checker does the same)

  // Empty when valid, else a message naming the first bad field and value.
  std::string check() const {
    std::ostringstream why;
    if (!(absolute_tolerance >= 0) || !(relative_tolerance >= 0) ||
        !(absolute_tolerance + relative_tolerance > 0))
      why << "absolute_tolerance = " << absolute_tolerance << ", relative_tolerance = " << relative_tolerance
          << ": both must be >= 0 and one > 0";
    else if (!(max_step > 0))
      why << "max_step = " << max_step << " must be > 0";
    else if (!(safety > 0 && safety < 1))
      why << "safety = " << safety << " must be in (0, 1)";
    else if (!(min_factor > 0 && min_factor <= 1))
      why << "min_factor = " << min_factor << " must be in (0, 1]";
    else if (!(max_factor >= 1))
      why << "max_factor = " << max_factor << " must be >= 1";
    else if (max_rejections < 1)
      why << "max_rejections = " << max_rejections << " must be >= 1";
    return why.str();
  }
};

// The interface of odeint's dense-output steppers, which the simulator uses:
// initialize(y, t, dt), do_step(system) -> (t_old, t_new), current_state(),
// current_time(), current_time_step() (the next step's size),
// calc_state(t, out) for t in the last step. The system is
// `void(const State& y, State& dydt, double t)`; do_step keeps its address
// for the dense output's extra stages, so it must outlive the calc_state
// calls of that step.
class Dop853 {
 public:
  using State = std::vector<double>;

  // Throws std::invalid_argument on invalid options (Dop853Options::check).
  explicit Dop853(const Dop853Options& options) : opt_(options) {
    if (const std::string why = options.check(); !why.empty())
      throw std::invalid_argument("Dop853Options: " + why);
  }

  void initialize(const State& y0, double t0, double dt0) {
    y_ = y0;
    t_ = t0;
    h_ = dt0;
    const std::size_t n = y0.size();
    for (auto& k : k_) k.resize(n);
    y_old_.resize(n);
    y_new_.resize(n);
    y_stage_.resize(n);
    for (auto& r : r_) r.resize(n);
    have_f_ = false;
    stepped_ = false;
    dense_ready_ = false;
    leading_ready_ = 0;
  }

  // One accepted step under error control: retries with smaller steps until
  // the error norm is <= 1. Returns (t_old, t_new).
  template <class System>
  std::pair<double, double> do_step(System& system) {
    start_step(system);
    bool rejected = false;
    for (int rejections = 0;; ++rejections) {
      const double h = std::min(h_, opt_.max_step);
      const double err = attempt(h);
      const double fac11 = std::pow(err, 1.0 / 8.0);  // inf when err is inf
      if (err <= 1.0) {
        double factor = std::clamp(opt_.safety / fac11, opt_.min_factor, opt_.max_factor);
        if (rejected) factor = std::min(factor, 1.0);
        accept(h);
        h_ = h * factor;
        return {t_old_, t_};
      }
      if (rejections >= opt_.max_rejections)
        throw std::runtime_error("DOP853: " + std::to_string(opt_.max_rejections) +
                                 " rejected steps in a row at t = " + std::to_string(t_) +
                                 " (h = " + std::to_string(h) + ")");
      rejected = true;
      h_ = h * std::max(opt_.safety / fac11, opt_.min_factor);
    }
  }

  // One step of exactly h, accepted whatever its error (for tests of the order).
  template <class System>
  std::pair<double, double> do_fixed_step(System& system, double h) {
    start_step(system);
    attempt(h);
    accept(h);
    return {t_old_, t_};
  }

  const State& current_state() const { return y_; }
  double current_time() const { return t_; }
  double current_time_step() const { return h_; }    // the next step's size
  double last_step() const { return t_ - t_old_; }   // the last accepted step
  long evaluations() const { return evaluations_; }  // calls of the system so far

  // The field at the last step's ends, f(t_old, y_old) and f(t_new, y_new)
  // (the FSAL stages: no evaluation of their own).
  const State& old_derivative() const { return k_[0]; }
  const State& current_derivative() const { return k_[12]; }

  // The order-7 interpolant of the last accepted step at t (t in [t_old, t_new]).
  void calc_state(double t, State& out) {
    if (!stepped_) throw std::logic_error("Dop853::calc_state before the first step");
    if (!dense_ready_) prepare_dense();
    out.resize(y_.size());
    interpolate(t, y_.size(), out.data());
  }

  // The same interpolant's first `count` components, into out[0, count):
  // the three extra stages are then evaluated on those components alone, by
  // leading(y, dy, t) on `count` doubles each. The components of a system
  // whose field does not depend on the rest (the state x beside its
  // state-transition matrix) are the same numbers as calc_state's; the
  // simulator's guard checks need x inside every step, not Phi.
  template <class Leading>
  void calc_leading(double t, std::size_t count, double* out, Leading&& leading) {
    if (!stepped_) throw std::logic_error("Dop853::calc_leading before the first step");
    if (!dense_ready_ && leading_ready_ < count) {
      if (count >= y_.size())
        prepare_dense();  // all of it: calc_state's later calls reuse it
      else
        prepare_leading(count, leading);
    }
    interpolate(t, count, out);
  }

 private:
  using Rhs = void (*)(void*, const State&, State&, double);

  template <class System>
  void start_step(System& system) {
    system_ = &system;
    rhs_ = [](void* sys, const State& y, State& dy, double t) { (*static_cast<System*>(sys))(y, dy, t); };
    if (stepped_)
      std::swap(k_[0], k_[12]);  // FSAL: f(t_new, y_new) of the last step
    else if (!have_f_)
      call(k_[0], y_, t_);
    have_f_ = true;
    dense_ready_ = false;
    leading_ready_ = 0;
  }

  void call(State& dy, const State& y, double t) {
    rhs_(system_, y, dy, t);
    ++evaluations_;
  }

  // out = y + h sum_{j < i} a[i][j] k_j, the stages with a zero weight
  // left out at compile time and the others added in order of j (the sums
  // of the run-time loop this replaced, bit for bit), in one pass over the
  // components: for the small states of shooting (3 to 50 components) the
  // bookkeeping of a loop over the stages, or of one loop per stage, cost
  // more than the arithmetic.
  template <int i>
  void combine(const State& y, double h, State& out, std::size_t n = 0) const {
    if (n == 0) n = y.size();
    [&]<std::size_t... j>(std::index_sequence<j...>) {
      const std::array<double, sizeof...(j)> w{h * detail::dop853::a[i][j]...};
      const std::array<const double*, sizeof...(j)> k{k_[j].data()...};
      for (std::size_t m = 0; m < n; ++m) {
        double sum = y[m];
        const auto add = [&]<std::size_t jj>() {
          if constexpr (detail::dop853::a[i][jj] != 0.0) sum += w[jj] * k[jj][m];
        };
        (add.template operator()<j>(), ...);
        out[m] = sum;
      }
    }
    (std::make_index_sequence<i>{});
  }

  // Stages k_2..k_12 and y_new from (t_, y_, k_[0]); returns the error norm
  // (inf when not finite, so that the step is rejected and shrunk).
  double attempt(double h) {
    namespace c = detail::dop853;
    [&]<int... i>(std::integer_sequence<int, i...>) {
      ((combine<i + 1>(y_, h, y_stage_), call(k_[i + 1], y_stage_, t_ + c::c[i + 1] * h)), ...);
    }
    (std::make_integer_sequence<int, c::kStages - 1>{});
    combine<12>(y_, h, y_new_);  // row 12 of a is b
    // err5 and err3 without the factor h, over the controlled components,
    // their zero weights left out at compile time as in combine().
    const std::size_t n = std::min(opt_.controlled, y_.size());
    double err5 = 0.0, err3 = 0.0;
    [&]<std::size_t... j>(std::index_sequence<j...>) {
      const std::array<const double*, sizeof...(j)> k{k_[j].data()...};
      for (std::size_t m = 0; m < n; ++m) {
        double e5 = 0.0, e3 = 0.0;
        const auto add = [&]<std::size_t jj>() {
          if constexpr (c::e5[jj] != 0.0) e5 += c::e5[jj] * k[jj][m];
          if constexpr (c::e3[jj] != 0.0) e3 += c::e3[jj] * k[jj][m];
        };
        (add.template operator()<j>(), ...);
        const double w = opt_.absolute_tolerance +
                         opt_.relative_tolerance * (std::abs(y_[m]) + std::abs(h) * std::abs(k_[0][m]));
        // Written so that a NaN wins (std::max would drop it): a step with a
        // non-finite error is rejected.
        if (const double v = std::abs(e5) / w; !(v <= err5)) err5 = v;
        if (const double v = std::abs(e3) / w; !(v <= err3)) err3 = v;
      }
    }
    (std::make_index_sequence<c::kStages>{});
    if (err5 == 0.0 && err3 == 0.0) return 0.0;
    const double err = std::abs(h) * err5 * err5 / std::sqrt(err5 * err5 + 0.01 * err3 * err3);
    return std::isfinite(err) ? err : std::numeric_limits<double>::infinity();
  }

  void accept(double h) {
    t_old_ = t_;
    t_ += h;
    std::swap(y_old_, y_);
    std::swap(y_, y_new_);
    call(k_[12], y_, t_);
    stepped_ = true;
  }

  void interpolate(double t, std::size_t count, double* out) const {
    const double h = t_ - t_old_;
    const double s = (t - t_old_) / h, s1 = 1.0 - s;
    for (std::size_t i = 0; i < count; ++i) {
      const double tail = r_[3][i] + s * (r_[4][i] + s1 * (r_[5][i] + s * r_[6][i]));
      out[i] = y_old_[i] + s * (r_[0][i] + s1 * (r_[1][i] + s * (r_[2][i] + s1 * tail)));
    }
  }

  // r1..r7 of the interpolant (see the header comment), after the three extra stages.
  void prepare_dense() {
    namespace c = detail::dop853;
    const double h = t_ - t_old_;
    const std::size_t n = y_.size();
    // The extra stages start from the step's y0: y_old_.
    [&]<int... i>(std::integer_sequence<int, i...>) {
      ((combine<13 + i>(y_old_, h, y_stage_), call(k_[13 + i], y_stage_, t_old_ + c::c[13 + i] * h)), ...);
    }
    (std::make_integer_sequence<int, c::kDenseStages - 13>{});
    coefficients(n);
    dense_ready_ = true;
  }

  // The same for the first `count` components (calc_leading).
  template <class Leading>
  void prepare_leading(std::size_t count, Leading& leading) {
    namespace c = detail::dop853;
    const double h = t_ - t_old_;
    [&]<int... i>(std::integer_sequence<int, i...>) {
      ((combine<13 + i>(y_old_, h, y_stage_, count),
        leading(y_stage_.data(), k_[13 + i].data(), t_old_ + c::c[13 + i] * h)),
       ...);
    }
    (std::make_integer_sequence<int, c::kDenseStages - 13>{});
    coefficients(count);
    leading_ready_ = count;
  }

  // r1..r7 over the first n components, from the 16 stages.
  void coefficients(std::size_t n) {
    namespace c = detail::dop853;
    const double h = t_ - t_old_;
    for (std::size_t m = 0; m < n; ++m) {
      const double dy = y_[m] - y_old_[m], bspl = h * k_[0][m] - dy;
      r_[0][m] = dy;
      r_[1][m] = bspl;
      r_[2][m] = dy - h * k_[12][m] - bspl;
    }
    for (int row = 0; row < 4; ++row) {
      double* r = r_[3 + row].data();
      std::fill(r, r + n, 0.0);
      for (int j = 0; j < c::kDenseStages; ++j) {
        const double w = h * c::d[row][j];
        if (w == 0.0) continue;
        const double* k = k_[j].data();
        for (std::size_t m = 0; m < n; ++m) r[m] += w * k[m];
      }
    }
  }

  Dop853Options opt_;
  State y_, y_old_, y_new_, y_stage_;
  std::array<State, detail::dop853::kDenseStages> k_;
  std::array<State, 7> r_;
  double t_ = 0.0, t_old_ = 0.0, h_ = 0.0;
  bool have_f_ = false, stepped_ = false, dense_ready_ = false;
  std::size_t leading_ready_ = 0;  // components of r_ ready for calc_leading (when not dense_ready_)
  void* system_ = nullptr;
  Rhs rhs_ = nullptr;
  long evaluations_ = 0;
};

}  // namespace saltus::flow
