// The key table of the extremal run file (`saltus extremal classify`,
// `solutions`, `continue`, `track`; studies/contact_study.cpp reads its
// bodies, point and options, studies/contact_branches.cpp
// its "continue" and "track"). A body's own keys
// depend on its type (studies/contact_study.cpp, see examples/extremal/).

#include "studies/option_tables.h"

namespace saltus::studies {

namespace {

void append(KeyTable* table, const KeyTable& rows) { table->insert(table->end(), rows.begin(), rows.end()); }

KeyTable extremal_keys() {
  KeyTable t = {
      {"name", "string", "file name", "letters, digits, _ - .", "the run's name (and its output folder's)"},
      {"description", "string", "", "", "free text"},
      {"note", "string", "", "", "free text kept in the summary"},
      {"curve1", "object", "required", "",
       "the first body's boundary: {type, name, ...} (examples/extremal/)"},
      {"curve2", "object", "required", "", "the second body's boundary, moved by the pose (x, y, phi)"},
      {"point", "object", "required", "", "the degenerate contact point"},
  };
  for (const char* key : {"s1", "s2", "x", "y", "phi"})
    t.push_back({std::string("point.") + key, "number", "required", "",
                 std::string(key[0] == 's' ? "curve parameter " : "pose ") + key});
  append(&t,
         {
             {"options", "object", "", "", "the classification's options"},
             {"options.order", "integer", "10", "[2, 40]", "Taylor order N of the contact function"},
             {"options.truncation_order", "integer", "3", "[1, 12]",
              "total degree kept in each unfolding parameter of the normal form"},
             {"options.exact", "boolean", "true", "", "also exact rationals when the data are exact"},
             {"search", "object", "", "", "the solutions search around the point"},
             number_row("search.box", "number", "0.3", above(0), "half-width in s1 and s2"),
             number_row("search.grid", "integer", "64", between(1, 1024), "Newton starts per side"),
             {"continue", "object", "", "", "`extremal continue`: folds, cusps, swallowtails in the pose"},
             {"continue.start", "{name: number}", "point's", "s1, s2, x, y, phi", "the branch's start"},
             {"continue.parameter", "string", "\"x\"", "one of: x, y, phi", "the continued pose parameter"},
             {"continue.fold_curve", "[string, string]", "", "two of: x, y, phi",
              "the fold curve from the first fold, in these two"},
             {"continue.cusp_curve", "boolean", "false", "", "with fold_curve: the cusp curve from its cusp"},
             {"continue.bounds", "{name: [min, max]}", "point +- 0.5", "s1, s2, x, y, phi",
              "the branch ends where a component leaves"},
             {"continue.*", "", "", "", "any continuation option (listed below)",
              option_keys(continuation_option_table())},
             {"track", "object", "", "", "`extremal track`: every extremal point along a motion"},
             {"track.x", "expression", "point's", "", "x(t)"},
             {"track.y", "expression", "point's", "", "y(t)"},
             {"track.phi", "expression", "point's", "", "phi(t)"},
             {"track.t", "[number, number]", "required", "t0 < t1", "the time interval"},
             number_row("track.box", "number", "search's", above(0), "half-width of the search box"),
             number_row("track.grid", "integer", "search's", between(1, 1024), "Newton starts per side"),
             number_row("track.max_events", "integer", "20", at_least(1), "the track stops after these"),
             {"track.*", "", "", "", "any continuation option but bounds (listed below)",
              option_keys(continuation_option_table())},
         });
  return t;
}

}  // namespace

const RunFileKind& extremal_run_file() {
  static const RunFileKind kind = {
      "Run file: extremal classify, solutions, continue, track",
      "Two smooth planar bodies and a degenerate contact point between them (Damerau & Low). Output folder "
      "(continue, track): branch.csv, summary.json, figures.",
      extremal_keys(), "Continuation options (continue.*, track.*)",
      option_rows(continuation_option_table(), "")};
  return kind;
}

std::vector<const RunFileKind*> run_file_kinds() {
  return {&continue_run_file(), &hybrid_run_file(), &extremal_run_file(), &filippov_run_file()};
}

std::string run_file_reference_markdown() {
  std::string page;
  for (const RunFileKind* kind : run_file_kinds())
    page += (page.empty() ? "" : "\n") + run_file_markdown(*kind);
  return page;
}

}  // namespace saltus::studies
