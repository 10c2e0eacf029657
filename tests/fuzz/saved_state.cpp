#include "tests/fuzz/saved_state.h"

#include <cmath>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace saltus::fuzz {

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A small version of an example, the command that writes the state, and what it writes.
struct Recipe {
  std::string example;  // under examples/
  std::string command;  // sweep, map, continue
  std::function<void(Json&)> shrink;
  int interrupt_after = 0;           // journals: stopped after this many points
  std::string label;                 // summaries: the point restarted from
  std::vector<std::string> results;  // the files compared with the reference ("*.csv": every CSV)
};

void short_times(Json& spec, double transient, double record) {
  spec["transient"] = transient;
  spec["record"] = record;
  spec["threads"] = 1;  // one worker: the points of an interrupted run, and so the journal, reproduce
}

std::vector<Recipe> recipes() {
  const std::vector<std::string> sweep{"sweep.csv", "sweep.json"}, map{"map.csv", "summary.json"},
      branches{"*.csv"};
  return {
      {"triple_pendulum_light.json", "sweep",
       [](Json& j) {
         j["sweep"]["steps"] = 8;
         short_times(j["sweep"], 5, 15);
       },
       5, "", sweep},
      // An own system of expressions (one mode, an impact) swept in its forcing frequency.
      {"user/impact_oscillator_map.json", "sweep",
       [](Json& j) {
         j.erase("map");
         j["sweep"] = {{"parameter", "w"}, {"from", 2.0}, {"to", 3.0}, {"steps", 8}, {"plot", "x"}};
         short_times(j["sweep"], 20, 20);
       },
       5, "", sweep},
      {"user/impact_oscillator_map.json", "map",
       [](Json& j) {
         j["map"]["x"]["steps"] = 4;
         j["map"]["y"]["steps"] = 3;
         short_times(j["map"], 20, 20);
       },
       7, "", map},
      // Unseeded points with the largest Lyapunov exponent.
      {"user/impact_oscillator_map.json", "map",
       [](Json& j) {
         j["map"]["x"]["steps"] = 3;
         j["map"]["y"]["steps"] = 3;
         j["map"]["seed"] = "none";
         j["map"]["lyapunov"] = true;
         j["lyapunov"] = {{"transient", 0}, {"duration", 20}};
         short_times(j["map"], 20, 20);
       },
       5, "", map},
      {"triple_pendulum_light_map.json", "map",
       [](Json& j) {
         j["map"]["x"]["steps"] = 3;
         j["map"]["y"]["steps"] = 2;
         short_times(j["map"], 5, 15);
       },
       4, "", map},
      {"cusp_fold_curve.json", "continue", nullptr, 0, "LP1", branches},
      {"pitchfork.json", "continue", nullptr, 0, "BP1", branches},
  };
}

std::string joined(const std::vector<std::string>& argv) {
  std::string s;
  for (std::size_t i = 1; i < argv.size(); ++i) s += (i > 1 ? " " : "") + argv[i];
  return s;
}

RunResult must_run(const std::vector<std::string>& argv, const fs::path& dir, int expected) {
  const RunResult r = run_process(argv, dir, 120, std::size_t(4) << 30);
  if (r.timed_out || r.signal != 0 || r.exit_code != expected)
    throw std::runtime_error("making a seed: `saltus " + joined(argv) + "` ended with " +
                             std::to_string(r.exit_code) + " (signal " + std::to_string(r.signal) +
                             "), not " + std::to_string(expected) + ": " + r.err.substr(0, 400));
  return r;
}

std::map<std::string, std::string> results_in(const fs::path& out, const std::vector<std::string>& names) {
  std::map<std::string, std::string> files;
  for (const auto& name : names)
    if (name == "*.csv") {
      for (const auto& e : fs::directory_iterator(out))
        if (e.path().extension() == ".csv") files[e.path().filename().string()] = slurp(e.path());
    } else {
      files[name] = fs::exists(out / name) ? slurp(out / name) : "(missing)";
    }
  return files;
}

// The state (journal or summary) a seed's mutants are run from.
std::vector<std::string> command_line(const fs::path& saltus, const StateSeed& s, const fs::path& state,
                                      const fs::path& out) {
  std::vector<std::string> argv{saltus.string()};
  argv.insert(argv.end(), s.command.begin(), s.command.end());
  argv.push_back(s.run_file.string());
  if (s.journal)
    argv.push_back("--resume");  // state is out's journal
  else
    argv.insert(argv.end(), {"--from", state.parent_path().string(), "--point", s.label});
  argv.insert(argv.end(), {"--out", out.string()});
  return argv;
}

}  // namespace

