#include "models/compiled_block.h"

#include <ceres/jet.h>
#include <unistd.h>

#include <bit>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "continuation/flow/simulate.h"
#include "continuation/taylor.h"
#include "models/hybrid_expression.h"
#include "models/mechanical_expression.h"
#include "tests/scoped_environment.h"

namespace {

namespace fs = std::filesystem;
using saltus::models::compile_blocks;
using saltus::models::CompileMode;
using saltus::models::Definitions;
using saltus::models::Expression;
using saltus::models::ExpressionBlock;
using saltus::models::wait_for_background_compiles;
using Taylor1 = saltus::series::Taylor<double, 1>;
using Taylor2 = saltus::series::Taylor<double, 2>;
using Jet = ExpressionBlock::CompiledJet;

using saltus::testing::ScopedEnvironment;

// An empty cache directory of this test and process.
std::string fresh_cache(const std::string& name) {
  const fs::path dir =
      fs::path(SALTUS_BINARY_DIR) / "compiled-block-tests" / (name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

int shared_objects(const std::string& dir) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(dir)) count += entry.path().extension() == ".so";
  return count;
}

// Inputs x, y (T) and parameters a, b (plain doubles); every opcode, the
// mixed forms (a parameter with a T), sin-cos pairs and shared
// subexpressions, through two definitions.
struct Block {
  Definitions definitions;
  std::vector<Expression> outputs;
  ExpressionBlock block;

  explicit Block(const std::vector<const char*>& texts) {
    const std::vector<std::string> base{"x", "y", "a", "b"};
    definitions.names = {"d", "s"};
    definitions.expressions = {Expression::parse("x - y", base),
                               Expression::parse("sin(d)", {"x", "y", "a", "b", "d"})};
    std::vector<const Expression*> pointers;
    for (const char* text : texts) outputs.push_back(Expression::parse(text, {"x", "y", "a", "b", "d", "s"}));
    for (const auto& e : outputs) pointers.push_back(&e);
    block = ExpressionBlock(4, definitions, pointers, {false, false, true, true});
  }
};

const std::vector<const char*> kEveryOpcode{"s*cos(d) + x^2",
                                            "cos(x - y)*a - b",
                                            "exp(-x)*sinh(y)/cosh(y) + a/x - x/b",
                                            "x^y + 2^x + a^x + x^b + pow(x, 2.5) + x^-3",
                                            "atan2(y, x) + min(x, y) - max(y, a) + min(a, b)",
                                            "sqrt(x) + abs(y - a) + tanh(d)",
                                            "1 - x - 2/y + s - a*b + (a - x) - (x - b)",
                                            "asin(x/4) + acos(y/4) + atan(y) + tan(d)",
                                            "log(x) + sin(a)*x - cos(a + b) + sin(a*b)*cos(a*b)"};

template <class T>
T input(double value, std::mt19937& random) {
  if constexpr (std::is_same_v<T, double>) {
    return value;
  } else if constexpr (std::is_same_v<T, Jet>) {
    std::uniform_real_distribution<double> lane(-1.0, 1.0);
    T v(value);
    for (int k = 0; k < T::DIMENSION; ++k) v.v[k] = lane(random);
    return v;
  } else {
    std::uniform_real_distribution<double> coefficient(-1.0, 1.0);
    T v = T::variable(value, T::capacity);
    for (int k = 1; k <= T::capacity; ++k) v[k] = coefficient(random);
    return v;
  }
}

// Every part of v: a value, its Jet lanes or its Taylor coefficients.
template <class T>
void append_parts(const T& v, std::vector<double>* parts) {
  if constexpr (std::is_same_v<T, double>) {
    parts->push_back(v);
  } else if constexpr (std::is_same_v<T, Jet>) {
    parts->push_back(v.a);
    for (int k = 0; k < T::DIMENSION; ++k) parts->push_back(v.v[k]);
  } else {
    for (int k = 0; k <= v.order(); ++k) parts->push_back(v[k]);
  }
}

// Every part of the block's outputs at (x, y; a, b): a and b plain, or
// (`split` false) inputs of type T too. `direct`: by evaluate_compiled, on
// an input array and an output array of the caller's, else by evaluate().
template <class T>
std::vector<double> outputs(const ExpressionBlock& block, const T& x, const T& y, double a, double b,
                            bool split, bool direct = false) {
  const double plain[4] = {0.0, 0.0, a, b};
  std::vector<double> parts;
  if (direct) {
    const T in[4] = {x, y, T(a), T(b)};
    std::vector<T> out(block.output_count());
    REQUIRE(block.evaluate_compiled<T>(in, split ? plain : nullptr, out.data()));
    for (const T& v : out) append_parts(v, &parts);
    return parts;
  }
  block.evaluate<T>(
      [&](T* r) {
        ::new (static_cast<void*>(r)) T(x);
        ::new (static_cast<void*>(r + 1)) T(y);
        if (!split) {
          ::new (static_cast<void*>(r + 2)) T(a);
          ::new (static_cast<void*>(r + 3)) T(b);
        }
      },
      split ? plain : nullptr, [&](int, const T& v) { append_parts(v, &parts); });
  return parts;
}

// Compiled and interpreted copies of one block give the same values, every
// bit; a compiled one also through evaluate_compiled on separate arrays.
template <class T>
void check_same(const ExpressionBlock& compiled, const ExpressionBlock& interpreted, int samples,
                bool split = true) {
  std::mt19937 random(12);
  std::uniform_real_distribution<double> xs(0.2, 1.5), ys(-1.5, 1.5), parameters(0.5, 2.0);
  for (int i = 0; i < samples; ++i) {
    const T x = input<T>(xs(random), random), y = input<T>(ys(random), random);
    const double a = parameters(random), b = parameters(random);
    const auto expected = outputs(interpreted, x, y, a, b, split);
    for (const bool direct : {false, true}) {
      if (direct && !compiled.is_compiled()) continue;
      const auto actual = outputs(compiled, x, y, a, b, split, direct);
      REQUIRE(expected.size() == actual.size());
      for (std::size_t j = 0; j < expected.size(); ++j) {
        INFO("sample " << i << ", part " << j << (direct ? ", evaluate_compiled" : ""));
        CHECK(std::bit_cast<std::uint64_t>(actual[j]) == std::bit_cast<std::uint64_t>(expected[j]));
      }
    }
  }
}

}  // namespace

