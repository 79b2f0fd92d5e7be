// A node's large transfers on devices that share its memory: the buffer is
// mapped and MPI moves the bytes straight into or out of it.
//
// Why: through staging memory a write costs the trip and then the vendor's
// copy into the buffer, a read the vendor's copy and then the trip. On a
// device that shares host memory (PoCL's CPU devices) a map is no copy:
// measured here, PoCL's map and unmap of 1-16 MiB take 70-90 us in all,
// where its write of 16 MiB takes 560 us and its read 930 us (the copy also
// drives the transfer's bytes out of the caches the trip then misses).
// From 1 MiB the map is as quick as the copy or quicker (bench-cluster: a
// 1 MiB write and read 270-300 us mapped against 300-310 us staged).
#include <algorithm>
#include <optional>

#include "backend/vendor_commands.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_status.hpp"
#include "cluster/node/server.hpp"

namespace unicl::cluster {
namespace {

constexpr size_t kMappedFrom = size_t{1} << 20;

}  // namespace

NodeServer::Mapping::Mapping(cl_command_queue q, cl_mem b, void *p, size_t n)
    : queue(VendorRef<cl_command_queue>::share(q)), buffer(VendorRef<cl_mem>::share(b)), data(static_cast<char *>(p)),
      size(n) {}

NodeServer::Mapping::~Mapping() {
  cl_event done = nullptr;
  if (vendor_enqueue::UnmapMemObject({queue.get(), 0, nullptr, &done}, buffer.get(), static_cast<void *>(data)) ==
      CL_SUCCESS)
    VendorRef<cl_event>::adopt(done);  // nothing waits for it but the queue's later commands
}

bool NodeServer::maps(cl_command_queue queue, size_t size) const { return size >= kMappedFrom && unified_.count(queue); }

bool NodeServer::maps_at_once(cl_command_queue queue, uint64_t queue_id, const std::vector<cl_event> &wait,
                              size_t size) const {
  if (!maps(queue, size) || untracked_on_.count(queue) || !device_drained(queue_id)) return false;
  // A blocking map waits for the queue's earlier commands: only when none
  // is left (a user event rank 0 sets later could hold them forever).
  if (auto last = last_on_queue_.find(queue); last != last_on_queue_.end() && vendor_status(last->second.get()) != CL_COMPLETE)
    return false;
  for (cl_event e : wait)
    if (vendor_status(e) != CL_COMPLETE) return false;
  return true;
}

bool NodeServer::device_drained(uint64_t queue_id) const {
  auto device_of = [&](uint64_t id) {
    auto it = queue_devices_.find(id);
    return it == queue_devices_.end() ? nullptr : it->second;  // released: taken as any device's
  };
  cl_device_id device = device_of(queue_id);
  if (!device) return false;
  for (cl_command_queue q : untracked_on_)
    if (vendor_value<cl_device_id>(q, CL_QUEUE_DEVICE) == device) return false;
  std::lock_guard lock(reports_mutex_);
  return std::none_of(awaited_.begin(), awaited_.end(), [&](const auto &a) {
    cl_device_id on = device_of(a.second->queue);
    return !on || on == device;
  });
}

void *NodeServer::map_for_write(cl_command_queue queue, cl_mem buffer, size_t offset, size_t size) {
  cl_int err = CL_SUCCESS;
  void *at = vendor_enqueue::MapBuffer({queue, 0, nullptr, nullptr}, err, buffer, cl_bool(CL_TRUE),
                                       cl_map_flags(CL_MAP_WRITE_INVALIDATE_REGION), offset, size);
  return err == CL_SUCCESS ? at : nullptr;
}

std::optional<cl_int> NodeServer::write_mapped(cl_command_queue queue, cl_mem buffer, size_t offset, const Payload &p,
                                               cl_event *event, uint64_t &trip_ns) {
  void *at = map_for_write(queue, buffer, offset, p.size);
  if (!at) return std::nullopt;
  receive_payload(p, static_cast<char *>(at), trip_ns);
  // The unmap is the write: its event is the command's.
  return vendor_enqueue::UnmapMemObject({queue, 0, nullptr, event}, buffer, at);
}

std::shared_ptr<NodeServer::Mapping> NodeServer::read_mapped(const VendorEnqueue &on, cl_mem buffer, size_t offset,
                                                            size_t size) {
  if (!maps(on.queue, size)) return nullptr;
  cl_int err = CL_SUCCESS;
  void *at = vendor_enqueue::MapBuffer(on, err, buffer, cl_bool(CL_FALSE), cl_map_flags(CL_MAP_READ), offset, size);
  if (err != CL_SUCCESS || !at) return nullptr;
  return std::make_shared<Mapping>(on.queue, buffer, at, size);
}

}  // namespace unicl::cluster
