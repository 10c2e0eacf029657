#include "tests/fuzz/mutator.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace saltus::fuzz {

namespace {

using Pointer = Json::json_pointer;

template <class T>
const T& pick(const std::vector<T>& list, std::mt19937_64& rng) {
  return list[std::uniform_int_distribution<std::size_t>(0, list.size() - 1)(rng)];
}

bool chance(double p, std::mt19937_64& rng) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

void collect(const Json& node, const Pointer& at, std::vector<Pointer>& all, std::vector<Pointer>& numbers) {
  if (!at.empty()) all.push_back(at);
  if (node.is_number()) numbers.push_back(at);
  if (node.is_object())
    for (const auto& [key, value] : node.items()) collect(value, at / key, all, numbers);
  if (node.is_array())
    for (std::size_t i = 0; i < node.size(); ++i) collect(node[i], at / i, all, numbers);
}

Json extreme_number(std::mt19937_64& rng) {
  switch (std::uniform_int_distribution<int>(0, 2)(rng)) {
    case 0:
      return pick<double>({0.0, -0.0, -1.0, 1e308, -1e308, 1e-300, -1e-300, 1e-17, 1e9, 1e10, 1e18, -1e18,
                           0.5, 1e6, std::numeric_limits<double>::denorm_min()},
                          rng);
    case 1:
      return pick<std::int64_t>(
          {2147483647, 2147483648, -2147483649, 4294967296, 9007199254740993,
           std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min(), 1000000000,
           -1000000000, 100000, 3},
          rng);
    default:
      return std::numeric_limits<std::uint64_t>::max();
  }
}

Json scaled(const Json& number, std::mt19937_64& rng) {
  const double v = number.get<double>();
  const int power = std::uniform_int_distribution<int>(-20, 20)(rng);
  return chance(0.3, rng) ? Json(-v) : Json(v * std::pow(10.0, power));
}

Json odd_string(std::mt19937_64& rng) {
  return pick<std::string>({"NaN",
                            "Infinity",
                            "-inf",
                            "nan",
                            "",
                            " ",
                            "\xc3\xa9",
                            "mu + \xc3\xa9",
                            std::string(100000, 'x'),
                            "\xe2\x80\xae",
                            "((((((",
                            "x^1e308",
                            "1e999",
                            "\xf0\x9f\x99\x82",
                            "x/0",
                            "sqrt(-1)",
                            "exp(1e6)",
                            "../../../outside",
                            "a\tb\nc",
                            "psi1",
                            "q1",
                            "mu",
                            "triple_pendulum",
                            "wheel_turntable",
                            "polynomial",
                            "bogus"},
                           rng);
}

Json swapped_type(const Json& old, std::mt19937_64& rng) {
  switch (std::uniform_int_distribution<int>(0, 8)(rng)) {
    case 0:
      return nullptr;
    case 1:
      return true;
    case 2:
      return "text";
    case 3:
      return Json::array();
    case 4:
      return Json::object();
    case 5:
      return Json::array({old});
    case 6:
      return Json{{"k", old}};
    case 7:
      return 0;
    default:
      return Json::array({old, old, old});
  }
}

// Deep nesting cannot be built as a Json (dumping it would recurse as deep as
// the reader under test must not): a marker string, expanded in the text.
const std::string kDeepMarker = "@@saltus-fuzz-deep@@";

std::string expand_deep(std::string text, std::mt19937_64& rng) {
  const std::string quoted = "\"" + kDeepMarker + "\"";
  for (std::size_t at; (at = text.find(quoted)) != std::string::npos;) {
    const std::size_t depth = pick<std::size_t>({10, 63, 64, 65, 1000, 100000}, rng);
    const bool objects = chance(0.5, rng);
    std::string deep;
    deep.reserve(depth * 6 + 2);
    for (std::size_t i = 0; i < depth; ++i) deep += objects ? "{\"a\":" : "[";
    deep += "1";
    for (std::size_t i = 0; i < depth; ++i) deep += objects ? "}" : "]";
    text.replace(at, quoted.size(), deep);
  }
  return text;
}

void erase(Json& root, const Pointer& at) {
  Json& parent = root[at.parent_pointer()];
  if (parent.is_object())
    parent.erase(at.back());
  else
    parent.erase(static_cast<std::size_t>(std::stoul(at.back())));
}

std::string mutate_text(std::string text, std::mt19937_64& rng, std::string& description) {
  auto position = [&] { return std::uniform_int_distribution<std::size_t>(0, text.size())(rng); };
  switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
    case 0: {
      const std::size_t at = position();
      description += "; text cut at byte " + std::to_string(at);
      return text.substr(0, at);
    }
    case 1: {
      const std::size_t open = text.find('{', 1);
      if (open == std::string::npos) return text;
      description += "; a key given twice";
      return text.insert(open + 1, "\"name\": \"twice\", \"name\": \"again\", ");
    }
    case 2: {
      const std::size_t colon = text.find(": ", position());
      if (colon == std::string::npos) return text;
      const std::string value =
          pick<std::string>({"1e999", "NaN", "-Infinity", "0x10", "01", "1.", "+1"}, rng);
      description += "; the value after byte " + std::to_string(colon) + " became " + value;
      const std::size_t end = text.find_first_of(",}]\n", colon + 2);
      return text.replace(colon + 2, end - colon - 2, value);
    }
    case 3: {
      const std::size_t at = position();
      description += "; a stray byte at " + std::to_string(at);
      return text.insert(at, 1, pick<char>({'\x80', '\xff', '\0', '"', '{', ']', ','}, rng));
    }
    default:
      description += "; the whole text repeated";
      return text + text;
  }
}

}  // namespace

