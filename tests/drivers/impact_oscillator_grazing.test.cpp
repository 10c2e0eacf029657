// The impact oscillator through its grazing (examples/user/impact_oscillator_grazing.json)
// against the closed forms of impact_oscillator_closed_form.h: the impactless
// orbit (the forced response z_p, monodromy E(T), multipliers
// e^{(-zeta +- i wd) T}) down to the grazing frequency |X(w)| = d, then the
// impacting period-1 orbit (one impact per period, monodromy S E(T)).

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "impact_oscillator_closed_form.h"
#include "run_cli.h"
#include "studies/hybrid_run_file.h"

using namespace saltus;
using saltus::testing::Oscillator;
using saltus::testing::sorted;

namespace {

struct Row {
  std::string label, events;
  double x = 0, v = 0, w = 0;
};

std::vector<Row> read_branch(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::map<std::string, int> column;
  {
    std::stringstream header(line);
    std::string name;
    for (int i = 0; std::getline(header, name, ','); ++i) column[name] = i;
  }
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream s(line);
    std::string cell;
    while (std::getline(s, cell, ',')) cells.push_back(cell);
    Row r;
    r.label = cells.at(column.at("label"));
    r.events = cells.at(column.at("events"));
    r.x = std::stod(cells.at(column.at("x")));
    r.v = std::stod(cells.at(column.at("v")));
    r.w = std::stod(cells.at(column.at("w")));
    rows.push_back(r);
  }
  return rows;
}

// The multipliers of a summary's list against exact ones (conjugate pairs in either order).
void check_multipliers(const nlohmann::json& list, const Eigen::VectorXcd& exact, double tolerance) {
  REQUIRE(list.size() == static_cast<std::size_t>(exact.size()));
  for (int i = 0; i < exact.size(); ++i) {
    const std::complex<double> mu(list[i][0].get<double>(), list[i][1].get<double>());
    double closest = 1e300;
    for (int j = 0; j < exact.size(); ++j) closest = std::min(closest, std::abs(mu - exact[j]));
    INFO("multiplier " << mu << " against " << exact.transpose());
    CHECK(closest < tolerance);
  }
}

}  // namespace

TEST_CASE(
    "impact oscillator through grazing: the impactless orbit down to |X(w)| = d, on as the impacting "
    "period-1 orbit, against the closed forms on both sides",
    "[user][periodic][grazing][impact-oscillator]") {
  const auto path = saltus::testing::example("user/impact_oscillator_grazing.json");
  const auto run = studies::read_hybrid_run(path);
  const Oscillator osc{run.system->parameter("zeta"), run.system->parameter("F"), run.system->parameter("d"),
                       run.system->parameter("r")};
  const auto out = saltus::testing::scratch("impact-oscillator-grazing");
  const auto result = saltus::testing::run_saltus({"periodic", path.string(), "--out", out.string()});
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  // The cut follows the forcing: t0(w) = phase T(w), the phase of the first orbit.
  const double w0 = summary["parameters"]["w"].get<double>();
  const double phase = summary["t0"].get<double>() / (2 * M_PI / w0);
  const auto cut = [&](double w) { return phase * 2 * M_PI / w; };

  // Every point of branch.csv against the closed form of its event sequence.
  int free = 0, impacting = 0, grazing = 0;
  for (const Row& r : read_branch(out / "branch.csv")) {
    const Eigen::Vector2d z(r.x, r.v);
    INFO("w = " << std::setprecision(12) << r.w << ", events " << r.events);
    if (r.label == "GR") {
      ++grazing;
      CHECK(r.events == "none -> impact");
      CHECK(std::abs(r.w - osc.grazing_frequency()) < 1e-8);
      CHECK((z - osc.forced(r.w, cut(r.w))).norm() < 1e-8);
    } else if (r.events == "none") {
      ++free;
      CHECK(osc.amplitude(r.w) < osc.d);
      CHECK((z - osc.forced(r.w, cut(r.w))).norm() < 1e-8);
    } else if (r.events == "impact") {
      ++impacting;
      double closest = 1e300;
      for (const auto& o : osc.orbits(r.w))
        closest = std::min(closest, (o.at(osc, r.w, cut(r.w)) - z).norm());
      CHECK(closest < 1e-8);
    } else {
      FAIL("unexpected event sequence " << r.events);
    }
  }
  CHECK(free >= 3);
  CHECK(impacting >= 10);
  CHECK(grazing == 1);

  // The GR point: the sequences, and the multipliers on both sides.
  const nlohmann::json* gr = nullptr;
  for (const auto& sp : summary["special_points"])
    if (sp["type"] == "GR") gr = &sp;
  REQUIRE(gr);
  CHECK((*gr)["status"] == "located");
  CHECK((*gr)["kind"] == "impact appears");
  CHECK((*gr)["sequence_before"] == "none");
  CHECK((*gr)["sequence_after"] == "impact");
  CHECK((*gr)["continued"] == true);
  const double w_gr = (*gr)["parameters"]["w"].get<double>();
  CHECK(std::abs(w_gr - osc.grazing_frequency()) < 1e-8);
  // Smooth side: E(T), at the grazing itself and at the last impactless orbit.
  const auto free_multipliers = [&](double w) {
    return Eigen::EigenSolver<Eigen::Matrix2d>(osc.E(2 * M_PI / w)).eigenvalues().eval();
  };
  check_multipliers((*gr)["smooth_side_multipliers"], free_multipliers(w_gr), 1e-8);
  check_multipliers((*gr)["multipliers"], free_multipliers(w_gr), 1e-8);
  const double w_before = (*gr)["before"]["parameter"].get<double>();
  check_multipliers((*gr)["before"]["multipliers"], free_multipliers(w_before), 1e-8);
  // Impacting side: S E(T) of the closed-form orbit at the first impacting
  // point; they diverge like 1 / v as the impact speed v goes to zero (the
  // square-root singularity), so one of them is far outside the unit circle.
  const double w_after = (*gr)["after"]["parameter"].get<double>();
  const auto orbits = osc.orbits(w_after);
  REQUIRE(!orbits.empty());
  const Oscillator::Orbit* slowest = &orbits.front();
  for (const auto& o : orbits)
    if (o.v < slowest->v) slowest = &o;
  const Eigen::VectorXcd exact = Eigen::EigenSolver<Eigen::Matrix2d>(slowest->monodromy).eigenvalues();
  check_multipliers((*gr)["after"]["multipliers"], exact, 1e-8 * (1 + std::abs(sorted(exact)[0])));
  CHECK(std::abs(sorted(exact)[0]) > 1.0);
  std::filesystem::remove_all(out);
}

