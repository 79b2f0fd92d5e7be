// UNICL_LOG as the process started with it, for the node client's messages
// on stderr (1: nodes joining, networks measured, messages counted at exit;
// 2: also each refusal, refusal.hpp). The client is a vendor library
// of its own (it links no core): it reads the level itself, once, as UniCL
// reads its own.
#pragma once

namespace unicl::cluster {

int log_level();

}  // namespace unicl::cluster
