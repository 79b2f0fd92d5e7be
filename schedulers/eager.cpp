// eager: one shared ready queue; a device with room takes the oldest
// command it can run. No model needed; fast devices simply take more.
#include <deque>

#include "policy.hpp"

namespace unicl {
namespace {

class Eager final : public Policy {
 public:
  explicit Eager(const SchedulingView &view) : view_(view) {}
  void push(std::shared_ptr<Task> t) override { ready_.push_back(std::move(t)); }
  std::shared_ptr<Task> pop(size_t device) override { return take_first_runnable(ready_, view_, device); }
  size_t pending() const override { return ready_.size(); }

 private:
  const SchedulingView &view_;
  std::deque<std::shared_ptr<Task>> ready_;
};

}  // namespace

std::unique_ptr<Policy> make_eager(const SchedulingView &view) { return std::make_unique<Eager>(view); }

}  // namespace unicl
