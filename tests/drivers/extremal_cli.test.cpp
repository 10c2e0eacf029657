// `saltus extremal classify` and `saltus extremal solutions` on the run files
// examples/extremal/ex441.json .. ex445.json (Damerau & Low 2016, Sec. 4.4),
// driven through the command functions (drivers/extremal_commands.h), and
// their bad-input messages and exit codes.

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "drivers/extremal_commands.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus::drivers;

namespace {

struct Result {
  int code;
  std::string out, err;
};

fs::path example(const std::string& name) {
  return fs::path(SALTUS_SOURCE_DIR) / "examples" / "extremal" / (name + ".json");
}

// As the command line does: a RunFileError is exit code 1 with its message.
Result classify_file(const fs::path& file, bool as_json = true) {
  std::ostringstream out, err;
  int code;
  try {
    code = extremal_classify_command(read_extremal_run(file), as_json, out, err);
  } catch (const RunFileError& e) {
    err << "saltus: " << e.what() << '\n';
    code = 1;
  }
  return {code, out.str(), err.str()};
}

Result solutions(const std::string& name, double x, double y, double phi, double box) {
  std::ostringstream out, err;
  const int code =
      extremal_solutions_command(read_extremal_run(example(name)), x, y, phi, box, true, out, err);
  return {code, out.str(), err.str()};
}

fs::path write_run(const std::string& text) {
  static std::mt19937 rng(std::random_device{}());
  const fs::path dir = fs::temp_directory_path() / ("saltus-extremal-" + std::to_string(rng()));
  fs::create_directories(dir);
  const fs::path file = dir / "bad.json";
  std::ofstream(file) << text;
  return file;
}

const char* const kEx445Curves =
    R"J("curve1": {"type": "polynomial", "x": [0, -1], "y": [0, 0, 1, 0, 2]},
       "curve2": {"type": "graph", "p": [0, 0, 2, 0, 24, 50]},)J";

}  // namespace

TEST_CASE("saltus extremal classify: the five examples of Sec. 4.4 have codimensions 1, 2, 2, 2, 3",
          "[cli][extremal]") {
  // The paper prints 1, 2, 3, 2, 3: (37) of example 4.4.3 as printed is a
  // cusp (c_3 = 18 != 0), see tests/analyses/contact/classification.test.cpp.
  const std::vector<std::tuple<std::string, int, std::string>> cases = {{"ex441", 1, "fold"},
                                                                        {"ex442", 2, "cusp"},
                                                                        {"ex443", 2, "cusp"},
                                                                        {"ex444", 2, "cusp"},
                                                                        {"ex445", 3, "swallowtail"}};
  for (const auto& [name, codimension, type] : cases) {
    INFO(name);
    const Result r = classify_file(example(name));
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j["status"] == "classified");
    CHECK(j["codimension"].get<int>() == codimension);
    CHECK(j["type"] == type);
    CHECK(j["transversality_matrix"].size() == static_cast<std::size_t>(codimension));
    CHECK(j["normal_form"].size() == static_cast<std::size_t>(codimension + 1));
    for (const char* key : {"s1", "s2", "x", "y", "phi"}) CHECK(j["degenerate_point"].contains(key));
    for (const char* key : {"kappa1", "kappa2", "d", "det", "trace", "rank", "versal", "lyapunov"})
      CHECK(j.contains(key));
    CHECK(j["lyapunov"]["c"].contains("2"));
    CHECK(j["lyapunov"]["cm"].contains("0,3"));
  }
  // The not-versal cusp (35) and the exact c_3 of (40) in doubles.
  const json ex442 = json::parse(classify_file(example("ex442")).out);
  CHECK(ex442["rank"] == 1);
  CHECK(ex442["versal"] == false);
  const json ex444 = json::parse(classify_file(example("ex444")).out);
  CHECK(ex444["exact"] == false);
  CHECK(ex444["lyapunov"]["c"]["3"].get<double>() == Approx(16.0 / 27.0).epsilon(1e-12));
}