// The compiled straight-line program is the register loop's: each
// instruction the same apply_instruction call (models/expression_block.h),
// so every value, Taylor coefficient and Jet lane agrees to the last bit;
// on Jets also the program with every input a Jet (a carried parameter).
TEMPLATE_TEST_CASE("compiled expression block: the register loop's values bit for bit on random inputs",
                   "[models][expression][compiled]", double, Taylor1, Taylor2, Jet) {
  const ScopedEnvironment cache("SALTUS_CACHE_DIR",
                                fs::path(SALTUS_BINARY_DIR) / "compiled-block-tests" / "cache");
  const ScopedEnvironment compiler("SALTUS_CXX", std::nullopt), enabled("SALTUS_COMPILE", "wait");
  const Block interpreted(kEveryOpcode);
  ExpressionBlock compiled = interpreted.block;
  REQUIRE(compile_blocks({&compiled}));  // the compiler that built saltus is here
  CHECK(compiled.is_compiled());
  CHECK_FALSE(interpreted.block.is_compiled());
  const TestType none[4] = {};
  const double plain[4] = {};
  TestType out[16];
  CHECK_FALSE(
      interpreted.block.evaluate_compiled<TestType>(none, plain, out));  // the caller's cue to evaluate()
  check_same<TestType>(compiled, interpreted.block, 200);
  if constexpr (std::is_same_v<TestType, Jet>) check_same<TestType>(compiled, interpreted.block, 200, false);
}

// No compiler: compile_blocks says so and the block keeps the loop, with
// the same values. SALTUS_COMPILE=0 does the same with a compiler present.
TEST_CASE("compiled expression block: without a compiler, the register loop (silently)",
          "[models][expression][compiled]") {
  const Block interpreted(kEveryOpcode);
  for (const char* how : {"no compiler", "SALTUS_COMPILE=0"}) {
    INFO(how);
    const ScopedEnvironment cache("SALTUS_CACHE_DIR", fresh_cache("fallback"));
    const bool none = std::string(how) == "no compiler";
    const ScopedEnvironment compiler("SALTUS_CXX",
                                     none ? std::optional<std::string>("/nonexistent/c++") : std::nullopt);
    const ScopedEnvironment enabled("SALTUS_COMPILE", none ? std::nullopt : std::optional<std::string>("0"));
    ExpressionBlock block = interpreted.block;
    CHECK_FALSE(compile_blocks({&block}));
    CHECK_FALSE(block.is_compiled());
    check_same<double>(block, interpreted.block, 20);
    check_same<Taylor2>(block, interpreted.block, 20);
    CHECK(shared_objects(std::getenv("SALTUS_CACHE_DIR")) == 0);
  }
}

