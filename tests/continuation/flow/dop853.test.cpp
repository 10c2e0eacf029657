#include "continuation/flow/dop853.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <tuple>
#include <vector>

using namespace saltus::flow;

namespace {

using State = Dop853::State;

// y0' = 1 + y0^2 (y0 = tan t) and the harmonic oscillator y1' = y2, y2' = -y1
// (y1 = cos t, y2 = -sin t): a nonlinear and a linear problem with known
// solutions, so that the order conditions of the nonlinear trees are tested too.
struct TanAndOscillator {
  void operator()(const State& y, State& dy, double) const {
    dy[0] = 1.0 + y[0] * y[0];
    dy[1] = y[2];
    dy[2] = -y[1];
  }
};
State exact(double t) { return {std::tan(t), std::cos(t), -std::sin(t)}; }

double max_error(const State& y, double t) {
  const State e = exact(t);
  double m = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) m = std::max(m, std::abs(y[i] - e[i]));
  return m;
}

// The global error at t = 1 after n fixed steps.
double global_error(int n) {
  Dop853 stepper(Dop853Options{});
  TanAndOscillator system;
  stepper.initialize(exact(0.0), 0.0, 1.0 / n);
  for (int i = 0; i < n; ++i) stepper.do_fixed_step(system, 1.0 / n);
  return max_error(stepper.current_state(), 1.0);
}

}  // namespace

TEST_CASE("DOP853: the global error falls like h^8", "[flow][dop853]") {
  // Halving h divides the error at t = 1 by 2^8 = 256 (the errors, 4e-9 ..
  // 5e-14, are the tangent's; roundoff is below).
  const double e5 = global_error(5), e10 = global_error(10), e20 = global_error(20);
  INFO("errors " << e5 << " " << e10 << " " << e20);
  CHECK(e20 > 1e-14);
  CHECK(std::log2(e5 / e10) == Approx(8.0).margin(0.4));
  CHECK(std::log2(e10 / e20) == Approx(8.0).margin(0.4));
}

TEST_CASE("DOP853: the dense output is of order 7 inside a step", "[flow][dop853]") {
  // One step of h from the exact state at t0 = -0.3; the interpolant's error
  // at s = 0.3 and 0.7 of the step is a local error O(h^8): halving h divides
  // it by 2^8. Each problem on the h where it is asymptotic and above
  // roundoff: the oscillator (components 1, 2) on h = 0.8 .. 0.2, the tangent
  // (component 0, whose pole at pi/2 slows the approach) on h = 0.4 .. 0.1.
  auto dense_error = [](double h, double s, std::size_t first, std::size_t last) {
    Dop853 stepper(Dop853Options{});
    TanAndOscillator system;
    const double t0 = -0.3;
    stepper.initialize(exact(t0), t0, h);
    stepper.do_fixed_step(system, h);
    State y;
    stepper.calc_state(t0 + s * h, y);
    const State e = exact(t0 + s * h);
    double m = 0.0;
    for (std::size_t i = first; i <= last; ++i) m = std::max(m, std::abs(y[i] - e[i]));
    return m;
  };
  for (double s : {0.3, 0.7}) {
    for (const auto& [h, first, last] : {std::tuple{0.8, 1, 2}, std::tuple{0.4, 0, 0}}) {
      const double e1 = dense_error(h, s, first, last), e2 = dense_error(h / 2, s, first, last),
                   e3 = dense_error(h / 4, s, first, last);
      INFO("s = " << s << ", components " << first << ".." << last << ", h = " << h << ": errors " << e1
                  << " " << e2 << " " << e3);
      CHECK(e3 > 1e-14);
      CHECK(std::log2(e1 / e2) - 1.0 == Approx(7.0).margin(0.5));
      CHECK(std::log2(e2 / e3) - 1.0 == Approx(7.0).margin(0.5));
    }
  }
  // At the step's ends the interpolant is the step itself.
  Dop853 stepper(Dop853Options{});
  TanAndOscillator system;
  stepper.initialize(exact(0.0), 0.0, 0.3);
  stepper.do_fixed_step(system, 0.3);
  State y0, y1;
  stepper.calc_state(0.0, y0);
  stepper.calc_state(0.3, y1);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(y0[i] == Approx(exact(0.0)[i]).margin(1e-15));
    CHECK(y1[i] == Approx(stepper.current_state()[i]).margin(1e-15));
  }
}