Mutant mutate(const Json& seed_file, std::mt19937_64& rng, int indent) {
  Json root = seed_file;
  std::string description;
  const int count = pick<int>({1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 4}, rng);
  for (int m = 0; m < count; ++m) {
    std::vector<Pointer> all, numbers;
    collect(root, Pointer(), all, numbers);
    if (all.empty()) break;
    const bool on_number = !numbers.empty() && chance(0.45, rng);
    const Pointer at = on_number ? pick(numbers, rng) : pick(all, rng);
    Json& node = root[at];
    const std::string where = at.to_string();
    if (on_number) {
      node = chance(0.6, rng) ? extreme_number(rng) : scaled(node, rng);
      description += (description.empty() ? "" : "; ") + where + " = " + node.dump();
      continue;
    }
    std::string what;
    switch (std::uniform_int_distribution<int>(0, 6)(rng)) {
      case 0:
        erase(root, at);
        what = " deleted";
        break;
      case 1:
        node = swapped_type(node, rng);
        what = " = " + node.dump().substr(0, 60);
        break;
      case 2:
        node = odd_string(rng);
        what = " = a string of " + std::to_string(node.get_ref<const std::string&>().size()) + " bytes";
        break;
      case 3:
        node = kDeepMarker;
        what = " nested deeply";
        break;
      case 4: {
        const Pointer from = pick(all, rng);
        if (from.to_string().rfind(where, 0) == 0) break;  // not into itself
        node = Json(root[from]);
        what = " = the value of " + from.to_string();
        break;
      }
      case 5:
        if (node.is_array() && !node.empty()) {
          const std::size_t copies = pick<std::size_t>({2, 10, 1000}, rng);
          const Json first = node[0];
          for (std::size_t i = 0; i < copies; ++i) node.push_back(first);
          what = " grown by " + std::to_string(copies) + " elements";
        } else if (node.is_object()) {
          node[pick<std::string>({"bogus", "threads", "steps", "resolution", "samples", "duration"}, rng)] =
              extreme_number(rng);
          what = " given an extra key";
        }
        break;
      default:
        node = chance(0.5, rng) ? extreme_number(rng) : odd_string(rng);
        what = " = an extreme";
        break;
    }
    description += (description.empty() ? "" : "; ") + where + what;
  }
  std::string text = expand_deep(root.dump(indent, ' ', false, Json::error_handler_t::replace), rng);
  if (chance(0.1, rng)) text = mutate_text(std::move(text), rng, description);
  return {std::move(text), std::move(description)};
}

namespace {

// An edit of the journal's lines as a whole.
std::string mutate_lines(std::vector<std::string> lines, std::mt19937_64& rng, std::string& description) {
  const auto line = [&] { return std::uniform_int_distribution<std::size_t>(0, lines.size() - 1)(rng); };
  const std::size_t i = line(), j = line();
  const std::string at = "line " + std::to_string(i + 1);
  bool newline_at_end = true;
  switch (std::uniform_int_distribution<int>(0, 6)(rng)) {
    case 0:
      description = at + " deleted";
      lines.erase(lines.begin() + static_cast<long>(i));
      break;
    case 1:
      description = at + " given twice";
      lines.insert(lines.begin() + static_cast<long>(i), lines[i]);
      break;
    case 2:
      description = "lines " + std::to_string(i + 1) + " and " + std::to_string(j + 1) + " swapped";
      std::swap(lines[i], lines[j]);
      break;
    case 3:
      description = at + " emptied";
      lines[i].clear();
      break;
    case 4:
      description = "the header again after " + at;
      lines.insert(lines.begin() + static_cast<long>(i) + 1, lines[0]);
      break;
    case 5: {
      const std::size_t cut = std::uniform_int_distribution<std::size_t>(0, lines[i].size())(rng);
      description = at + " cut at byte " + std::to_string(cut) + ", the lines after it gone";
      lines[i].resize(cut);
      lines.resize(i + 1);
      newline_at_end = chance(0.5, rng);
      break;
    }
    default:
      description = "a stray byte in " + at;
      lines[i].insert(std::uniform_int_distribution<std::size_t>(0, lines[i].size())(rng), 1,
                      pick<char>({'\x80', '\xff', '\0', '"', '{', ']', ',', '\r'}, rng));
      break;
  }
  std::string text;
  for (std::size_t k = 0; k < lines.size(); ++k)
    text += lines[k] + (k + 1 < lines.size() || newline_at_end ? "\n" : "");
  return text;
}

}  // namespace

Mutant mutate_journal(const std::string& journal, std::mt19937_64& rng) {
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; at < journal.size(); at = end + 1) {
    end = journal.find('\n', at);
    if (end == std::string::npos) end = journal.size();
    lines.push_back(journal.substr(at, end - at));
  }
  if (lines.empty()) return {journal, "unchanged (empty)"};
  Mutant m;
  if (chance(0.25, rng)) {
    m.text = mutate_lines(std::move(lines), rng, m.description);
    return m;
  }
  // One line's JSON: the header now and then, else an entry (its record, mostly).
  const std::size_t i = lines.size() == 1 || chance(0.15, rng)
                            ? 0
                            : std::uniform_int_distribution<std::size_t>(1, lines.size() - 1)(rng);
  const Mutant one = mutate(Json::parse(lines[i]), rng, -1);
  lines[i] = one.text;
  m.description = "line " + std::to_string(i + 1) + ": " + one.description;
  for (const auto& l : lines) m.text += l + "\n";
  return m;
}

}  // namespace saltus::fuzz