// Compiled once per content: the same blocks load from the cache with no
// compiler; other expressions need one.
TEST_CASE("compiled expression block: cached by content", "[models][expression][compiled]") {
  const std::string dir = fresh_cache("content");
  const ScopedEnvironment cache("SALTUS_CACHE_DIR", dir), enabled("SALTUS_COMPILE", "wait");
  Block first(kEveryOpcode), same(kEveryOpcode), other({"x*y + a"});
  {
    const ScopedEnvironment compiler("SALTUS_CXX", std::nullopt);
    REQUIRE(compile_blocks({&first.block}));
  }
  CHECK(shared_objects(dir) == 1);
  const ScopedEnvironment compiler("SALTUS_CXX", "/nonexistent/c++");
  CHECK(compile_blocks({&same.block}));
  CHECK_FALSE(compile_blocks({&other.block}));
  CHECK(shared_objects(dir) == 1);
}

// End to end: the run-file triple pendulum simulated with its expressions
// compiled and with the register loop (the bench's run, span 20 at 1e-10
// from psi = (1.8, 1.0, 2.0) at rest: free flight, impacts, Zeno sequences,
// contact) makes the same events at the same times and ends in the same
// state, bit for bit.
TEST_CASE("compiled expression block: the run-file pendulum's trajectory is the register loop's",
          "[models][expression][compiled][user][pendulum]") {
  std::ifstream in(std::string(SALTUS_SOURCE_DIR) + "/examples/user/triple_pendulum.json");
  const auto json = nlohmann::ordered_json::parse(in);
  const std::string dir = fresh_cache("pendulum");
  const ScopedEnvironment cache("SALTUS_CACHE_DIR", dir), compiler("SALTUS_CXX", std::nullopt);
  const auto simulate = [&](const char* compile) {
    const ScopedEnvironment enabled("SALTUS_COMPILE", compile);
    const auto system = saltus::models::make_expression_mechanical(json)->with_parameter("q1", 1.1);
    saltus::Vector x0(6);
    x0 << 1.8, 1.0, 2.0, 0.0, 0.0, 0.0;
    saltus::flow::SimulationOptions options;
    options.absolute_tolerance = options.relative_tolerance = 1e-10;
    options.variational = false;
    return saltus::flow::simulate(*system, 0, 0.0, x0, 20.0, options);
  };
  const auto compiled = simulate("wait"), interpreted = simulate("0");
  REQUIRE(compiled.ok());
  REQUIRE(interpreted.ok());
  CHECK(shared_objects(dir) == 1);  // the run file's blocks were compiled
  REQUIRE(compiled.events.size() == interpreted.events.size());
  CHECK(compiled.events.size() > 50);  // impacts, contact starts and releases
  for (std::size_t i = 0; i < compiled.events.size(); ++i) {
    CHECK(compiled.events[i].t == interpreted.events[i].t);
    CHECK(compiled.events[i].mode_after == interpreted.events[i].mode_after);
  }
  CHECK(compiled.x_end == interpreted.x_end);
}

namespace {

// A hybrid run file's trajectory from x0 over [0, t1] (with the
// state-transition matrix when `variational`; `carried`: that parameter
// carried in the state, whose block then runs with every input a Jet),
// its blocks compiled as `compile` says (SALTUS_COMPILE).
saltus::flow::Trajectory simulate_hybrid(const nlohmann::ordered_json& json, const char* compile,
                                         const saltus::Vector& x0, double t1, bool variational,
                                         const std::string& carried = "") {
  const ScopedEnvironment enabled("SALTUS_COMPILE", compile);
  saltus::models::CompileReport report;
  std::shared_ptr<const saltus::flow::HybridSystem> system =
      saltus::models::make_expression_hybrid(json, &report);
  INFO(report.note);
  CHECK(report.compiled == (std::string(compile) == "wait"));
  saltus::Vector x = x0;
  if (!carried.empty()) {
    const double value = system->parameter(carried);
    system = system->with_parameters_in_state({carried});
    x.conservativeResize(x0.size() + 1);
    x(x0.size()) = value;
  }
  saltus::flow::SimulationOptions options;
  options.absolute_tolerance = options.relative_tolerance = 1e-10;
  options.variational = variational;
  return saltus::flow::simulate(*system, 0, 0.0, x, t1, options);
}

// The same events at the same times into the same modes, the same end
// state and transition matrix, every bit.
void check_same_trajectory(const saltus::flow::Trajectory& compiled,
                           const saltus::flow::Trajectory& interpreted, std::size_t least_events) {
  REQUIRE(compiled.ok());
  REQUIRE(interpreted.ok());
  REQUIRE(compiled.events.size() == interpreted.events.size());
  CHECK(compiled.events.size() >= least_events);
  for (std::size_t i = 0; i < compiled.events.size(); ++i) {
    CHECK(std::bit_cast<std::uint64_t>(compiled.events[i].t) ==
          std::bit_cast<std::uint64_t>(interpreted.events[i].t));
    CHECK(compiled.events[i].mode_after == interpreted.events[i].mode_after);
  }
  CHECK(compiled.x_end == interpreted.x_end);
  CHECK(compiled.transition_matrix == interpreted.transition_matrix);
}

}  // namespace

