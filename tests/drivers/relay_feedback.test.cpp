// examples/user/relay_feedback.json against closed forms from matrix
// exponentials. The relay loop x' = A x - k B sign(C x) (A a Jordan block of
// -a, B = e3, C = e1^T) has a symmetric periodic orbit: it crosses h = C x = 0
// upwards at x0, runs for half a period tau on the field A x - k B, and
// arrives at -x0. With E = e^{A tau},
//
//   -x0 = E x0 - k A^-1 (E - I) B   =>   x0(tau) = k (I + E)^-1 A^-1 (E - I) B,
//
// and tau solves C x0(tau) = 0 (Astrom's condition); the period is 2 tau. At
// each crossing the field jumps by -+2 k B and the saltation matrix
// (Aizerman & Gantmakher) is, at either crossing by symmetry,
//
//   S = I + (F+ - F-) C / (C F-) = I - 2 k B C / (C A x0),
//
// so the monodromy over a period is (S E)^2; its eigenvalues are the Floquet
// multipliers (one of them 1, along the orbit).

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unsupported/Eigen/MatrixFunctions>

#include "run_cli.h"
#include "studies/hybrid_run_file.h"

using namespace saltus;

namespace {

struct Relay {
  double a, k;
  Eigen::Matrix3d A() const { return (Eigen::Matrix3d() << -a, 1, 0, 0, -a, 1, 0, 0, -a).finished(); }
  Eigen::Vector3d x0(double tau) const {
    const Eigen::Matrix3d E = (A() * tau).exp(), I = Eigen::Matrix3d::Identity();
    return k * (I + E).inverse() * A().inverse() * (E - I) * Eigen::Vector3d(0, 0, 1);
  }
  // The smallest tau > 0 with C x0(tau) = 0 and an upward crossing (C A x0 > 0).
  double half_period() const {
    double lo = 1e-3, flo = x0(lo)[0];
    for (double hi = lo + 1e-3; hi < 50; hi += 1e-3) {
      const double fhi = x0(hi)[0];
      if (flo * fhi <= 0) {
        for (int it = 0; it < 200; ++it) {
          const double m = 0.5 * (lo + hi), fm = x0(m)[0];
          (flo * fm <= 0 ? hi : lo) = m;
          if (flo * fm > 0) flo = fm;
        }
        const double tau = 0.5 * (lo + hi);
        if ((A() * x0(tau))[0] > 0) return tau;
      }
      lo = hi, flo = fhi;
    }
    return std::nan("");
  }
  Eigen::Vector3cd multipliers(double tau) const {
    const Eigen::Vector3d x = x0(tau);
    Eigen::Matrix3d BC = Eigen::Matrix3d::Zero();
    BC(2, 0) = 1.0;
    const Eigen::Matrix3d S = Eigen::Matrix3d::Identity() - 2 * k * BC / (A() * x)[0];
    const Eigen::Matrix3d half = S * (A() * tau).exp();
    Eigen::Vector3cd mu = Eigen::EigenSolver<Eigen::Matrix3d>(half * half).eigenvalues();
    std::sort(mu.data(), mu.data() + 3, [](auto p, auto q) { return std::abs(p) > std::abs(q); });
    return mu;
  }
};

}  // namespace

TEST_CASE(
    "relay feedback (examples/user/relay_feedback.json): period and multipliers against matrix exponentials",
    "[user][filippov][relay]") {
  const auto path = saltus::testing::example("user/relay_feedback.json");
  const auto run = studies::read_hybrid_run(path);
  const auto out = saltus::testing::scratch("relay");
  const auto result = saltus::testing::run_saltus({"periodic", path.string(), "--out", out.string()});
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  const Relay relay{summary["parameters"]["a"].get<double>(), run.system->parameter("k")};
  const double tau = relay.half_period();
  REQUIRE(std::isfinite(tau));
  INFO("a = " << relay.a << ": closed-form period " << 2 * tau);
  CHECK(std::abs(summary["period"].get<double>() - 2 * tau) < 1e-8);
  // All multipliers, the trivial one included, by modulus.
  std::vector<std::complex<double>> mu;
  for (const auto& m : summary["multipliers"]) mu.emplace_back(m[0].get<double>(), m[1].get<double>());
  if (summary.contains("trivial_multiplier"))
    mu.emplace_back(summary["trivial_multiplier"][0].get<double>(),
                    summary["trivial_multiplier"][1].get<double>());
  std::sort(mu.begin(), mu.end(), [](auto p, auto q) { return std::abs(p) > std::abs(q); });
  const Eigen::Vector3cd exact = relay.multipliers(tau);
  INFO("closed form " << exact.transpose());
  REQUIRE(mu.size() == 3);
  for (const auto& m : mu) {
    double closest = 1e300;
    for (int i = 0; i < 3; ++i) closest = std::min(closest, std::abs(m - exact[i]));
    INFO("saltus " << m);
    CHECK(closest < 1e-8);
  }

  // Along the branch in a: the period of every point (column T of branch.csv).
  std::ifstream csv(out / "branch.csv");
  std::string header, line;
  std::getline(csv, header);
  int column_T = -1, column_a = -1, i = 0;
  for (std::size_t start = 0, end; start <= header.size(); start = end + 1, ++i) {
    end = header.find(',', start);
    if (end == std::string::npos) end = header.size();
    const std::string name = header.substr(start, end - start);
    if (name == "T" && column_T < 0) column_T = i;
    if (name == "a" && column_a < 0) column_a = i;
  }
  REQUIRE(column_T >= 0);
  REQUIRE(column_a >= 0);
  int checked = 0;
  while (std::getline(csv, line)) {
    std::vector<std::string> cells;
    for (std::size_t start = 0, end; start <= line.size(); start = end + 1) {
      end = line.find(',', start);
      if (end == std::string::npos) end = line.size();
      cells.push_back(line.substr(start, end - start));
    }
    if (checked++ % 5) continue;
    const Relay at{std::stod(cells[column_a]), relay.k};
    INFO("a = " << at.a);
    CHECK(std::abs(std::stod(cells[column_T]) - 2 * at.half_period()) < 1e-8);
  }
  CHECK(checked > 5);
  std::filesystem::remove_all(out);
}

