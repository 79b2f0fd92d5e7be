#include "api/pieces_queue.hpp"

#include <mutex>

#include "api/api_decls.hpp"
#include "core/queue.hpp"

namespace unicl {

cl_int pieces_queue(_cl_command_queue *q, cl_command_queue &out) {
  std::lock_guard lock(q->pieces_mutex);
  if (!q->pieces) {
    const cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int err = CL_SUCCESS;
    cl_command_queue made = api::clCreateCommandQueueWithProperties(q->context.get(), nullptr, props, &err);
    if (err != CL_SUCCESS) return err;
    q->pieces = Ref<_cl_command_queue>(made, true);
  }
  out = q->pieces.get();
  return CL_SUCCESS;
}

}  // namespace unicl