// Issue 37 item 3: a hybrid run file's fields and guards are compiled
// blocks too (their parameters plain, as the ODE's and the mechanical run
// files'), one object for the run file, and its trajectories are the
// register loop's bit for bit: the forced impact oscillator of
// examples/user/impact_oscillator.json (22 impacts in [0, 60], its reset
// through the interpreter), on the state, with the transition matrix
// (saltations) and with w carried in the state (the program with every
// input a Jet); and a forced relay with hysteresis written for this test
// (two modes, definitions over the parameters and t, a threshold
// transition), with other values.
TEST_CASE("compiled expression block: a hybrid run file's trajectories are the register loop's",
          "[models][expression][compiled][hybrid]") {
  const std::string dir = fresh_cache("hybrid");
  const ScopedEnvironment cache("SALTUS_CACHE_DIR", dir), compiler("SALTUS_CXX", std::nullopt);
  SECTION("the impact oscillator") {
    std::ifstream in(std::string(SALTUS_SOURCE_DIR) + "/examples/user/impact_oscillator.json");
    const auto json = nlohmann::ordered_json::parse(in);
    const saltus::Vector x0 = saltus::Vector::Zero(2);
    for (const bool variational : {false, true}) {
      INFO("variational " << variational);
      check_same_trajectory(simulate_hybrid(json, "wait", x0, 60.0, variational),
                            simulate_hybrid(json, "0", x0, 60.0, variational), 20);
    }
    check_same_trajectory(simulate_hybrid(json, "wait", x0, 30.0, true, "w"),
                          simulate_hybrid(json, "0", x0, 30.0, true, "w"), 10);
  }
  SECTION("a forced relay with hysteresis") {
    const auto json = nlohmann::ordered_json::parse(R"json({
      "states": ["x", "v"],
      "parameters": {"k": 1.3, "c": 0.15, "a": 0.7, "w": 1.9, "u": 0.5},
      "definitions": {"drive": "a*cos(w*t)", "spring": "k*x + c*sqrt(k)*v"},
      "modes": {
        "up": {"field": {"x": "v", "v": "u - spring + drive"},
               "guards": [{"name": "switch", "h": "x - 0.2*k", "crossing": "rising", "to": "down"}]},
        "down": {"field": ["v", "-u - spring + drive"],
                 "guards": [{"name": "switch", "h": "x + 0.2*k", "crossing": "falling",
                             "transitions": [{"when": "v < -1", "to": "up", "reset": {"v": "0.9*v"}},
                                             {"to": "up"}]}]}}})json");
    saltus::Vector x0(2);
    x0 << 0.1, 0.3;
    check_same_trajectory(simulate_hybrid(json, "wait", x0, 40.0, true),
                          simulate_hybrid(json, "0", x0, 40.0, true), 10);
    check_same_trajectory(simulate_hybrid(json, "wait", x0, 40.0, true, "a"),
                          simulate_hybrid(json, "0", x0, 40.0, true, "a"), 10);
  }
  CHECK(shared_objects(dir) == 1);  // one object: the run file's fields and guards
}

