#include "studies/contact_study.h"

#include <exception>

#include "analyses/contact/format.h"
#include "models/expression.h"
#include "studies/option_tables.h"
#include "studies/run_file.h"

namespace saltus::studies {

namespace fs = std::filesystem;

namespace {

std::vector<double> numbers(const Json& value, const fs::path& path, const std::string& key) {
  if (!value.is_array() || value.empty())
    fail(path, "'" + key + "' must be a non-empty list of numbers, got " + value.dump());
  std::vector<double> out;
  for (std::size_t i = 0; i < value.size(); ++i)
    out.push_back(number(value[i], path, key + "[" + std::to_string(i) + "]"));
  return out;
}

// An "expression" curve: x(s) and y(s) (each parsed alone first, so an
// error names its key), scale and period.
void read_expression_curve(const Json& object, const fs::path& path, const std::string& key,
                           const std::string& name, models::AnyShape* shape) {
  const std::string where = key + ".";
  only_keys(object, {"type", "name", "x", "y", "scale", "period"}, path, where);
  auto text = [&](const char* field) {
    if (!object.contains(field)) fail(path, "'" + where + field + "' is missing (curve type 'expression')");
    const std::string value = string(object[field], path, where + field);
    try {
      models::Expression::parse(value, {"s"});
    } catch (const std::exception& e) {
      fail(path, "'" + where + field + "' = \"" + value + "\": " + e.what());
    }
    return value;
  };
  const std::string x = text("x"), y = text("y");
  const double scale = object.contains("scale") ? number(object["scale"], path, where + "scale") : 1.0;
  const double period = object.contains("period") ? number(object["period"], path, where + "period") : 0.0;
  try {
    shape->shape = models::ExpressionCurve::make(x, y, name, scale, period);
  } catch (const std::exception& e) {
    fail(path, "'" + key + "': " + e.what());
  }
}

// Reads one curve object; `key` is "curve1" or "curve2".
models::AnyShape read_curve(const Json& object, const fs::path& path, const std::string& key,
                            const std::string& default_name) {
  if (!object.is_object())
    fail(path, "'" + key +
                   "' must be an object {\"type\": \"circle\" | \"ellipse\" | \"polynomial\" | \"graph\" | "
                   "\"fourier\" | \"expression\", ...}, got " +
                   object.dump());
  if (!object.contains("type")) fail(path, "'" + key + ".type' is missing");
  const std::string type = string(object["type"], path, key + ".type");
  const std::string where = key + ".";
  auto get = [&](const char* field, double fallback) {
    return object.contains(field) ? number(object[field], path, where + field) : fallback;
  };
  auto orientation = [&]() {
    if (!object.contains("orientation")) return +1;
    const int o = integer(object["orientation"], path, where + "orientation");
    if (o != 1 && o != -1)
      fail(path, "'" + where + "orientation' must be +1 or -1, got " + std::to_string(o));
    return o;
  };
  auto required = [&](const char* field) -> const Json& {
    if (!object.contains(field)) fail(path, "'" + where + field + "' is missing (curve type '" + type + "')");
    return object[field];
  };
  const std::string name =
      object.contains("name") ? string(object["name"], path, where + "name") : default_name;
  models::AnyShape shape;
  if (type == "circle") {
    only_keys(object, {"type", "name", "radius", "cx", "cy", "orientation", "phase"}, path, where);
    shape.shape = models::Circle{.radius = get("radius", 1.0),
                                 .cx = get("cx", 0.0),
                                 .cy = get("cy", 0.0),
                                 .orientation = orientation(),
                                 .phase = get("phase", 0.0),
                                 .name = name};
  } else if (type == "ellipse") {
    only_keys(object, {"type", "name", "a", "b", "cx", "cy", "orientation", "phase"}, path, where);
    shape.shape = models::Ellipse{.a = get("a", 1.0),
                                  .b = get("b", 1.0),
                                  .cx = get("cx", 0.0),
                                  .cy = get("cy", 0.0),
                                  .orientation = orientation(),
                                  .phase = get("phase", 0.0),
                                  .name = name};
  } else if (type == "polynomial") {
    only_keys(object, {"type", "name", "x", "y"}, path, where);
    shape.shape = models::ParametricPolynomial{.x = numbers(required("x"), path, where + "x"),
                                               .y = numbers(required("y"), path, where + "y"),
                                               .name = name};
  } else if (type == "graph") {
    only_keys(object, {"type", "name", "p"}, path, where);
    shape.shape = models::PolynomialGraph{.p = numbers(required("p"), path, where + "p"), .name = name};
  } else if (type == "fourier") {
    only_keys(object, {"type", "name", "r0", "a", "b"}, path, where);
    models::FourierProfile f{.r0 = get("r0", 1.0), .a = {}, .b = {}, .name = name};
    if (object.contains("a")) f.a = numbers(object["a"], path, where + "a");
    if (object.contains("b")) f.b = numbers(object["b"], path, where + "b");
    shape.shape = f;
  } else if (type == "expression") {
    read_expression_curve(object, path, key, name, &shape);
  } else {
    fail(path, "'" + where + "type' = '" + type +
                   "' is not a curve type (known: circle, ellipse, polynomial, graph, fourier, expression)");
  }
  try {
    shape.check();
  } catch (const std::exception& e) {
    fail(path, "'" + key + "': " + e.what());
  }
  return shape;
}

std::string fmt(double v) { return models::format_number(v); }

}  // namespace

const char* status_name(ClassificationStatus s) {
  return s == ClassificationStatus::kClassified ? "classified" : "undecided";
}

Json point_json(const std::array<double, 5>& p) {
  Json j;
  j["s1"] = p[0];
  j["s2"] = p[1];
  j["x"] = p[2];
  j["y"] = p[3];
  j["phi"] = p[4];
  return j;
}

Json classification_json(const ExtremalRun& run, const ContactClassification& r) {
  Json j;
  j["name"] = run.name;
  j["run_file"] = run.path.string();
  if (!run.description.empty()) j["description"] = run.description;
  if (!run.note.empty()) j["note"] = run.note;
  j["status"] = status_name(r.status);
  j["message"] = r.message;
  j["degenerate_point"] = point_json(r.degenerate_point);
  j["kappa1"] = r.kappa1;
  j["kappa2"] = r.kappa2;
  j["d"] = r.d;
  j["epsilon"] = r.epsilon;
  j["det"] = r.det;
  j["trace"] = r.trace;
  j["degeneracy_case"] = r.degeneracy_case;
  j["order"] = r.order;
  Json lyapunov, c = Json::object(), cm = Json::object(), ce = Json::object(), cme = Json::object();
  for (const auto& [n, v] : r.c) c[std::to_string(n)] = v;
  for (const auto& [nm, v] : r.cm) cm[nm] = v;
  for (const auto& [n, v] : r.c_exact) ce[std::to_string(n)] = v;
  for (const auto& [nm, v] : r.cm_exact) cme[nm] = v;
  lyapunov["c"] = c;
  lyapunov["cm"] = cm;
  if (r.exact) {
    lyapunov["c_exact"] = ce;
    lyapunov["cm_exact"] = cme;
  }
  j["lyapunov"] = lyapunov;
  j["codimension"] = r.codimension;
  Json rows = Json::array(), exact_rows = Json::array();
  for (const auto& row : r.transversality_matrix) rows.push_back(row);
  for (const auto& row : r.transversality_exact) exact_rows.push_back(row);
  j["transversality_matrix"] = rows;
  if (r.exact) j["transversality_matrix_exact"] = exact_rows;
  j["rank"] = r.rank;
  j["versal"] = r.versal;
  j["type"] = r.type;
  Json nf = Json::array();
  for (const auto& mu : r.normal_form) {
    Json m;
    m["power"] = mu.power;
    m["polynomial"] = polynomial_text(mu);
    if (r.exact) m["exact"] = polynomial_text(mu, true);
    Json terms = Json::array();
    for (const auto& t : mu.terms) {
      Json term;
      term["x"] = t.ex;
      term["y"] = t.ey;
      term["phi"] = t.ephi;
      term["value"] = t.value;
      if (!t.exact.empty()) term["exact"] = t.exact;
      terms.push_back(term);
    }
    m["terms"] = terms;
    nf.push_back(m);
  }
  j["normal_form"] = nf;
  j["truncation_order"] = r.truncation_order;
  j["exact"] = r.exact;
  if (!r.exact) j["exact_note"] = r.exact_note;
  return j;
}

ExtremalRun parse_extremal_run(const Json& json, const fs::path& path) {
  if (!json.is_object()) fail(path, "the top level must be an object");
  const KeyTable& keys = extremal_run_file().keys;
  only_keys(json, keys_under(keys, ""), path, "");
  ExtremalRun run;
  run.path = path;
  run.name = json.contains("name") ? string(json["name"], path, "name") : path.stem().string();
  check_run_name(run.name, path);
  if (json.contains("description")) run.description = string(json["description"], path, "description");
  if (json.contains("note")) run.note = string(json["note"], path, "note");
  // Read by `extremal continue` / `extremal track` (studies/contact_branches.cpp).
  if (json.contains("continue")) run.continue_json = json["continue"];
  if (json.contains("track")) run.track_json = json["track"];

  for (const char* key : {"curve1", "curve2", "point"})
    if (!json.contains(key)) fail(path, std::string("'") + key + "' is missing");
  run.curve1_json = json["curve1"];
  run.curve2_json = json["curve2"];
  run.curve1 = read_curve(json["curve1"], path, "curve1", "c1");
  run.curve2 = read_curve(json["curve2"], path, "curve2", "c2");
  try {
    run.problem = models::make_extremal_problem(run.curve1, run.curve2);
  } catch (const std::exception& e) {
    fail(path, std::string("'curve1' / 'curve2': ") + e.what());
  }

  const Json& point = json["point"];
  if (!point.is_object()) fail(path, "'point' must be an object {\"s1\", \"s2\", \"x\", \"y\", \"phi\"}");
  only_keys(point, keys_under(keys, "point."), path, "point.");
  const char* names[5] = {"s1", "s2", "x", "y", "phi"};
  for (int i = 0; i < 5; ++i) {
    if (!point.contains(names[i])) fail(path, std::string("'point.") + names[i] + "' is missing");
    run.point[i] = number(point[names[i]], path, std::string("point.") + names[i]);
  }

  if (json.contains("options")) {
    const Json& o = json["options"];
    if (!o.is_object())
      fail(path, "'options' must be an object {\"order\", \"truncation_order\", \"exact\"}");
    only_keys(o, keys_under(keys, "options."), path, "options.");
    if (o.contains("order")) run.options.order = integer(o["order"], path, "options.order");
    if (o.contains("truncation_order"))
      run.options.truncation_order = integer(o["truncation_order"], path, "options.truncation_order");
    if (o.contains("exact")) run.options.exact = boolean(o["exact"], path, "options.exact");
  }
  if (const std::string bad = run.options.check(); !bad.empty()) fail(path, "'options': " + bad);

  if (json.contains("search")) {
    const Json& s = json["search"];
    if (!s.is_object()) fail(path, "'search' must be an object {\"box\", \"grid\"}");
    only_keys(s, keys_under(keys, "search."), path, "search.");
    if (s.contains("box")) run.box = read_number(keys, "search.box", s["box"], path);
    if (s.contains("grid")) run.grid = read_integer(keys, "search.grid", s["grid"], path);
  }
  return run;
}

ExtremalRun read_extremal_run(const fs::path& path) { return parse_extremal_run(read_json(path), path); }

ContactClassification classify(const ExtremalRun& run) {
  try {
    return saltus::classify(run.problem, run.point, run.options);
  } catch (const std::exception& e) {
    throw StudyError(run.path.string() + ": " + e.what());
  }
}

ExtremalPointsAtPose extremal_points(const ExtremalRun& run, const Eigen::Vector3d& pose, double box) {
  ExtremalPointsAtPose s;
  s.pose = pose;
  if (!pose.allFinite())
    throw StudyError("the pose must be finite, got " + fmt(pose[0]) + " " + fmt(pose[1]) + " " + fmt(pose[2]));
  s.box = box > 0 ? box : run.box;
  s.classification = classify(run);
  models::ExtremalSearchOptions search;
  search.s1_centre = run.point[0];
  search.s2_centre = run.point[1];
  search.half_width = s.box;
  search.grid = run.grid;
  try {
    s.found = models::find_extremal_points(run.problem, pose, search);
  } catch (const std::exception& e) {
    throw StudyError(run.path.string() + ": " + e.what());
  }
  s.decided = s.classification.status == ClassificationStatus::kClassified;
  if (s.decided) {
    s.predicted = predicted_solution_count(s.classification, pose);
    s.mu = normal_form_coefficients(s.classification, pose);
  }
  return s;
}

Json extremal_points_json(const ExtremalRun& run, const ExtremalPointsAtPose& s) {
  const ContactClassification& r = s.classification;
  Json j;
  j["name"] = run.name;
  j["run_file"] = run.path.string();
  j["pose"] = {{"x", s.pose[0]}, {"y", s.pose[1]}, {"phi", s.pose[2]}};
  j["degenerate_point"] = point_json(r.degenerate_point);
  j["box"] = s.box;
  j["grid"] = run.grid;
  j["count"] = s.found.count;
  j["opposing_count"] = s.found.opposing_count;
  Json list = Json::array();
  for (const auto& p : s.found.solutions) {
    Json e;
    e["s1"] = p.s1;
    e["s2"] = p.s2;
    e["residual"] = p.residual;
    e["det"] = p.geometry.det_arclength;
    e["d"] = p.geometry.d;
    e["opposing"] = p.geometry.opposing();
    e["degenerate"] = p.degenerate;
    list.push_back(e);
  }
  j["solutions"] = list;
  j["status"] = status_name(r.status);
  j["type"] = r.type;
  j["codimension"] = r.codimension;
  if (s.decided) {
    j["predicted_count"] = s.predicted;
    j["normal_form_coefficients"] = s.mu;
    j["agrees"] = s.predicted == s.found.count;
  } else {
    j["predicted_count"] = nullptr;
    j["message"] = r.message;
  }
  j["search"] = s.found.message;
  return j;
}

}  // namespace saltus::studies