TEST_CASE("saltus extremal classify ex445: (43) corrected, matrix (44) and normal form (45) exactly",
          "[cli][extremal]") {
  const Result r = classify_file(example("ex445"));
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK_THAT(j["note"].get<std::string>(), Catch::Contains("det J"));
  CHECK(j["exact"] == true);
  CHECK(j["kappa1"].get<double>() == -2.0);
  CHECK(j["kappa2"].get<double>() == 4.0);
  CHECK(j["d"].get<double>() == 0.25);
  CHECK(j["det"].get<double>() == 0.0);
  CHECK(j["trace"].get<double>() == 3.5);
  CHECK(j["lyapunov"]["c_exact"]["4"] == "16000/2401");
  CHECK(j["lyapunov"]["c"]["4"].get<double>() == Approx(16000.0 / 2401.0).epsilon(1e-14));
  const auto exact = j["transversality_matrix_exact"].get<std::vector<std::vector<std::string>>>();
  CHECK(exact == std::vector<std::vector<std::string>>{
                     {"1", "0", "0"}, {"-16/7", "-16/7", "0"}, {"-320/343", "192/49", "192/49"}});
  const auto values = j["transversality_matrix"].get<std::vector<std::vector<double>>>();
  REQUIRE(values.size() == 3);
  CHECK(values[2][0] == Approx(-320.0 / 343.0).epsilon(1e-14));
  CHECK(j["rank"] == 3);
  CHECK(j["versal"] == true);
  // (45) to first order: mu_0 = -2401/16000 x + 2401/64000 phi, mu_1 = 343/1000 y, mu_2 = 91/125 x - 77/100
  // phi.
  CHECK_THAT(j["normal_form"][0]["exact"].get<std::string>(),
             Catch::StartsWith("-2401/16000*x + 2401/64000*phi"));
  CHECK_THAT(j["normal_form"][1]["exact"].get<std::string>(), Catch::StartsWith("343/1000*y"));
  CHECK_THAT(j["normal_form"][2]["exact"].get<std::string>(), Catch::StartsWith("91/125*x - 77/100*phi"));
  CHECK(j["normal_form"][3]["exact"] == "0");
  // The text form says the same.
  const Result text = classify_file(example("ex445"), false);
  REQUIRE(text.code == 0);
  CHECK_THAT(text.out, Catch::Contains("codimension 3 (swallowtail)"));
  CHECK_THAT(text.out, Catch::Contains("[-320/343 192/49 192/49]"));
}

TEST_CASE("saltus extremal solutions: direct counts agree with the normal form on both sides of the set",
          "[cli][extremal]") {
  struct Case {
    std::string name;
    double x, y, phi, box;
    int count;
  };
  // Fold (33): 2 / 0 across phi = 0; cusp (37): 3 / 1 across the cusp in x;
  // cusp (42): 1 above y = -1/2, 3 below; swallowtail (45): 4 / 2 below.
  const std::vector<Case> cases = {{"ex441", 0.0, 0.0, -0.01, 0.3, 2}, {"ex441", 0.0, 0.0, 0.01, 0.3, 0},
                                   {"ex443", 0.003, 0.0, 0.0, 0.2, 3}, {"ex443", -0.003, 0.0, 0.0, 0.2, 1},
                                   {"ex444", 0.0, -0.45, 0.0, 0.5, 1}, {"ex444", 0.0, -0.55, 0.0, 0.5, 3}};
  for (const auto& c : cases) {
    INFO(c.name << " at pose " << c.x << ", " << c.y << ", " << c.phi);
    const Result r = solutions(c.name, c.x, c.y, c.phi, c.box);
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j["count"].get<int>() == c.count);
    CHECK(j["solutions"].size() == static_cast<std::size_t>(c.count));
    CHECK(j["predicted_count"].get<int>() == c.count);
    CHECK(j["agrees"] == true);
    for (const auto& s : j["solutions"]) {
      CHECK(std::abs(s["s1"].get<double>()) <= c.box);
      CHECK(std::abs(s["s2"].get<double>()) <= c.box);
    }
  }
  // Swallowtail (45) at y = 1/4 (mu_1 ~ 0): mu_2 = -a, mu_0 = a^2/8 (four
  // roots) or -a^2/8 (two), solving the linear parts of (45) for (x, phi).
  const double A0 = -2401.0 / 16000, B0 = 2401.0 / 64000, A2 = 91.0 / 125, B2 = -77.0 / 100, a = 0.01;
  for (const auto& [fraction, expected] : {std::pair{0.125, 4}, std::pair{-0.125, 2}}) {
    const double mu2 = -a, mu0 = fraction * a * a, det = A0 * B2 - B0 * A2;
    const double x = (mu0 * B2 - B0 * mu2) / det, phi = (A0 * mu2 - mu0 * A2) / det;
    INFO("ex445 at pose " << x << ", 0.25, " << phi);
    const Result r = solutions("ex445", x, 0.25, phi, 0.3);
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j["count"].get<int>() == expected);
    CHECK(j["predicted_count"].get<int>() == expected);
    CHECK(j["agrees"] == true);
  }
  // box <= 0: the run file's search.box.
  const Result d = solutions("ex441", 0.0, 0.0, -0.01, 0.0);
  REQUIRE(d.code == 0);
  CHECK(json::parse(d.out)["box"].get<double>() == 0.3);
}

