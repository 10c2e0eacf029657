#include "studies/contact_branches.h"

#include "models/expression.h"
#include "studies/option_tables.h"

namespace saltus::studies {

namespace fs = std::filesystem;

namespace {

const KeyTable& keys() { return extremal_run_file().keys; }

const char* const kNames[5] = {"s1", "s2", "x", "y", "phi"};

std::string pose_name(const Json& value, const fs::path& path, const std::string& key) {
  const std::string name = string(value, path, key);
  if (name != "x" && name != "y" && name != "phi")
    fail(path, "'" + key + "' = '" + name + "' is not a pose parameter; use one of x, y, phi");
  return name;
}

models::Expression parse_of_t(const Json& track, const char* key, double fallback, const fs::path& path) {
  const std::string where = std::string("track.") + key;
  std::string text = models::format_number(fallback);
  if (track.contains(key)) {
    if (track[key].is_number())
      text = models::format_number(number(track[key], path, where));
    else
      text = string(track[key], path, where);
  }
  try {
    return models::Expression::parse(text, {"t"});
  } catch (const std::exception& e) {
    fail(path, "'" + where + "' = \"" + text + "\": " + e.what());
  }
}

}  // namespace

ContactContinueSpec contact_continue_spec(const ExtremalRun& run) {
  const fs::path& path = run.path;
  ContactContinueSpec spec;
  spec.start = run.point;
  if (run.continue_json.is_null()) fail(path, "'continue' is missing (needed by `extremal continue`)");
  const Json& c = run.continue_json;
  if (!c.is_object())
    fail(path, "'continue' must be an object {\"start\", \"parameter\", \"fold_curve\", ...}");
  only_keys(c, keys_under(keys(), "continue."), path, "continue.");
  if (c.contains("start")) {
    const Json& s = c["start"];
    if (!s.is_object())
      fail(path, "'continue.start' must be an object {\"s1\", \"s2\", \"x\", \"y\", \"phi\"}");
    only_keys(s, {"s1", "s2", "x", "y", "phi"}, path, "continue.start.");
    for (int i = 0; i < 5; ++i)
      if (s.contains(kNames[i]))
        spec.start[i] = number(s[kNames[i]], path, std::string("continue.start.") + kNames[i]);
  }
  if (c.contains("parameter")) spec.parameter = pose_name(c["parameter"], path, "continue.parameter");
  if (c.contains("fold_curve")) {
    const Json& f = c["fold_curve"];
    if (!f.is_array() || f.size() != 2)
      fail(path, "'continue.fold_curve' must be a list of two pose parameters, e.g. [\"x\", \"y\"], got " +
                     f.dump());
    std::array<std::string, 2> names{pose_name(f[0], path, "continue.fold_curve[0]"),
                                     pose_name(f[1], path, "continue.fold_curve[1]")};
    if (names[0] == names[1])
      fail(path, "'continue.fold_curve' names '" + names[0] + "' twice; give two different pose parameters");
    spec.fold_curve = names;
  }
  if (c.contains("cusp_curve")) spec.cusp_curve = boolean(c["cusp_curve"], path, "continue.cusp_curve");
  if (spec.cusp_curve && !spec.fold_curve)
    fail(path,
         "'continue.cusp_curve' needs 'continue.fold_curve' (the cusp curve starts from a cusp of the fold "
         "curve)");
  // The continuation options from the table (studies/options_json.h); the
  // bounds default to the pose +- 0.5, and given ones replace them per name.
  ContinuationOptions o;
  read_option_keys(c, continuation_option_table(), &o, path, "continue.");
  for (int i = 0; i < 5; ++i) o.bounds[kNames[i]] = Bound{run.point[i] - 0.5, run.point[i] + 0.5};
  if (c.contains("bounds")) {
    if (c["bounds"].is_object())
      only_keys(c["bounds"], {"s1", "s2", "x", "y", "phi"}, path, "continue.bounds.");
    read_bounds(c, &o.bounds, path, "continue.");
  }
  if (const std::string why = o.check(); !why.empty()) fail(path, "'continue': " + why);
  spec.options.branch = spec.options.fold_curve = spec.options.cusp_curve = o;
  spec.options.classification = run.options;
  return spec;
}

Json located_json(const LocatedContactPoint& p) {
  Json j;
  j["type"] = p.type;
  j["point"] = point_json(p.point);
  j["located"] = point_json(p.located);
  j["polished"] = p.polished;
  j["residual"] = p.residual;
  j["det"] = p.scalars[0];
  j["c2_tilde"] = p.scalars[1];
  j["c3_tilde"] = p.scalars[2];
  j["classified"] = p.classified;
  if (p.classified) {
    const ContactClassification& c = p.classification;
    Json k;
    k["codimension"] = c.codimension;
    k["type"] = c.type;
    k["rank"] = c.rank;
    k["versal"] = c.versal;
    k["message"] = c.message;
    Json lyapunov = Json::object();
    for (const auto& [n, v] : c.c)
      if (n <= c.codimension + 1) lyapunov[std::to_string(n)] = v;
    k["c"] = lyapunov;
    Json rows = Json::array();
    for (const auto& row : c.transversality_matrix) rows.push_back(row);
    k["transversality_matrix"] = rows;
    j["classification"] = k;
  } else {
    j["message"] = p.message;
  }
  return j;
}

ContactContinueStudy continue_contact(const ExtremalRun& run, const std::function<bool()>& stop_requested) {
  ContactContinueStudy s;
  s.spec = contact_continue_spec(run);
  if (stop_requested)
    for (ContinuationOptions* o :
         {&s.spec.options.branch, &s.spec.options.fold_curve, &s.spec.options.cusp_curve})
      o->callback = [stop_requested](const Branch&) { return !stop_requested(); };
  const ContactContinueSpec& spec = s.spec;
  s.result = continue_contact_points(run.problem, spec.start, spec.parameter, spec.fold_curve, spec.cusp_curve,
                                     spec.options);
  const ContactContinuationResult& result = s.result;
  Json& summary = s.summary;
  summary["name"] = run.name;
  summary["run_file"] = run.path.string();
  summary["message"] = result.message;
  summary["start"] = point_json(spec.start);
  summary["parameter"] = spec.parameter;
  if (spec.fold_curve) summary["fold_curve"] = {(*spec.fold_curve)[0], (*spec.fold_curve)[1]};
  summary["cusp_curve"] = spec.cusp_curve;
  for (const auto& [key, list] :
       {std::pair<const char*, const std::vector<LocatedContactPoint>*>{"folds", &result.folds},
        {"cusps", &result.cusps},
        {"swallowtails", &result.swallowtails}}) {
    Json a = Json::array();
    for (const auto& p : *list) a.push_back(located_json(p));
    summary[key] = a;
  }
  Json branches = Json::array();
  for (const auto* list : {&result.branches, &result.fold_curves, &result.cusp_curves})
    for (const Branch& b : *list) branches.push_back(b.summary());
  summary["branches"] = branches;
  // The caller's stop is no longer valid once this returns.
  for (ContinuationOptions* o : {&s.spec.options.branch, &s.spec.options.fold_curve, &s.spec.options.cusp_curve})
    o->callback = nullptr;
  for (auto* list : {&s.result.branches, &s.result.fold_curves, &s.result.cusp_curves})
    for (Branch& b : *list) b.options.callback = nullptr;
  return s;
}

ContactTrackSpec contact_track_spec(const ExtremalRun& run) {
  const fs::path& path = run.path;
  if (run.track_json.is_null()) fail(path, "'track' is missing (needed by `extremal track`)");
  const Json& j = run.track_json;
  if (!j.is_object()) fail(path, "'track' must be an object {\"x\", \"y\", \"phi\", \"t\", ...}");
  only_keys(j, keys_under(keys(), "track."), path, "track.");
  ContactTrackSpec spec;
  spec.motion.x = parse_of_t(j, "x", run.point[2], path);
  spec.motion.y = parse_of_t(j, "y", run.point[3], path);
  spec.motion.phi = parse_of_t(j, "phi", run.point[4], path);
  if (!j.contains("t")) fail(path, "'track.t' is missing: the time interval [t0, t1]");
  if (!j["t"].is_array() || j["t"].size() != 2)
    fail(path, "'track.t' must be [t0, t1], got " + j["t"].dump());
  ContactTrackOptions& o = spec.options;
  o.t0 = number(j["t"][0], path, "track.t[0]");
  o.t1 = number(j["t"][1], path, "track.t[1]");
  if (!(o.t0 < o.t1))
    fail(path, "'track.t' = [" + models::format_number(o.t0) + ", " + models::format_number(o.t1) +
                   "] must have t0 < t1");
  o.search.s1_centre = run.point[0];
  o.search.s2_centre = run.point[1];
  o.search.half_width = j.contains("box") ? read_number(keys(), "track.box", j["box"], path) : run.box;
  o.search.grid = j.contains("grid") ? read_integer(keys(), "track.grid", j["grid"], path) : run.grid;
  read_option_keys(j, continuation_option_table(), &o.continuation, path, "track.");
  if (j.contains("max_events"))
    o.max_events = read_integer(keys(), "track.max_events", j["max_events"], path);
  o.classification = run.options;
  if (const std::string why = o.check(); !why.empty()) fail(path, "'track': " + why);
  // The motion must evaluate at both ends (say, no log of a negative number).
  for (double t : {o.t0, o.t1})
    if (!spec.motion.pose(t).allFinite())
      fail(path, "'track': the pose at t = " + models::format_number(t) + " is not finite");
  return spec;
}

namespace {

Json track_summary(const ExtremalRun& run, const ContactTrackSpec& spec, const ContactTrack& track) {
  Json summary;
  summary["name"] = run.name;
  summary["run_file"] = run.path.string();
  summary["motion"] = {
      {"x", spec.motion.x.text()}, {"y", spec.motion.y.text()}, {"phi", spec.motion.phi.text()}};
  summary["t"] = {spec.options.t0, spec.options.t1};
  summary["initial_count"] = track.initial_count;
  summary["stop"] = track.stop;
  Json list = Json::array();
  for (const ContactTrackEvent& e : track.events) {
    Json j;
    j["t"] = e.t;
    j["kind"] = e.kind;
    j["point"] = point_json(e.point);
    j["before"] = e.before;
    j["after"] = e.after;
    j["classified"] = e.classified;
    if (e.classified) {
      j["type"] = e.classification.type;
      j["codimension"] = e.classification.codimension;
    } else {
      j["message"] = e.message;
    }
    list.push_back(j);
  }
  summary["events"] = list;
  return summary;
}

}  // namespace

ContactTrackStudy track_contact(const ExtremalRun& run, const std::function<bool()>& stop_requested) {
  ContactTrackStudy s;
  s.spec = contact_track_spec(run);
  s.spec.options.stop_requested = stop_requested;
  s.track = track_contacts(run.problem, run.curve1, run.curve2, s.spec.motion, s.spec.options);
  s.summary = track_summary(run, s.spec, s.track);
  s.spec.options.stop_requested = nullptr;  // the caller's: no longer valid once it returns
  return s;
}

}  // namespace saltus::studies
