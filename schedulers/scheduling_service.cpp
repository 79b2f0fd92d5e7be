#include "scheduling_service.hpp"

#include "core/runtime.hpp"
#include "engine.hpp"
#include "perf_model.hpp"

namespace unicl {
namespace {

class Scheduling final : public SchedulingService {
 public:
  explicit Scheduling(std::shared_ptr<PerfModels> models) : models_(std::move(models)) {}
  std::unique_ptr<ContextScheduler> make(_cl_context &ctx, const std::string &policy) override {
    return Engine::make(ctx, policy, *models_);
  }
  const std::vector<std::string> &policy_names() const override { return unicl::policy_names(); }
  void transfer_timed(const std::string &src, const std::string &dst, size_t bytes, double seconds) override {
    models_->record_transfer(PerfModels::link_name(src, dst), bytes, seconds);
  }
  void save() override { models_->save(); }

 private:
  std::shared_ptr<PerfModels> models_;
};

}  // namespace

void install_scheduling(Runtime &rt, std::shared_ptr<PerfModels> models) {
  rt.install(std::make_unique<Scheduling>(std::move(models)));
}

}  // namespace unicl
