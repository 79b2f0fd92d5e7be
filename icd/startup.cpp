#include "startup.hpp"

#include "core/runtime.hpp"
#include "schedulers/service.hpp"

namespace unicl {

void start_runtime() {
  Runtime::get().install_once([](Runtime &rt) { install_scheduling(rt); });
}

}  // namespace unicl
