#include "service.hpp"

#include "core/runtime.hpp"
#include "engine.hpp"
#include "perf_model.hpp"

namespace unicl {
namespace {

class Scheduling final : public SchedulingService {
 public:
  explicit Scheduling(const std::string &cache_dir) : models_(PerfModels::file_in(cache_dir)) {}
  std::unique_ptr<ContextScheduler> make(_cl_context &ctx, const std::string &policy) override {
    return Engine::make(ctx, policy, models_);
  }
  const std::vector<std::string> &policy_names() const override { return unicl::policy_names(); }
  void transfer_timed(const std::string &src, const std::string &dst, size_t bytes, double seconds) override {
    models_.record_transfer(PerfModels::link_name(src, dst), bytes, seconds);
  }
  void save() override { models_.save(); }

 private:
  PerfModels models_;
};

}  // namespace

void install_scheduling(Runtime &rt) { rt.install(std::make_unique<Scheduling>(rt.config().cache_dir)); }

}  // namespace unicl
