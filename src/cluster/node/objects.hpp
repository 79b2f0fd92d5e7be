// The objects rank 0 named on a node (protocol/messages.hpp): each id's vendor
// object, or the error its creation failed with. A posted creation that
// fails leaves its error here, so that whatever uses the object later fails
// with it (as its command's event status) instead of finding nothing.
// The serving thread's alone.
#pragma once
#include <cstdint>
#include <unordered_map>

#include "backend/vendor.hpp"

namespace unicl::cluster {

class NamedObjects {
 public:
  template <class H>
  using Table = std::unordered_map<uint64_t, VendorRef<H>>;
  Table<cl_context> contexts;
  Table<cl_command_queue> queues;
  Table<cl_mem> memory;
  Table<cl_program> programs;
  Table<cl_kernel> kernels;
  Table<cl_sampler> samplers;
  // User events, and the events of commands whose end rank 0 has not been
  // told yet (a command's id leaves once reported: a later wait list naming
  // it waits for nothing, or fails if it failed).
  Table<cl_event> events;

  // The vendor object named `id` in `table`; null, with `err` set to the
  // error its creation failed with (`unknown` when there is none), if it has
  // none.
  template <class H>
  H find(const Table<H> &table, uint64_t id, cl_int &err, cl_int unknown) const {
    if (auto it = table.find(id); it != table.end()) return it->second.get();
    auto f = failed_.find(id);
    err = f != failed_.end() ? f->second : unknown;
    return nullptr;
  }
  // Keeps `object` under `id`, or, when its creation failed (`err`), the error.
  template <class H>
  void keep(Table<H> &table, uint64_t id, VendorRef<H> object, cl_int err) {
    if (err == CL_SUCCESS && object) table[id] = std::move(object);
    else failed_[id] = err != CL_SUCCESS ? err : CL_OUT_OF_RESOURCES;
  }
  // What the command or creation `id` failed with, if it did.
  void fail(uint64_t id, cl_int err) { failed_[id] = err; }
  bool failed(uint64_t id, cl_int &err) const {
    auto f = failed_.find(id);
    if (f == failed_.end()) return false;
    err = f->second;
    return true;
  }
  // Rank 0 let go of `id`: neither its object nor its failure stays.
  void forget(uint64_t id) { failed_.erase(id); }

 private:
  std::unordered_map<uint64_t, cl_int> failed_;
};

}  // namespace unicl::cluster
