// Equilibria of mechanical systems (models/mechanical_rates.h) through
// `saltus continue`: a run file's own pendulum and the built-in triple
// pendulum, against closed forms.
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "continuation/autodiff_system.h"
#include "models/mechanical_rates.h"
#include "models/triple_pendulum.h"
#include "run_cli.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus;
using namespace saltus::testing;

namespace {

// branch.csv as rows of numbers by column name (NaN for a cell that is not one).
std::vector<std::map<std::string, double>> read_rows(const fs::path& file) {
  std::vector<std::map<std::string, double>> rows;
  for (const auto& text : read_csv(file)) {
    std::map<std::string, double> row;
    for (const auto& [name, cell] : text) {
      try {
        row[name] = std::stod(cell);
      } catch (const std::exception&) {
        row[name] = std::nan("");
      }
    }
    rows.push_back(row);
  }
  return rows;
}

std::vector<json> of_type(const json& summary, const std::string& type) {
  std::vector<json> out;
  for (const auto& s : summary["special_points"])
    if (s["type"] == type) out.push_back(s);
  return out;
}

// The distance from z to the nearest of the eigenvalue columns re_k, im_k of a row.
double nearest(const std::map<std::string, double>& row, std::complex<double> z, int count) {
  double best = INFINITY;
  for (int k = 1; k <= count; ++k)
    best = std::min(best, std::abs(std::complex<double>(row.at("re_" + std::to_string(k)),
                                                        row.at("im_" + std::to_string(k))) -
                                   z));
  return best;
}

}  // namespace

TEST_CASE("a pendulum on a torsion spring under a torque: equilibria, eigenvalues and its Hopf point",
          "[cli][mechanical][hopf]") {
  // theta'' = tau - k theta - sin(theta) - (c - b theta) theta', k = 1,
  // c = pi/2, b = 1 (examples/user/pendulum_spring_torque.json). Rest points:
  // theta' = 0, tau = k theta + sin(theta). Linearized there:
  // lambda^2 + (c - b theta) lambda + (k + cos(theta)) = 0. The damping
  // vanishes at theta_H = c/b = pi/2: a Hopf point at tau_H = pi/2 + 1 with
  // omega^2 = k + cos(theta_H) = 1.
  // l1: with x = theta - theta_H the equation is x'' + f(x) x' + g(x) = 0,
  // f(x) = -b x (f1 = -b, f2 = 0), g(x) = k x + sin(theta_H + x) - sin(theta_H)
  // = x + (cos x - 1) (omega^2 = 1, g2 = -1/2). With u = x, v = -x'/omega it
  // is u' = -omega v, v' = omega u + G, G = (g2 u^2 + g3 u^3)/omega - f1 u v
  // - f2 u^2 v, and Guckenheimer & Holmes (1983), eq. (3.4.11), give
  // 16 a = G_uuv + G_vvv - G_uv (G_uu + G_vv)/omega = -2 f2 + 2 f1 g2/omega^2,
  // a = (f1 g2/omega^2 - f2)/8 = b/16. At omega = 1, (u, v) is an isometry of
  // (x, x'), and the eigenvector of <q, q> = 1 has |z|^2 = r^2/2, so
  // Kuznetsov's l1 = Re c1/omega = 2a/omega = b/8 = 1/8 (the same conversion
  // gives van der Pol's -1/4 from a = -1/8): subcritical.
  const fs::path out = scratch("pendulum-spring-torque");
  const json summary = continue_json(example("user/pendulum_spring_torque.json"), out);
  const double pi = std::acos(-1.0), k = 1.0, c = pi / 2, b = 1.0;
  const auto hb = of_type(summary, "HB");
  REQUIRE(hb.size() == 1);
  CHECK(hb[0]["parameters"]["tau"].get<double>() == Approx(1 + pi / 2).epsilon(0).margin(1e-10));
  CHECK(hb[0]["frequency"].get<double>() == Approx(1.0).epsilon(0).margin(1e-10));
  CHECK(hb[0]["l1"].get<double>() == Approx(b / 8).epsilon(0).margin(1e-8));
  CHECK(hb[0]["criticality"] == "subcritical");
  const auto rows = read_rows(out / "branch.csv");
  REQUIRE(rows.size() > 20);
  for (const auto& row : rows) {
    const double theta = row.at("theta"), tau = row.at("tau");
    INFO("tau = " << tau);
    CHECK(std::abs(row.at("theta_dot")) < 1e-12);
    CHECK(std::abs(k * theta + std::sin(theta) - tau) < 1e-10);
    // The two roots of lambda^2 + (c - b theta) lambda + k + cos(theta).
    const std::complex<double> damping = c - b * theta, stiffness = k + std::cos(theta);
    const std::complex<double> root = std::sqrt(damping * damping - 4.0 * stiffness);
    for (const auto lambda : {(-damping + root) / 2.0, (-damping - root) / 2.0})
      CHECK(nearest(row, lambda, 2) < 1e-9);
    CHECK(row.at("unstable") == (theta > c / b + 1e-9 ? 2 : theta < c / b - 1e-9 ? 0 : row.at("unstable")));
  }
}