// A new hybrid run file's first load runs interpreted while its blocks
// compile in the background; the next load of the same expressions (other
// parameter values: the same program) loads them.
TEST_CASE("compiled expression block: a new hybrid run file compiles in the background",
          "[models][expression][compiled][hybrid][background]") {
  const std::string dir = fresh_cache("hybrid-background");
  const ScopedEnvironment cache("SALTUS_CACHE_DIR", dir), compiler("SALTUS_CXX", std::nullopt);
  std::ifstream in(std::string(SALTUS_SOURCE_DIR) + "/examples/user/impact_oscillator.json");
  auto json = nlohmann::ordered_json::parse(in);
  saltus::models::CompileReport first, later;
  {
    const ScopedEnvironment background("SALTUS_COMPILE", std::nullopt);
    saltus::models::make_expression_hybrid(json, &first);
    CHECK(wait_for_background_compiles() == 1);
    json["parameters"]["w"] = 2.9;
    saltus::models::make_expression_hybrid(json, &later);
  }
  INFO(first.note);
  CHECK_FALSE(first.compiled);
  CHECK(first.note.find("background") != std::string::npos);
  CHECK(later.compiled);
  CHECK(shared_objects(dir) == 1);
}

namespace {

// The names in the cache directory that start with `prefix`.
int entries(const std::string& dir, const std::string& prefix) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(dir))
    count += entry.path().filename().string().rfind(prefix, 0) == 0;
  return count;
}

}  // namespace

// Issue 37: new blocks do not wait for the compiler. The first call starts the
// compile in a background process and leaves the blocks interpreted; a
// second run of the same blocks meanwhile does not start another (the
// pending claim); once the background process is done the object is in the
// cache, with no work directory or claim left, and the next call loads it,
// whose values are the interpreter's bit for bit.
TEST_CASE("compiled expression block: new blocks run interpreted while they compile in the background",
          "[models][expression][compiled][background]") {
  const std::string dir = fresh_cache("background");
  const ScopedEnvironment cache("SALTUS_CACHE_DIR", dir), compiler("SALTUS_CXX", std::nullopt);
  const Block interpreted(kEveryOpcode);
  ExpressionBlock first = interpreted.block, second = interpreted.block, later = interpreted.block;
  const auto started = compile_blocks({&first}, CompileMode::kBackground);
  INFO(started.note);
  CHECK_FALSE(started.compiled);
  CHECK_FALSE(started.failed);
  CHECK_FALSE(first.is_compiled());
  CHECK(started.note.find("background") != std::string::npos);
  const auto meanwhile = compile_blocks({&second}, CompileMode::kBackground);
  CHECK_FALSE(meanwhile.compiled);
  CHECK(meanwhile.note.find("another run compiles them") != std::string::npos);
  CHECK(wait_for_background_compiles() == 1);  // one compile for the two
  CHECK(shared_objects(dir) == 1);
  CHECK(entries(dir, "pending-") == 0);
  CHECK(entries(dir, "build-") == 0);
  CHECK(entries(dir, "failed-") == 0);
  const auto loaded = compile_blocks({&later}, CompileMode::kBackground);
  CHECK(loaded.compiled);
  REQUIRE(later.is_compiled());
  check_same<double>(later, interpreted.block, 50);
  check_same<Jet>(later, interpreted.block, 50);
  check_same<Taylor2>(later, interpreted.block, 50);
}

// A background compile that fails is not lost: the command and the compiler's
// output are in failed-<key>.log in the cache, and the next run of the same
// blocks reports it (failed, its note naming the log) and does not retry
// until the log is deleted. /bin/false is a compiler that runs and fails.
TEST_CASE("compiled expression block: a failing background compile is reported by the next run",
          "[models][expression][compiled][background]") {
  const std::string dir = fresh_cache("background-failure");
  const ScopedEnvironment cache("SALTUS_CACHE_DIR", dir), compiler("SALTUS_CXX", "/bin/false");
  const Block interpreted(kEveryOpcode);
  ExpressionBlock first = interpreted.block, next = interpreted.block;
  const auto started = compile_blocks({&first}, CompileMode::kBackground);
  CHECK_FALSE(started.compiled);
  CHECK_FALSE(started.failed);  // not known yet
  CHECK(wait_for_background_compiles() == 1);
  CHECK(shared_objects(dir) == 0);
  REQUIRE(entries(dir, "failed-") == 1);
  const auto reported = compile_blocks({&next}, CompileMode::kBackground);
  INFO(reported.note);
  CHECK_FALSE(reported.compiled);
  CHECK(reported.failed);
  const auto at = reported.note.find(dir + "/failed-");
  REQUIRE(at != std::string::npos);
  const std::string log = reported.note.substr(at, reported.note.find(';', at) - at);
  std::ifstream in(log);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("command:") != std::string::npos);
  CHECK(text.find("/bin/false") != std::string::npos);
  CHECK(wait_for_background_compiles() == 0);  // no retry
  check_same<double>(next, interpreted.block, 20);
}
