// The sweep study (studies/sweep_study.h) against `saltus sweep`, which runs
// it with a journal (studies/grid_runner.h): the same hits, and a sweep
// stopped by its progress callback keeps exactly the values it finished.

#include "studies/sweep_study.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>

#include "../drivers/run_cli.h"
#include "studies/hybrid_study.h"

using namespace saltus;
using namespace saltus::testing;

namespace {

// The triple pendulum swept in q1 with short times, on two chains.
studies::Json small_sweep() {
  return studies::Json::parse(R"({"name": "small", "model": "triple_pendulum",
    "parameters": {"eta": 1.8, "c1": 0.12, "c2": 0.12, "c3": 0.12, "e": 0.9},
    "initial": {"psi1": 1.8, "psi2": 1.0, "psi3": 2.0, "psi1_dot": 0, "psi2_dot": 0, "psi3_dot": 0},
    "time": [0, 10], "section": {"variable": "psi1", "value": 0, "angle": true},
    "sweep": {"parameter": "q1", "from": 1.31, "to": 1.25, "steps": 6, "transient": 10, "record": 30,
              "threads": 2, "plot": "psi2_dot"}})");
}

}  // namespace

TEST_CASE("sweep study: the command line's hits, value by value, on the same chains", "[studies][sweep]") {
  const std::filesystem::path dir = scratch("sweep-study");
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "run.json") << small_sweep().dump();
  const Run cli = run_saltus({"sweep", (dir / "run.json").string(), "--out", (dir / "out").string()});
  INFO(cli.err);
  REQUIRE(cli.code == 0);
  const auto rows = read_csv(dir / "out" / "sweep.csv");

  const auto run = studies::load_hybrid_description(small_sweep(), "small");
  const studies::SweepResult sweep = studies::sweep(*run);
  CHECK(sweep.chains == 2);
  CHECK(!sweep.interrupted);
  const auto names = run->system->state_names();
  std::size_t row = 0;
  for (std::size_t k = 0; k < sweep.values.size(); ++k) {
    CHECK(sweep.done[k]);
    CHECK(sweep.points[k].failure.empty());
    for (const auto& h : sweep.points[k].hits) {
      REQUIRE(row < rows.size());
      // sweep.csv has 15 significant digits
      CHECK(std::stod(rows[row].at("q1")) == Approx(sweep.values[k]).epsilon(1e-14));
      CHECK(std::stod(rows[row].at("t")) == Approx(h.t).epsilon(1e-14));
      for (std::size_t j = 0; j < names.size(); ++j)
        CHECK(std::stod(rows[row].at(names[j])) ==
              Approx(h.x[static_cast<Eigen::Index>(j)]).epsilon(1e-13).margin(1e-14));
      ++row;
    }
  }
  CHECK(row == rows.size());
  CHECK(row >= 6);

  SECTION("an exception of a point stops the sweep and reaches the caller") {
    const auto thrown = [] {
      studies::GridControl control;
      control.progress = [](int, int) -> bool { throw std::runtime_error("from the callback"); };
      return studies::sweep(*studies::load_hybrid_description(small_sweep(), "small"), control);
    };
    CHECK_THROWS_WITH(thrown(), "from the callback");
  }

  SECTION("stopped by its progress callback, it keeps the values it finished") {
    std::vector<std::pair<int, int>> calls;  // checked here, not on the worker threads
    studies::GridControl control;
    control.progress = [&calls](int done, int total) {
      calls.emplace_back(done, total);
      return done < 2;
    };
    const studies::SweepResult part = studies::sweep(*run, control);
    CHECK(part.interrupted);
    REQUIRE(calls.size() == 2);  // not called again after it said stop
    CHECK(calls[0] == std::make_pair(1, 6));
    CHECK(calls[1] == std::make_pair(2, 6));
    int done = 0;
    for (std::size_t k = 0; k < part.values.size(); ++k) {
      if (!part.done[k]) continue;
      ++done;
      REQUIRE(part.points[k].hits.size() == sweep.points[k].hits.size());
      for (std::size_t h = 0; h < part.points[k].hits.size(); ++h)
        CHECK(part.points[k].hits[h].x == sweep.points[k].hits[h].x);
    }
    CHECK(done >= 2);
    CHECK(done < 6);
  }
  std::filesystem::remove_all(dir);
}