TEST_CASE("the triple pendulum at rest under a torque: psi1 = asin(q1), the fold at q1 = 1, eigenvalues",
          "[cli][mechanical]") {
  // models/triple_pendulum.h at rest (w = 0): f = (q1 - sin psi1, -mu2 sin psi2,
  // -mu3 sin psi3) = 0, so psi2 = psi3 = 0 and sin psi1 = q1; the fold where
  // cos psi1 = 0: q1 = 1, psi1 = pi/2. The linearization at rest is
  // M lambda^2 + C lambda + K with K = -f_q = diag(cos psi1, mu2, mu3),
  // C = -f_w the joint dampers, and M(psi) with c12 = c13 = cos psi1, c23 = 1
  // there: its eigenvalues are those of the companion matrix
  // [[0, I], [-M^-1 K, -M^-1 C]], computed here from these closed-form matrices.
  const fs::path out = scratch("triple-pendulum-equilibria");
  const json summary = continue_json(example("triple_pendulum_equilibria.json"), out);
  const auto lp = of_type(summary, "LP");
  REQUIRE(lp.size() == 1);
  CHECK(lp[0]["parameters"]["q1"].get<double>() == Approx(1.0).epsilon(0).margin(1e-10));
  const models::TriplePendulum m;
  const auto rows = read_rows(out / "branch.csv");
  REQUIRE(rows.size() > 20);
  int upper = 0;
  for (const auto& row : rows) {
    const double psi1 = row.at("psi1"), q1 = row.at("q1");
    INFO("q1 = " << q1 << ", psi1 = " << psi1);
    CHECK(std::abs(std::sin(psi1) - q1) < 1e-10);
    CHECK(std::abs(row.at("psi2")) < 1e-12);
    CHECK(std::abs(row.at("psi3")) < 1e-12);
    Eigen::Matrix3d M, C, K;
    const double c1 = std::cos(psi1);
    M << 1, m.v12 * c1, m.v13 * c1, m.v12 * c1, m.beta2, m.v23, m.v13 * c1, m.v23, m.beta3;
    C << m.c1 + m.c2, -m.c2, 0, -m.c2, m.c2 + m.c3, -m.c3, 0, -m.c3, m.c3;
    K = Eigen::Vector3d(c1, m.mu2, m.mu3).asDiagonal();
    Eigen::Matrix<double, 6, 6> A = Eigen::Matrix<double, 6, 6>::Zero();
    A.topRightCorner(3, 3).setIdentity();
    A.bottomLeftCorner(3, 3) = -M.inverse() * K;
    A.bottomRightCorner(3, 3) = -M.inverse() * C;
    const Eigen::VectorXcd lambda = Eigen::EigenSolver<Eigen::Matrix<double, 6, 6>>(A).eigenvalues();
    int unstable = 0;
    for (const auto l : lambda) {
      CHECK(nearest(row, l, 6) < 1e-9 * (1 + std::abs(l)));
      unstable += l.real() > 0;
    }
    if (std::abs(c1) > 1e-6) CHECK(row.at("unstable") == unstable);
    if (c1 < -1e-6) {
      ++upper;
      CHECK(unstable == 1);
    }
  }
  CHECK(upper > 3);  // past the fold, on the upper branch
}

TEST_CASE("mechanical rates: F_x at rest is [[0, I], [M^-1 f_q, M^-1 f_q']] (exact Jets)", "[mechanical]") {
  // The built-in triple pendulum off rest (w != 0, so that f and the
  // velocity terms count), the Jets' Jacobian against central differences.
  const auto system = make_system(models::MechanicalRates<models::TriplePendulum>(models::TriplePendulum{}));
  REQUIRE(system->state_size() == 6);
  Vector u(system->size());
  u.setZero();
  u.head(6) << 0.3, -0.2, 0.5, 0.4, -0.1, 0.7;
  u.tail(system->parameter_size()) = models::MechanicalRates<models::TriplePendulum>({}).parameter_values();
  const Matrix J = system->jacobian(u);
  const double h = 1e-6;
  for (int j = 0; j < u.size(); ++j) {
    Vector up = u, um = u;
    up[j] += h;
    um[j] -= h;
    const Vector d = (system->residual(up) - system->residual(um)) / (2 * h);
    CHECK((J.col(j) - d).norm() < 1e-7 * (1 + d.norm()));
  }
}

TEST_CASE("mechanical run files for saltus continue: bad input is a clear error", "[cli][mechanical]") {
  const fs::path dir = scratch("mechanical-bad");
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const std::string base =
      R"J("coordinates": ["x"], "parameters": {"k": 1, "w": 1}, "mass": ["1"], "start": {"x": 0},
         "continuation": {"parameter": "k", "bounds": {"k": [0, 2]}})J";
  const Run forced =
      run_saltus({"continue", write("forced.json", "{" + base + R"J(, "forces": ["-k*x + cos(w*t)"]})J"),
                  "--out", (dir / "o1").string()});
  CHECK(forced.code != 0);
  CHECK(forced.err.find("time t") != std::string::npos);
  CHECK(!fs::exists(dir / "o1"));
  const Run both = run_saltus(
      {"continue", write("both.json", "{" + base + R"J(, "forces": ["-k*x"], "equations": ["x"]})J"), "--out",
       (dir / "o2").string()});
  CHECK(both.code != 0);
  CHECK(both.err.find("'equations' and 'coordinates'") != std::string::npos);
  const Run orbit = run_saltus(
      {"continue", write("orbit.json", "{" + base + R"J(, "forces": ["-k*x"], "periodic": {"period": 1}})J"),
       "--out", (dir / "o3").string()});
  CHECK(orbit.code != 0);
  CHECK(orbit.err.find("saltus periodic") != std::string::npos);
}