std::vector<StateSeed> make_state_seeds(const fs::path& saltus, const fs::path& examples,
                                        const fs::path& dir) {
  std::vector<StateSeed> seeds;
  int n = 0;
  for (const Recipe& r : recipes()) {
    const fs::path at = fs::absolute(dir / std::to_string(n++));
    fs::remove_all(at);
    fs::create_directories(at);
    StateSeed s;
    s.name = r.command + (r.command == "continue" ? " summary of " : " journal of ") + r.example;
    s.command = {r.command};
    s.journal = r.command != "continue";
    s.label = r.label;
    s.run_file = fs::absolute(examples / r.example);
    if (r.shrink) {
      std::ifstream in(examples / r.example);
      Json j = Json::parse(in);
      r.shrink(j);
      s.run_file = at / fs::path(r.example).filename();
      std::ofstream(s.run_file) << j.dump(2) << '\n';
    }
    std::vector<std::string> argv{saltus.string(), r.command, s.run_file.string(), "--out",
                                  (at / "state").string()};
    if (s.journal) argv.insert(argv.end(), {"--interrupt-after", std::to_string(r.interrupt_after)});
    must_run(argv, at, s.journal ? 130 : 0);
    s.state = at / "state" / (s.journal ? r.command + ".journal.jsonl" : "summary.json");
    if (!fs::exists(s.state)) throw std::runtime_error("making a seed: no " + s.state.string());
    // The reference: the unmutated state read back.
    const fs::path ref = at / "reference";
    fs::create_directories(ref);
    if (s.journal) fs::copy_file(s.state, ref / s.state.filename());
    must_run(command_line(saltus, s, s.state, ref), at, 0);
    s.reference = results_in(ref, r.results);
    seeds.push_back(std::move(s));
  }
  return seeds;
}

namespace {

// Deeper than a reader may go (studies/json_input.h kMaxJsonNesting).
bool too_deep(const std::string& text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > 64) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

// What a restart from `label` of the summary reads (studies/restart.cpp):
// the first branch's continuation parameters and the point's state,
// parameters, tangent, status, name, precision and test value; nothing when
// the summary is one the restart must refuse (not JSON, no such point, a
// value of the wrong type, a tangent far from unit length). Leans to
// accepting: a summary it reads is not necessarily one saltus must take.
std::optional<Json> restart_reads(const std::string& text, const std::string& label) {
  if (too_deep(text)) return std::nullopt;
  const Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("special_points") ||
      !j["special_points"].is_array() || !j.contains("branches") || !j["branches"].is_array() ||
      j["branches"].empty() || !j["branches"][0].is_object() ||
      !j["branches"][0].contains("continuation_parameters"))
    return std::nullopt;
  std::size_t digit = label.find_first_of("0123456789");
  const std::string type = label.substr(0, digit);
  const int wanted = std::stoi(label.substr(digit));
  int seen = 0;
  for (const Json& s : j["special_points"]) {
    if (!s.is_object() || !s.contains("type") || !s["type"].is_string() || !s.contains("status") ||
        !s["status"].is_string() || (s.contains("branch") && !s["branch"].is_string()))
      return std::nullopt;
    if ((s.contains("branch") && s["branch"] != "branch") || s["status"] == "jump" || s["type"] != type)
      continue;
    if (++seen < wanted) continue;
    Json used = {{"continuation_parameters", j["branches"][0]["continuation_parameters"]}};
    for (const char* key : {"state", "parameters", "tangent"}) {
      if (!s.contains(key) || !s[key].is_object()) return std::nullopt;
      double norm = 0;
      for (const auto& [name, v] : s[key].items()) {
        if (!v.is_number()) return std::nullopt;
        norm += v.get<double>() * v.get<double>();
      }
      if (std::string(key) == "tangent" && !(std::abs(std::sqrt(norm) - 1) < 1e-3)) return std::nullopt;
      used[key] = s[key];
    }
    if (s["status"] != "located" && s["status"] != "bracketed") return std::nullopt;
    used["status"] = s["status"];
    if (s.contains("name") && !s["name"].is_string()) return std::nullopt;
    used["name"] = s.value("name", Json(type));
    for (const char* key : {"precision", "test_value"}) {
      if (s.contains(key) && !s[key].is_null() && !s[key].is_number()) return std::nullopt;
      used[key] = s.contains(key) ? s[key] : Json();
    }
    return used;
  }
  return std::nullopt;
}

}  // namespace

StateRun fuzz_state(const std::vector<StateSeed>& seeds, const fs::path& saltus, const fs::path& dir,
                    std::mt19937_64& rng, double timeout, std::size_t memory_bytes) {
  const StateSeed& seed = seeds[std::uniform_int_distribution<std::size_t>(0, seeds.size() - 1)(rng)];
  const std::string valid = slurp(seed.state);
  const Mutant m = seed.journal ? mutate_journal(valid, rng) : mutate(Json::parse(valid), rng);
  const fs::path out = dir / "out";
  StateRun run;
  run.description = seed.name + ": " + m.description;
  run.text = m.text;
  run.mutant = seed.journal ? out / seed.state.filename() : dir / "from" / "summary.json";
  fs::create_directories(run.mutant.parent_path());
  std::ofstream(run.mutant, std::ios::binary) << m.text;
  const auto argv = command_line(saltus, seed, run.mutant, out);
  run.command = joined(argv);
  run.result = run_process(argv, dir, timeout, memory_bytes);
  run.outcome = classify(run.result, run.mutant.string());
  if (run.outcome == Outcome::ok) {
    std::vector<std::string> names;
    for (const auto& [name, text] : seed.reference) names.push_back(name);
    const bool same = results_in(out, names) == seed.reference;
    if (seed.journal) {
      // Only records saltus wrote are resumed: the files are the reference's.
      if (!same) run.outcome = Outcome::wrong;
    } else {
      // Compared as text: -0.0 == 0.0, but a restart from -0 writes "-0".
      const auto mutant = restart_reads(m.text, seed.label);
      if (!mutant || (mutant->dump() == restart_reads(valid, seed.label)->dump() && !same))
        run.outcome = Outcome::wrong;
    }
  }
  if (!run.result.timed_out && !is_failure(run.outcome) && !temporary_files(dir).empty())
    run.outcome = Outcome::litter;
  return run;
}

}  // namespace saltus::fuzz
