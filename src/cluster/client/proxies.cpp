// The node client's proxies: which handles are ours, their ids, their
// references, and what the last reference does (objects.hpp).
#include <unordered_map>

#include "cluster/client/objects.hpp"

namespace unicl::cluster {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void *, std::shared_ptr<Proxy>> proxies;
  std::atomic<uint64_t> next_id{1};
};
Registry &registry() {
  // Immortal: UniCL's threads may release proxies while the process exits.
  static Registry *r = std::make_unique<Registry>().release();
  return *r;
}

// Whether the node still holds something of `p` that it should let go of.
// A command's event it drops itself once it reported its end, unless the
// command failed (a later wait list naming it must fail too): rank 0 then
// tells it when the event goes.
bool node_holds(Proxy *p) {
  if (p->kind != ObjectKind::kEvent) return true;
  auto *e = static_cast<RemoteEvent *>(p);
  if (!e->queue) return true;  // a user event
  std::lock_guard lock(e->mutex);
  return e->status < 0;
}

}  // namespace

uint64_t new_id() { return registry().next_id.fetch_add(1, std::memory_order_relaxed); }

void register_proxy(std::shared_ptr<Proxy> p) {
  std::lock_guard lock(registry().mutex);
  const void *key = p.get();
  registry().proxies.emplace(key, std::move(p));
}

bool live(const void *handle, ObjectKind kind) {
  if (!handle) return false;
  std::lock_guard lock(registry().mutex);
  auto it = registry().proxies.find(handle);
  return it != registry().proxies.end() && it->second->kind == kind;
}

void retain(Proxy *p) {
  if (p) p->refs.fetch_add(1);
}

void release(Proxy *p) {
  if (!p || p->refs.fetch_sub(1) != 1) return;
  std::shared_ptr<Proxy> last;
  {
    std::lock_guard lock(registry().mutex);
    auto it = registry().proxies.find(p);
    if (it == registry().proxies.end()) return;
    last = std::move(it->second);
    registry().proxies.erase(it);
  }
  if (node_holds(p)) {
    Writer w;
    write(w, Release{p->kind, p->id});
    post(p->rank, Op::kRelease, w);
  }
  // The references this object held on the ones it belongs to.
  switch (p->kind) {
    case ObjectKind::kQueue: release(static_cast<RemoteQueue *>(p)->context); break;
    case ObjectKind::kMemory: {
      auto *m = static_cast<RemoteMemory *>(p);
      // Destructor callbacks, last registered first, once the node let go.
      auto destructors = m->destructors;
      run_later([last, destructors] {
        for (auto it = destructors.rbegin(); it != destructors.rend(); ++it)
          it->fn(handle(static_cast<RemoteMemory *>(last.get())), it->user_data);
      });
      release(m->parent ? static_cast<Proxy *>(m->parent) : static_cast<Proxy *>(m->context));
      break;
    }
    case ObjectKind::kProgram: release(static_cast<RemoteProgram *>(p)->context); break;
    case ObjectKind::kKernel: {
      RemoteProgram *program = static_cast<RemoteKernel *>(p)->program;
      {
        std::lock_guard lock(program->mutex);
        --program->kernels_attached;
      }
      release(program);
      break;
    }
    case ObjectKind::kSampler: release(static_cast<RemoteSampler *>(p)->context); break;
    case ObjectKind::kEvent: {
      auto *e = static_cast<RemoteEvent *>(p);
      if (e->queue) release(e->queue);
      release(e->context);
      break;
    }
    default: break;
  }
}

}  // namespace unicl::cluster
