// No vendor call under a context lock: the scope that marks it, the work
// it defers, and the issue queues that hand planned vendor calls to the
// devices in plan order once the lock is released.
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <thread>
#include <vector>

#include "backend/issue_queue.hpp"
#include "backend/vendor.hpp"
#include "backend/vendor_call_scope.hpp"

using unicl::IssueQueue;
using unicl::VendorCallScope;

namespace {

// A vendor object as the ICD contract lays it out: a pointer to a dispatch
// table first. Only its release entry is ever called here.
std::atomic<int> releases{0};
CL_API_ENTRY cl_int CL_API_CALL count_release(cl_mem) {
  releases.fetch_add(1);
  return CL_SUCCESS;
}
cl_icd_dispatch make_table() {
  cl_icd_dispatch t{};
  t.clReleaseMemObject = count_release;
  return t;
}
const cl_icd_dispatch table = make_table();
struct FakeObject {
  const cl_icd_dispatch *dispatch = &table;
} object;
cl_mem fake_mem() { return reinterpret_cast<cl_mem>(&object); }

}  // namespace

TEST_CASE("deferred work runs when the outermost scope ends, in order", "[unit]") {
  std::vector<int> ran;
  VendorCallScope::defer([&] { ran.push_back(0); });  // outside any scope: at once
  CHECK(ran == std::vector<int>{0});
  VendorCallScope::enter();
  VendorCallScope::defer([&] { ran.push_back(1); });
  VendorCallScope::enter();
  VendorCallScope::defer([&] { ran.push_back(2); });
  VendorCallScope::leave();
  CHECK(ran.size() == 1);  // still inside the outer scope
  CHECK(VendorCallScope::inside());
  VendorCallScope::leave();
  CHECK_FALSE(VendorCallScope::inside());
  CHECK(ran == std::vector<int>{0, 1, 2});
}

TEST_CASE("a vendor reference released inside a scope is released after it", "[unit]") {
  releases = 0;
  VendorCallScope::enter();
  {
    auto ref = unicl::VendorRef<cl_mem>::adopt(fake_mem());
  }
  CHECK(releases == 0);
  VendorCallScope::leave();
  CHECK(releases == 1);
  {
    auto ref = unicl::VendorRef<cl_mem>::adopt(fake_mem());
  }
  CHECK(releases == 2);  // outside a scope: at once
}

#ifndef NDEBUG
TEST_CASE("a vendor call inside a scope stops a build with assertions", "[unit]") {
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::signal(SIGABRT, SIG_DFL);
    VendorCallScope::enter();
    unicl::vendor_table(fake_mem()).clReleaseMemObject(fake_mem());
    _exit(0);  // not reached
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGABRT);
}
#endif

TEST_CASE("an issue queue runs what was posted in a scope after it, in post order", "[unit]") {
  auto queue = std::make_shared<IssueQueue>();
  std::vector<int> ran;
  VendorCallScope::enter();
  for (int i = 0; i < 3; ++i) queue->post([&ran, i] { ran.push_back(i); });
  CHECK(ran.empty());
  VendorCallScope::leave();
  CHECK(ran == std::vector<int>{0, 1, 2});
  queue->post([&ran] { ran.push_back(3); });  // outside a scope: at once
  CHECK(ran.size() == 4);
}

TEST_CASE("threads posting to one issue queue see their ops run in post order before they go on", "[unit]") {
  auto queue = std::make_shared<IssueQueue>();
  std::mutex plan;  // stands for the context lock: posting order is plan order
  std::vector<int> order, expected;
  std::mutex order_mutex;
  std::atomic<int> next{0};
  std::vector<std::thread> threads;
  std::atomic<int> missing{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        auto done = std::make_shared<std::atomic<bool>>(false);
        {
          std::lock_guard lock(plan);
          VendorCallScope::enter();
          int n = next++;
          queue->post([&, n, done] {
            std::lock_guard l(order_mutex);
            order.push_back(n);
            done->store(true);
          });
          VendorCallScope::defer([] {});  // keeps the scope's deferred list non-trivial
        }
        VendorCallScope::leave();  // drains: this thread's op has run on return
        if (!done->load()) missing.fetch_add(1);
      }
    });
  for (auto &t : threads) t.join();
  CHECK(missing == 0);
  for (int i = 0; i < 800; ++i) expected.push_back(i);
  CHECK(order == expected);
}
