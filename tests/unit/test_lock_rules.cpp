// The lock-rule checks (backend/lock_rules.hpp): in a build configured with
// -Dlock_checks=true a rule's check passes while this thread holds the lock
// and stops the program otherwise (run in a child: its end is the check);
// in other builds the check is compiled out.
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "backend/lock_rules.hpp"

namespace {

// How a child that runs `body` ends: the signal that stopped it, or 0.
template <class Body>
int child_signal(Body body) {
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    body();
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

}  // namespace

TEST_CASE("a lock rule's check passes while this thread holds the lock", "[unit][locks]") {
  unicl::CheckedMutex m;
  std::lock_guard lock(m);
  CHECK(child_signal([&] { UNICL_HOLDS(m, "the test's rule"); }) == 0);
}

#if UNICL_LOCK_CHECKS
TEST_CASE("a lock rule broken stops the program, naming the rule", "[unit][locks]") {
  unicl::CheckedMutex m;
  CHECK(child_signal([&] { UNICL_HOLDS(m, "the test's rule"); }) == SIGABRT);
  // Held by another thread is not held here.
  std::atomic<bool> held{false}, done{false};
  std::thread holder([&] {
    std::lock_guard lock(m);
    held = true;
    while (!done) std::this_thread::yield();
  });
  while (!held) std::this_thread::yield();
  CHECK(child_signal([&] { UNICL_HOLDS(m, "the test's rule"); }) == SIGABRT);
  done = true;
  holder.join();
  // Taken and let go: not held.
  m.lock();
  m.unlock();
  CHECK(child_signal([&] { UNICL_HOLDS(m, "the test's rule"); }) == SIGABRT);
}
#else
TEST_CASE("without -Dlock_checks the checks are compiled out", "[unit][locks]") {
  unicl::CheckedMutex m;
  CHECK(child_signal([&] { UNICL_HOLDS(m, "the test's rule"); }) == 0);
}
#endif
