// saltus_fuzz: mutates the example run files and runs the matching `saltus`
// subcommand on each mutant, with a time and a memory limit, then counts the
// outcomes (tests/fuzz/outcome.h). Failing mutants are kept with their
// command and what they printed, so each is a reproducer; `--only I` reruns
// mutant I of the same seed. OUT/runs.txt lists every run with the first line
// it printed on stderr (to read the messages). Exit status 1 when any run
// failed. With `--files state` the mutants are the files saltus reads back
// instead: sweep and map journals (--resume) and saved summaries (continue
// --from), made first from small examples (tests/fuzz/saved_state.h).
//
//   saltus_fuzz --saltus build/saltus --examples examples --out results/fuzz
//               [--files run|state] [--runs N] [--seed S] [--timeout SECONDS]
//               [--jobs J] [--only I] [--memory-gb G (4; 0: no cap, for a sanitizer build)]

#include <algorithm>
#include <array>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>

#include "tests/fuzz/mutator.h"
#include "tests/fuzz/outcome.h"
#include "tests/fuzz/saved_state.h"

namespace fs = std::filesystem;
using saltus::fuzz::Json;
using saltus::fuzz::Outcome;

namespace {

struct Seed {
  fs::path file;
  Json json;
  std::vector<std::vector<std::string>> commands;  // subcommand and its options, before RUNFILE
};

bool takes_out(const std::vector<std::string>& command) {
  for (const std::string no : {"classify", "twofold", "solutions"})
    if (std::find(command.begin(), command.end(), no) != command.end()) return false;
  return true;
}

// The subcommands an example is made for, read from its keys.
std::vector<std::vector<std::string>> commands_for(const fs::path& file, const Json& j) {
  if (file.parent_path().filename() == "extremal") {
    std::vector<std::vector<std::string>> c{{"extremal", "classify"}};
    const Json& p = j.value("point", Json::object());
    c.push_back({"extremal", "solutions", "--pose", p.value("x", Json(0)).dump(),
                 p.value("y", Json(0)).dump(), p.value("phi", Json(0)).dump()});
    if (j.contains("continue")) c.push_back({"extremal", "continue"});
    if (j.contains("track")) c.push_back({"extremal", "track"});
    return c;
  }
  if (j.value("model", "") == "wheel_turntable" && j.contains("guess"))
    return {{"filippov", "twofold"}, {"filippov", "map"}, {"filippov", "futures"}, {"filippov", "continue"}};
  if (j.contains("filippov") && j.contains("guess")) {  // an own Filippov system's two-fold
    std::vector<std::vector<std::string>> c{
        {"filippov", "twofold"}, {"filippov", "futures"}, {"filippov", "continue"}};
    if (j.contains("initial")) c.push_back({"simulate"});
    return c;
  }
  if (j.contains("equations") || j.contains("continuation")) return {{"continue"}};
  std::vector<std::vector<std::string>> c{{"simulate"}, {"lyapunov"}};
  if (j.contains("periodic")) c.push_back({"periodic"});
  if (j.contains("sweep")) c.push_back({"sweep"});
  if (j.contains("map")) c.push_back({"map"});
  return c;
}

std::vector<Seed> read_seeds(const fs::path& examples) {
  std::vector<Seed> seeds;
  for (const fs::path dir : {examples, examples / "user", examples / "extremal"}) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());  // the same order on every machine: seeds reproduce
    for (const auto& f : files) {
      std::ifstream in(f);
      Seed s{f, Json::parse(in), {}};
      s.commands = commands_for(f, s.json);
      seeds.push_back(std::move(s));
    }
  }
  return seeds;
}

struct Options {
  fs::path saltus, examples, out;
  long runs = 200, only = -1;
  unsigned long seed = 1;
  double timeout = 5;
  int jobs = 1;
  double memory_gb = 4;  // address-space cap per run; 0: none (a sanitizer build reserves terabytes)
  bool state = false;    // --files state: the files read back, not the run files
};

struct Record {
  Outcome outcome;
  std::string line;  // for the list of failures
};