TEST_CASE("DOP853: error-controlled steps meet the tolerance", "[flow][dop853]") {
  for (double tol : {1e-6, 1e-9, 1e-12}) {
    Dop853Options options;
    options.absolute_tolerance = options.relative_tolerance = tol;
    options.controlled = 3;
    Dop853 stepper(options);
    TanAndOscillator system;
    stepper.initialize(exact(0.0), 0.0, 1e-4);
    int steps = 0;
    while (stepper.current_time() < 1.4) {
      stepper.do_step(system);
      ++steps;
    }
    INFO("tol " << tol << ", " << steps << " steps");
    // tan(1.4) = 5.8: the relative error at the end is of the order of the tolerance.
    CHECK(max_error(stepper.current_state(), stepper.current_time()) < 100 * tol * 6.0);
    CHECK(steps < 200);
  }
}

TEST_CASE("DOP853: only the first `controlled` components count in the error norm", "[flow][dop853]") {
  // (y1, y2) the oscillator, y3' = 1000 cos(1000 t): a fast component. Left
  // out of the norm it rides on the oscillator's steps; counted, it forces
  // many more.
  struct WithFast {
    void operator()(const State& y, State& dy, double t) const {
      dy[0] = y[1];
      dy[1] = -y[0];
      dy[2] = 1000.0 * std::cos(1000.0 * t);
    }
  };
  struct Slow {
    void operator()(const State& y, State& dy, double) const {
      dy[0] = y[1];
      dy[1] = -y[0];
    }
  };
  auto steps = [](auto system, State y0, std::size_t controlled) {
    Dop853Options options;
    options.absolute_tolerance = options.relative_tolerance = 1e-8;
    options.controlled = controlled;
    Dop853 stepper(options);
    stepper.initialize(y0, 0.0, 1e-3);
    std::vector<double> times;
    while (stepper.current_time() < 5.0) times.push_back(stepper.do_step(system).second);
    return times;
  };
  const auto slow = steps(Slow{}, {1.0, 0.0}, 2);
  const auto unchecked = steps(WithFast{}, {1.0, 0.0, 0.0}, 2);
  const auto checked = steps(WithFast{}, {1.0, 0.0, 0.0}, 3);
  CHECK(unchecked == slow);  // the same steps, to the bit
  CHECK(checked.size() > 10 * slow.size());
}

TEST_CASE("DOP853: a field that is never finite ends in an exception, not a loop", "[flow][dop853]") {
  struct Bad {
    void operator()(const State& y, State& dy, double) const { dy[0] = std::nan(""); }
  };
  Dop853Options options;
  options.controlled = 1;
  Dop853 stepper(options);
  Bad bad;
  stepper.initialize({1.0}, 0.0, 0.1);
  CHECK_THROWS_WITH(stepper.do_step(bad), Catch::Contains("rejected steps in a row"));
}

TEST_CASE("DOP853: invalid options throw, naming the field", "[flow][dop853]") {
  CHECK(Dop853Options{}.check().empty());
  const auto message = [](auto change) {
    Dop853Options options;
    change(options);
    try {
      Dop853 stepper(options);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message([](Dop853Options& o) { o.absolute_tolerance = o.relative_tolerance = 0; }),
             Catch::Contains("absolute_tolerance = 0"));
  CHECK_THAT(message([](Dop853Options& o) { o.relative_tolerance = -1; }),
             Catch::Contains("relative_tolerance = -1"));
  CHECK_THAT(message([](Dop853Options& o) { o.max_step = 0; }), Catch::Contains("max_step = 0"));
  CHECK_THAT(message([](Dop853Options& o) { o.safety = 1.5; }), Catch::Contains("safety = 1.5"));
  CHECK_THAT(message([](Dop853Options& o) { o.min_factor = 2; }), Catch::Contains("min_factor = 2"));
  CHECK_THAT(message([](Dop853Options& o) { o.max_factor = 0.5; }), Catch::Contains("max_factor = 0.5"));
  CHECK_THAT(message([](Dop853Options& o) { o.max_rejections = 0; }), Catch::Contains("max_rejections = 0"));
}
