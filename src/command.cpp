#include "command.hpp"

namespace unicl {

cl_int Command::use(cl_mem m, Access access, cl_mem &vendor_mem) {
  if (!live(m)) return CL_INVALID_MEM_OBJECT;
  if (m->context.get() != &ctx_) return CL_INVALID_CONTEXT;
  if (!multi()) {
    vendor_mem = m->replicas[0].get();
    return CL_SUCCESS;
  }
  if (cl_int err = m->replica(slot_, vendor_mem); err != CL_SUCCESS) return err;
  if (cl_int err = acquire(m, slot_, access, wait_); err != CL_SUCCESS) return err;
  uses_.emplace_back(m, access);
  return CL_SUCCESS;
}

cl_int Command::use_host(cl_mem m, Access access) {
  if (!live(m)) return CL_INVALID_MEM_OBJECT;
  if (m->context.get() != &ctx_) return CL_INVALID_CONTEXT;
  return acquire_host(m, access, slot_, wait_);
}

cl_int Command::finish(cl_int err, cl_event *user_event, cl_command_type type) {
  auto owned = VendorRef<cl_event>::adopt(vendor_event_);
  if (err != CL_SUCCESS) return err;
  for (auto &[m, access] : uses_) record(m, slot_, access, vendor_event_);
  if (user_event) *user_event = make_command_event(q_, type, std::move(owned)).detach();
  return CL_SUCCESS;
}

}  // namespace unicl