// Keeps a failing run's mutant, command and output in OUT/failures.
void keep_failure(const Options& o, Outcome outcome, long index, const fs::path& mutant,
                  const std::string& text, const std::string& line, const saltus::fuzz::RunResult& result) {
  const fs::path failures = o.out / "failures";
  fs::create_directories(failures);
  const std::string stem = std::string(to_string(outcome)) + "-" + std::to_string(index);
  std::ofstream(failures / (stem + mutant.extension().string()), std::ios::binary) << text;
  std::ofstream(failures / (stem + ".txt"))
      << line << "\nexit " << result.exit_code << ", signal " << result.signal << ", timed out "
      << result.timed_out << ", silent for " << result.silent_for << " s\n--- stderr (first 4000 bytes)\n"
      << result.err.substr(0, 4000) << "\n--- stdout (first 2000 bytes)\n"
      << result.out.substr(0, 2000) << '\n';
}

Record fuzz_one(const Options& o, const std::vector<Seed>& seeds, long index) {
  std::seed_seq seq{static_cast<unsigned long>(o.seed), static_cast<unsigned long>(index)};
  std::mt19937_64 rng(seq);
  const Seed& seed = seeds[std::uniform_int_distribution<std::size_t>(0, seeds.size() - 1)(rng)];
  // Now and then a subcommand made for another kind of file.
  const Seed& family = std::uniform_real_distribution<>(0, 1)(rng) < 0.05
                           ? seeds[std::uniform_int_distribution<std::size_t>(0, seeds.size() - 1)(rng)]
                           : seed;
  const auto& command =
      family.commands[std::uniform_int_distribution<std::size_t>(0, family.commands.size() - 1)(rng)];
  const auto mutant = saltus::fuzz::mutate(seed.json, rng);

  const fs::path dir = o.out / "work" / std::to_string(index);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path run_file = dir / seed.file.filename();
  std::ofstream(run_file, std::ios::binary) << mutant.text;
  std::vector<std::string> argv{o.saltus.string()};
  argv.insert(argv.end(), command.begin(), command.end());
  argv.push_back(run_file.string());
  if (takes_out(command)) argv.insert(argv.end(), {"--out", (dir / "out").string()});
  const auto result =
      saltus::fuzz::run_process(argv, dir, o.timeout, static_cast<std::size_t>(o.memory_gb * (1 << 30)));
  Outcome outcome = saltus::fuzz::classify(result, run_file.string());
  if (!result.timed_out && !saltus::fuzz::is_failure(outcome) && !saltus::fuzz::temporary_files(dir).empty())
    outcome = Outcome::litter;

  std::string shown;
  for (std::size_t i = 1; i < argv.size(); ++i) shown += (i > 1 ? " " : "") + argv[i];
  std::string line = "#" + std::to_string(index) + " " + to_string(outcome) + ": saltus " + shown + "  [" +
                     seed.file.filename().string() + ": " + mutant.description.substr(0, 300) + "]";
  const std::string said = result.err.substr(0, result.err.find('\n'));
  line += "\n    " + said.substr(0, 300);
  if (saltus::fuzz::is_failure(outcome)) keep_failure(o, outcome, index, run_file, mutant.text, line, result);
  if (o.only < 0) fs::remove_all(dir);
  return {outcome, line};
}