TEST_CASE(
    "impact oscillator (examples/user/impact_oscillator_curves.json): the grazing curve in (w, F) against "
    "F = d sqrt((1 - w^2)^2 + (2 zeta w)^2)",
    "[user][periodic][grazing][impact-oscillator][curve]") {
  const auto path = saltus::testing::example("user/impact_oscillator_curves.json");
  const auto run = studies::read_hybrid_run(path);
  const Oscillator osc{run.system->parameter("zeta"), run.system->parameter("F"), run.system->parameter("d"),
                       run.system->parameter("r")};
  const auto out = saltus::testing::scratch("impact-oscillator-curves");
  const auto result = saltus::testing::run_saltus({"periodic", path.string(), "--out", out.string()});
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  REQUIRE(summary["curves"].size() == 2);  // GR, then PD (tests/drivers/impact_oscillator_pd_curve.test.cpp)
  CHECK(summary["curves"][0]["kind"] == "GR");
  int points = 0;
  double w_min = 1e300, w_max = -1e300;
  for (const auto& row : saltus::testing::read_csv(out / summary["curves"][0]["file"].get<std::string>())) {
    const double w = std::stod(row.at("w")), F = std::stod(row.at("F"));
    const double closed = osc.d * std::hypot(1 - w * w, 2 * osc.zeta * w);
    INFO("w = " << std::setprecision(12) << w << ", F = " << F << ", closed form " << closed);
    CHECK(std::abs(F - closed) < 1e-8);
    w_min = std::min(w_min, w), w_max = std::max(w_max, w);
    ++points;
  }
  CHECK(points >= 20);
  CHECK(w_max - w_min > 0.5);
  CHECK(std::filesystem::exists(out / "curves_w_F.png"));
  std::filesystem::remove_all(out);
}

TEST_CASE("impact oscillator: a grazing curve asked badly is a clear error",
          "[user][periodic][grazing][curve][errors]") {
  const auto example = saltus::testing::example("user/impact_oscillator_curves.json");
  struct Case {
    std::string what, curve, message;
    int code;
  };
  const std::vector<Case> cases = {
      {"unknown kind", R"({"kind": "CPC", "parameters": ["w", "F"]})",
       R"(give "GR", "LPC", "PD", "NS", or "CS" or "SS" (Filippov orbits))", 1},
      {"twice the same", R"({"parameters": ["w", "w"]})", "two different parameters", 1},
      {"not the branch's", R"({"parameters": ["F", "d"]})", "the first must be the branch's", 1},
      {"unknown", R"({"parameters": ["w", "mass"]})", "'mass' is not a parameter", 1},
  };
  for (const auto& c : cases) {
    SECTION(c.what) {
      const auto dir = saltus::testing::scratch("bad-curve");
      std::filesystem::create_directories(dir);
      auto run = nlohmann::json::parse(std::ifstream(example));
      run["periodic"]["curve"] = nlohmann::json::parse(c.curve);
      std::ofstream(dir / "run.json") << run.dump(2);
      const auto r = saltus::testing::run_saltus(
          {"periodic", (dir / "run.json").string(), "--out", (dir / "out").string()});
      CHECK(r.code == c.code);
      CHECK_THAT(r.err, Catch::Contains(c.message));
      CHECK(!std::filesystem::exists(dir / "out"));
      std::filesystem::remove_all(dir);
    }
  }
  SECTION("a branch that reaches no grazing") {
    const auto dir = saltus::testing::scratch("bad-curve");
    std::filesystem::create_directories(dir);
    auto run = nlohmann::json::parse(std::ifstream(example));
    run["periodic"]["bounds"]["w"] = {2.0, 2.4};
    std::ofstream(dir / "run.json") << run.dump(2);
    const auto r = saltus::testing::run_saltus(
        {"periodic", (dir / "run.json").string(), "--out", (dir / "out").string()});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("no located grazing (GR) to start the curve from"));
    std::filesystem::remove_all(dir);
  }
}
