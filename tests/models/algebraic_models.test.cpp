// The registry of built-in algebraic models (models/algebraic_models.h):
// each name makes its system, of the asked size where it has one, and the
// run-file reader takes its models and its error message from it.

#include "models/algebraic_models.h"

#include <catch2/catch.hpp>

#include "studies/run_file.h"

using namespace saltus;

TEST_CASE("algebraic models: each registered model makes its system", "[models][registry]") {
  CHECK(models::algebraic_model_names() == "bratu, brusselator_1d, cusp, pitchfork");
  for (const auto& m : models::algebraic_models()) {
    INFO(m.name);
    CHECK(models::find_algebraic_model(m.name) == &m);
    CHECK(!m.description.empty());
    const int n = m.sized ? std::max(m.min_size, 3) : 0;
    const auto system = m.make(n);
    REQUIRE(system);
    if (m.name == "bratu") CHECK(system->state_size() == n);
    if (m.name == "brusselator_1d") CHECK(system->state_size() == 2 * n);  // two species per point
    if (!m.sized) CHECK(system->state_size() == 1);
    if (m.sized) CHECK(m.make(m.default_size)->state_size() >= m.default_size);
  }
  CHECK(models::find_algebraic_model("lorenz") == nullptr);
}

TEST_CASE("algebraic models: the run-file reader takes them and its messages from the registry",
          "[models][registry][run_file]") {
  using studies::Json;
  const auto run = [](const std::string& text) {
    return studies::parse_run_file(studies::parse_json(text, "run.json"), "run.json");
  };
  const auto bratu = run(R"({"model": "bratu", "model_options": {"n": 7}, "parameters": {"lambda": 0},
                            "continuation": {"parameter": "lambda"}})");
  CHECK(bratu.system->state_size() == 7);
  CHECK_THROWS_WITH(run(R"({"model": "bratux", "parameters": {"lambda": 0}})"),
                    Catch::Contains("unknown model 'bratux' (known: bratu, brusselator_1d, cusp, pitchfork, "
                                    "triple_pendulum)"));
  CHECK_THROWS_WITH(run(R"({"model": "brusselator_1d", "model_options": {"n": 1},
                            "parameters": {"A": 2, "B": 4.6, "Dx": 0.008, "Dy": 0.004}})"),
                    Catch::Contains("'model_options.n' = 1 must be in 2..1000000 for brusselator_1d"));
  CHECK_THROWS_WITH(
      run(R"({"model": "cusp", "model_options": {"n": 3}, "parameters": {"mu": 0, "lambda": 1}})"),
      Catch::Contains("model_options.n"));
}