// Mutant `index` of a saved state (a journal or a summary).
Record fuzz_one_state(const Options& o, const std::vector<saltus::fuzz::StateSeed>& seeds, long index) {
  std::seed_seq seq{static_cast<unsigned long>(o.seed), static_cast<unsigned long>(index)};
  std::mt19937_64 rng(seq);
  const fs::path dir = o.out / "work" / std::to_string(index);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto run = saltus::fuzz::fuzz_state(seeds, o.saltus, dir, rng, o.timeout,
                                            static_cast<std::size_t>(o.memory_gb * (1 << 30)));
  std::string line = "#" + std::to_string(index) + " " + to_string(run.outcome) + ": saltus " + run.command +
                     "  [" + run.description.substr(0, 300) + "]";
  line += "\n    " + run.result.err.substr(0, run.result.err.find('\n')).substr(0, 300);
  if (saltus::fuzz::is_failure(run.outcome))
    keep_failure(o, run.outcome, index, run.mutant, run.text, line, run.result);
  if (o.only < 0) fs::remove_all(dir);
  return {run.outcome, line};
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--saltus")
      o.saltus = fs::absolute(value);
    else if (key == "--examples")
      o.examples = value;
    else if (key == "--out")
      o.out = fs::absolute(value);
    else if (key == "--runs")
      o.runs = std::stol(value);
    else if (key == "--seed")
      o.seed = std::stoul(value);
    else if (key == "--timeout")
      o.timeout = std::stod(value);
    else if (key == "--jobs")
      o.jobs = std::max(1, std::stoi(value));
    else if (key == "--only")
      o.only = std::stol(value);
    else if (key == "--memory-gb")
      o.memory_gb = std::stod(value);
    else if (key == "--files" && (value == "run" || value == "state"))
      o.state = value == "state";
    else
      throw std::invalid_argument("unknown option " + key);
  }
  if (o.saltus.empty() || o.examples.empty() || o.out.empty())
    throw std::invalid_argument(
        "usage: saltus_fuzz --saltus BIN --examples DIR --out DIR [--files run|state] [--runs N] [--seed S] "
        "[--timeout SECONDS] [--jobs J] [--only I] [--memory-gb G]");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    const auto seeds = o.state ? std::vector<Seed>{} : read_seeds(o.examples);
    std::vector<saltus::fuzz::StateSeed> states;
    if (o.state) {
      std::cerr << "saltus_fuzz: making the journals and summaries to mutate\n";
      states = saltus::fuzz::make_state_seeds(o.saltus, o.examples, o.out / "seeds");
    }
    const auto one = [&](long i) { return o.state ? fuzz_one_state(o, states, i) : fuzz_one(o, seeds, i); };
    if (o.only >= 0) {
      const Record r = one(o.only);
      std::cout << r.line << "\n(kept in " << (o.out / "work" / std::to_string(o.only)).string() << ")\n";
      return saltus::fuzz::is_failure(r.outcome) ? 1 : 0;
    }
    fs::remove_all(o.out / "failures");
    std::array<long, saltus::fuzz::kOutcomes> counts{};
    std::vector<std::string> failures;
    std::mutex mutex;
    fs::create_directories(o.out);
    std::ofstream log(o.out / "runs.txt");  // every run and the first line it printed on stderr
    std::atomic<long> next{0};
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (int j = 0; j < o.jobs; ++j)
      workers.emplace_back([&] {
        for (long i; (i = next++) < o.runs;) {
          const Record r = one(i);
          const std::lock_guard lock(mutex);
          ++counts[static_cast<int>(r.outcome)];
          log << r.line << '\n';
          if (saltus::fuzz::is_failure(r.outcome)) failures.push_back(r.line);
          if ((i + 1) % 250 == 0)
            std::cerr << "saltus_fuzz: " << i + 1 << " of " << o.runs << " runs, " << failures.size()
                      << " failures, "
                      << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                      << " s\n";
        }
      });
    for (auto& w : workers) w.join();
    std::sort(failures.begin(), failures.end());
    std::cout << "saltus_fuzz: " << o.runs
              << (o.state ? " mutated journals and summaries" : " mutated run files") << ", seed " << o.seed
              << ", timeout " << o.timeout << " s\n";
    for (int k = 0; k < saltus::fuzz::kOutcomes; ++k)
      std::cout << "  " << to_string(static_cast<Outcome>(k)) << ": " << counts[k] << '\n';
    for (const auto& f : failures) std::cout << f << '\n';
    if (!failures.empty()) std::cout << "reproducers in " << (o.out / "failures").string() << '\n';
    fs::remove_all(o.out / "work");
    return failures.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "saltus_fuzz: " << e.what() << '\n';
    return 2;
  }
}
