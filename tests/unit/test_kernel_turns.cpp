// KernelTurns: which earlier launch of its kernel a launch must follow on a
// device where launches of one kernel must not overlap.
#include <catch2/catch.hpp>

#include "core/kernel_turns.hpp"

namespace {

// A launch whose status the test sets.
class FakeLaunch final : public unicl::Completion {
 public:
  cl_int state = CL_SUBMITTED;
  cl_int status() const override { return state; }
  void on_done(std::function<void(cl_int)>) override {}
  bool times(cl_ulong &, cl_ulong &) const override { return false; }
  cl_event vendor_event() const override { return nullptr; }
  cl_int wait() override { return state; }
  void flush() override {}
};

// Two vendor queues, never dereferenced.
const auto kQueue = reinterpret_cast<cl_command_queue>(0x10), kOtherQueue = reinterpret_cast<cl_command_queue>(0x20);

}  // namespace

TEST_CASE("a launch follows the previous launch of its kernel on the device while that runs", "[kernel_turns]") {
  unicl::KernelTurns turns;
  auto first = std::make_shared<FakeLaunch>(), second = std::make_shared<FakeLaunch>();
  auto other_kernel = std::make_shared<FakeLaunch>();
  CHECK(turns.take("k", first, kQueue, false) == nullptr);               // nothing before it
  CHECK(turns.take("other", other_kernel, kQueue, false) == nullptr);    // kernels apart
  CHECK(turns.take("k", second, kQueue, false) == first);                // out of order: the vendor would not order them
  first->state = CL_RUNNING;
  auto third = std::make_shared<FakeLaunch>();
  CHECK(turns.take("k", third, kOtherQueue, true) == second);            // another queue
  second->state = third->state = CL_COMPLETE;
  CHECK(turns.take("k", std::make_shared<FakeLaunch>(), kOtherQueue, false) == nullptr);  // ended: nothing to wait for
}

TEST_CASE("an in-order queue that issued both launches orders them itself", "[kernel_turns]") {
  unicl::KernelTurns turns;
  auto first = std::make_shared<FakeLaunch>();
  turns.take("k", first, kQueue, true);
  CHECK(turns.take("k", std::make_shared<FakeLaunch>(), kQueue, true) == nullptr);
}

TEST_CASE("a launch gone (its task and event released) is not waited for", "[kernel_turns]") {
  unicl::KernelTurns turns;
  turns.take("k", std::make_shared<FakeLaunch>(), kQueue, false);
  CHECK(turns.take("k", std::make_shared<FakeLaunch>(), kQueue, false) == nullptr);
}
