#include "drivers/progress.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "continuation/flow/forwarding_hybrid_system.h"

namespace saltus::drivers {

TimeProgress::TimeProgress(std::ostream& err, std::string what, std::chrono::milliseconds first,
                           std::chrono::milliseconds every)
    : err_(err), what_(std::move(what)), first_(first), every_(every) {}

void TimeProgress::set_span(double t_begin, double t_end) {
  begin_ = t_begin;
  end_ = t_end;
}

void TimeProgress::at(double t) {
  t_max_ = std::max(t_max_, t);  // event location looks back a little; the run goes forward
  if (++calls_ % 256 != 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < first_ || (printed_ && now - last_ < every_)) return;
  last_ = now;
  printed_ = true;
  print();
}

void TimeProgress::print() {
  const double elapsed = std::chrono::duration<double>(last_ - start_).count();
  if (!stage_.empty()) {
    err_ << what_ << ": " << stage_ << ", " << std::setprecision(3) << elapsed << " s\n" << std::flush;
    return;
  }
  err_ << what_ << ": simulating, t = " << std::setprecision(6) << t_max_;
  if (end_ > begin_) {
    const double fraction = std::clamp((t_max_ - begin_) / (end_ - begin_), 0.0, 1.0);
    err_ << " of [" << begin_ << ", " << end_ << "] (" << std::setprecision(3) << 100 * fraction << "%)";
    err_ << ", " << std::setprecision(3) << elapsed << " s";
    if (fraction > 1e-3)
      err_ << ", about " << std::setprecision(3) << elapsed * (1 - fraction) / fraction << " s left";
  } else {
    err_ << ", " << std::setprecision(3) << elapsed << " s";
  }
  err_ << '\n' << std::flush;
}

studies::Progress staging(std::shared_ptr<TimeProgress> progress) {
  if (!progress) return {};
  return [progress](const std::string& name, const Branch& branch) {
    std::ostringstream stage;
    stage << name << ": point " << branch.points.size() << std::setprecision(8);
    const Vector& y = branch.points.back().y;
    for (std::size_t i = branch.state_size; i < branch.names.size(); ++i)
      stage << ", " << branch.names[i] << " = " << y[static_cast<Eigen::Index>(i)];
    progress->set_stage(stage.str());
    return true;
  };
}

namespace {

// The wrapped system, whose field evaluations also go to the progress, and
// whose derived systems (other parameters, parameters in the state, the
// tangent lift) report too.
class ReportingSystem : public flow::ForwardingHybridSystem {
 public:
  ReportingSystem(std::shared_ptr<const flow::HybridSystem> inner, std::shared_ptr<TimeProgress> progress)
      : flow::ForwardingHybridSystem(std::move(inner)), progress_(std::move(progress)) {}

  void field(int mode, double t, const Vector& x, Vector* f) const override {
    progress_->at(t);
    inner().field(mode, t, x, f);
  }
  void field_and_jacobian(int mode, double t, const Vector& x, Vector* f, Matrix* A) const override {
    progress_->at(t);
    inner().field_and_jacobian(mode, t, x, f, A);
  }
  void field_and_tangent(int mode, double t, const Vector& x, const Eigen::Ref<const Matrix>& Phi_top,
                         Vector* f, Eigen::Ref<Matrix> dPhi_top) const override {
    progress_->at(t);
    inner().field_and_tangent(mode, t, x, Phi_top, f, dPhi_top);
  }
  void field_in_place(int mode, double t, const double* x, double* f) const override {
    progress_->at(t);
    inner().field_in_place(mode, t, x, f);
  }
  void field_and_tangent_in_place(int mode, double t, const double* x, int m, const double* Phi_top,
                                  double* f, double* dPhi_top) const override {
    progress_->at(t);
    inner().field_and_tangent_in_place(mode, t, x, m, Phi_top, f, dPhi_top);
  }
  std::shared_ptr<const flow::HybridSystem> with_parameters(
      const std::map<std::string, double>& values) const override {
    return with_progress(inner().with_parameters(values), progress_);
  }
  std::shared_ptr<const flow::HybridSystem> with_parameters_in_state(
      const std::vector<std::string>& names, const std::vector<int>& angles) const override {
    return with_progress(inner().with_parameters_in_state(names, angles), progress_);
  }
  std::shared_ptr<const flow::HybridSystem> tangent_lifted() const override {
    return with_progress(inner().tangent_lifted(), progress_);
  }

 private:
  std::shared_ptr<TimeProgress> progress_;
};

}  // namespace

std::shared_ptr<const flow::HybridSystem> with_progress(std::shared_ptr<const flow::HybridSystem> system,
                                                        std::shared_ptr<TimeProgress> progress) {
  return std::make_shared<ReportingSystem>(std::move(system), std::move(progress));
}

}  // namespace saltus::drivers
