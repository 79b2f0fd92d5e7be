// Releases the bad-input targets when the test run ends, while every vendor
// can still be called (bad_input_targets.hpp says why not at exit).
// Catch declares its listener base only with this set.
#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include "bad_input_targets.hpp"

namespace {

struct ReleaseTargets : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testRunEnded(const Catch::TestRunStats &) override { bad::target_storage().reset(); }
};

}  // namespace

CATCH_REGISTER_LISTENER(ReleaseTargets)