// Issue 34, item 6: an autonomous orbit's cut placed away from its events
// and re-placed along the branch (continuation/periodic/shooting.h,
// ShootingSystem::recut). The relay loop of the example has no fold in a
// (x(t; a) = x(a t; 1) / a^3: the orbit only scales), so the plant's input
// gets a cubic restoring term, u = -k sign(x1) - g x1^3 (g = 1): by the
// describing function N(A) = 4 k / (pi A) + 3 g A^2 / 4 against the
// plant's 1 / |G(i sqrt(3) a)| = 8 a^3, the relay's small stable orbit
// and a large unstable one exist while 8 a^3 > min N = 2.02 (a > 0.63
// roughly), and meet at a fold of cycles as a decreases. Continued down in
// a from a = 1 with no section given (the guess from the plane through the
// transient's end, normal to the field), with a section on the switching
// surface x1 = 0 (an orbit cut there starts in one mode and ends in the
// other) and one just off it (x1 = 1e-3): each branch reaches the fold
// (LPC located, a second multiplier 1 there) and turns back onto the
// unstable orbit.
TEST_CASE("relay feedback with a cubic term: continued to its fold wherever the section is",
          "[user][filippov][relay][recut]") {
  const auto example = saltus::testing::example("user/relay_feedback.json");
  nlohmann::json file = nlohmann::json::parse(std::ifstream(example));
  file["parameters"]["g"] = 1.0;
  file["filippov"]["field"]["x3"] = "-a*x3 - k*lambda - g*x1*x1*x1";
  file["periodic"]["max_points"] = 200;
  const int variant = GENERATE(0, 1, 2);
  if (variant == 0) file.erase("section");
  if (variant == 1) file["section"] = {{"variable", "x1"}, {"value", 0}};
  if (variant == 2) file["section"] = {{"variable", "x1"}, {"value", 1e-3}};
  INFO("section " << (file.contains("section") ? file["section"].dump() : "none"));
  const auto out = saltus::testing::scratch("relay-fold");
  std::filesystem::create_directories(out);
  const auto path = out / "relay_cubic.json";
  std::ofstream(path) << file.dump(2);
  const auto result = saltus::testing::run_saltus({"periodic", path.string(), "--out", (out / "o").string()});
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out / "o" / "summary.json"));
  INFO(summary["branch"].dump());
  const nlohmann::json* fold = nullptr;
  for (const auto& sp : summary["special_points"])
    if (sp["type"] == "LPC") fold = &sp;
  REQUIRE(fold);
  CHECK((*fold)["status"] == "located");
  const double a_fold = (*fold)["parameters"]["a"].get<double>();
  CHECK(a_fold > 0.4);
  CHECK(a_fold < 0.9);
  // A second multiplier at 1 (the trivial one is reported apart).
  double nearest = 1e300;
  for (const auto& m : (*fold)["multipliers"])
    nearest = std::min(nearest, std::abs(std::complex<double>(m[0].get<double>(), m[1].get<double>()) - 1.0));
  CHECK(nearest < 1e-5);
  // Past the fold the branch turns back up in a.
  const auto rows = saltus::testing::read_csv(out / "o" / "branch.csv");
  REQUIRE(rows.size() > 3);
  CHECK(std::stod(rows.back().at("a")) > a_fold + 0.01);
  std::filesystem::remove_all(out);
}
