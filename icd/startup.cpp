#include "startup.hpp"

#include "core/runtime.hpp"
#include "granularity/divided_launches.hpp"
#include "schedulers/perf_model.hpp"
#include "schedulers/scheduling_service.hpp"

namespace unicl {

void start_runtime() {
  Runtime::get().install_once([](Runtime &rt) {
    // One set of performance models: the policies' kernel and link times
    // and the granularity layer's factor times, kept in one file.
    auto models = std::make_shared<PerfModels>(PerfModels::file_in(rt.config().cache_dir));
    install_scheduling(rt, models);
    install_granularity(rt, models);
  });
}

}  // namespace unicl