TEST_CASE("saltus extremal: bad input says what is wrong and exits non-zero", "[cli][extremal]") {
  // A non-degenerate point (y = 1/2 on the corrected (43)): "not degenerate", with det.
  const Result nondegenerate = classify_file(write_run(
      std::string("{") + kEx445Curves + R"J("point": {"s1": 0, "s2": 0, "x": 0, "y": 0.5, "phi": 0}})J"));
  CHECK(nondegenerate.code == 1);
  CHECK(nondegenerate.out.empty());
  CHECK_THAT(nondegenerate.err, Catch::Contains("is not degenerate: det J = 2"));
  // (43) as printed: det J = 4.
  const Result printed =
      classify_file(write_run(R"J({"curve1": {"type": "polynomial", "x": [0, -1], "y": [0, 0, 2, 0, 2]},
       "curve2": {"type": "graph", "p": [0, 0, 2, 0, 24, 50]},
       "point": {"s1": 0, "s2": 0, "x": 0, "y": 0.25, "phi": 0}})J"));
  CHECK(printed.code == 1);
  CHECK_THAT(printed.err, Catch::Contains("is not degenerate: det J = 4"));
  // An expression syntax error names the file and the key.
  const fs::path syntax = write_run(R"J({"curve1": {"type": "expression", "x": "-sin(s", "y": "-cos(s)"},
       "curve2": {"type": "graph", "p": [0, 0, 1]},
       "point": {"s1": 0, "s2": 0, "x": 0, "y": -0.5, "phi": 0}})J");
  const Result bad_expression = classify_file(syntax);
  CHECK(bad_expression.code == 1);
  CHECK_THAT(bad_expression.err, Catch::Contains(syntax.string()));
  CHECK_THAT(bad_expression.err, Catch::Contains("'curve1.x' = \"-sin(s\""));
  // A non-regular curve point (a cusp of the curve at s = 1/2).
  const Result cusp = classify_file(write_run(
      R"J({"curve1": {"type": "polynomial", "name": "cusp", "x": [0.25, -1, 1], "y": [-0.125, 0.75, -1.5, 1]},
       "curve2": {"type": "circle"},
       "point": {"s1": 0.5, "s2": 0, "x": 2, "y": 0, "phi": 0}})J"));
  CHECK(cusp.code == 1);
  CHECK_THAT(cusp.err, Catch::Contains("curve 'cusp' is not regular"));
  // An order too low to decide: exit 2, "codimension > N-1".
  const Result low = classify_file(write_run(std::string("{") + kEx445Curves +
                                             R"J("point": {"s1": 0, "s2": 0, "x": 0, "y": 0.25, "phi": 0},
       "options": {"order": 3}})J"));
  CHECK(low.code == 2);
  CHECK_THAT(low.err, Catch::Contains("codimension > 2"));
  CHECK(json::parse(low.out)["status"] == "undecided");
  // Bad keys and values name the key.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"J({"curve1": {"type": "spline"}, "curve2": {"type": "circle"}, "point": {"s1": 0, "s2": 0, "x": 0, "y": 0, "phi": 0}})J",
       "'curve1.type' = 'spline' is not a curve type"},
      {R"J({"curve1": {"type": "circle", "radius": -1}, "curve2": {"type": "circle"}, "point": {"s1": 0, "s2": 0, "x": 0, "y": 0, "phi": 0}})J",
       "'curve1'"},
      {R"J({"curve1": {"type": "polynomial", "x": [0, 1]}, "curve2": {"type": "circle"}, "point": {"s1": 0, "s2": 0, "x": 0, "y": 0, "phi": 0}})J",
       "'curve1.y' is missing"},
      {R"J({"curve1": {"type": "circle"}, "curve2": {"type": "circle", "radius": "1"}, "point": {"s1": 0, "s2": 0, "x": 0, "y": 0, "phi": 0}})J",
       "'curve2.radius' must be a number"},
      {R"J({"curve1": {"type": "circle"}, "curve2": {"type": "circle"}, "point": {"s1": 0, "x": 0, "y": 0, "phi": 0}})J",
       "'point.s2' is missing"},
      {R"J({"curve1": {"type": "circle"}, "curve2": {"type": "circle"}, "point": {"s1": 0, "s2": 0, "x": 0, "y": 0, "phi": 0}, "options": {"order": 1}})J",
       "order = 1 must be in 2..40"},
      {R"J({"curve1": {"type": "circle"}, "curve2": {"type": "circle"}, "point": {"s1": 0, "s2": 0, "x": 0, "y": 0, "phi": 0}, "colour": 1})J",
       "unknown key 'colour'"},
  };
  for (const auto& [text, message] : bad) {
    INFO(text);
    const Result r = classify_file(write_run(text));
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::Contains("run file "));
    CHECK_THAT(r.err, Catch::Contains(message));
  }
}
