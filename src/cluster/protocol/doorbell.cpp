#include "cluster/protocol/doorbell.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <utility>

namespace unicl::cluster {
namespace {

// The byte a ring carries, and the one that wakes the listener to stop
// (sent by its owner to itself, after setting its flag).
constexpr char kRing = 'r', kStop = 's';

sockaddr_in address_of(uint32_t ip, uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = ip;
  a.sin_port = port;
  return a;
}

}  // namespace

DoorbellListener::DoorbellListener(std::function<void()> on_ring) : on_ring_(std::move(on_ring)) {
  fd_ = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return;
  sockaddr_in any = address_of(htonl(INADDR_ANY), 0);
  socklen_t length = sizeof any;
  if (bind(fd_, reinterpret_cast<sockaddr *>(&any), sizeof any) != 0 ||
      getsockname(fd_, reinterpret_cast<sockaddr *>(&any), &length) != 0) {
    close(fd_);
    fd_ = -1;
    return;
  }
  port_ = ntohs(any.sin_port);
  thread_ = std::thread([this] { listen(); });
}

DoorbellListener::~DoorbellListener() {
  if (fd_ < 0) return;
  stopping_ = true;
  // Its own stop byte, through loopback: a blocked recv wakes for it.
  const sockaddr_in self = address_of(htonl(INADDR_LOOPBACK), htons(port_));
  if (sendto(fd_, &kStop, 1, 0, reinterpret_cast<const sockaddr *>(&self), sizeof self) != 1)
    shutdown(fd_, SHUT_RDWR);  // wakes it too, on Linux
  thread_.join();
  close(fd_);
}

void DoorbellListener::listen() {
  while (!stopping_) {
    char byte = 0;
    const ssize_t n = recv(fd_, &byte, 1, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || stopping_) return;  // shut down, or the stop byte (or a ring just before it)
    // The rings that came meanwhile are one (the stop byte among them is
    // seen by the flag).
    while (recv(fd_, &byte, 1, MSG_DONTWAIT) > 0) {
    }
    if (stopping_) return;
    on_ring_();
  }
}

namespace {

// This machine's IPv4 addresses (loopback last).
std::vector<std::string> machine_addresses() {
  std::vector<std::string> out;
  ifaddrs *all = nullptr;
  if (getifaddrs(&all) != 0) return out;
  bool loopback = false;
  for (ifaddrs *i = all; i; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP)) continue;
    if (i->ifa_flags & IFF_LOOPBACK) {
      loopback = true;
      continue;
    }
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in *>(i->ifa_addr)->sin_addr, text, sizeof text);
    out.emplace_back(text);
  }
  freeifaddrs(all);
  if (loopback) out.emplace_back("127.0.0.1");
  return out;
}

std::string host_name() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return host;
}

}  // namespace

DoorbellAt DoorbellListener::where() const {
  if (fd_ < 0) return {host_name(), 0, {}};
  return {host_name(), port_, machine_addresses()};
}

Doorbell::Doorbell(const DoorbellAt &at) {
  if (at.port == 0) return;
  const bool same_host = at.host == host_name();
  for (const std::string &text : at.addresses) {
    in_addr ip{};
    if (inet_pton(AF_INET, text.c_str(), &ip) != 1) continue;
    if (ip.s_addr == htonl(INADDR_LOOPBACK) && !same_host) continue;
    to_.push_back({ip.s_addr, htons(at.port)});
  }
  if (!to_.empty()) fd_ = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
}

Doorbell::~Doorbell() {
  if (fd_ >= 0) close(fd_);
}

Doorbell::Doorbell(Doorbell &&other) noexcept : fd_(std::exchange(other.fd_, -1)), to_(std::move(other.to_)) {}

Doorbell &Doorbell::operator=(Doorbell &&other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    to_ = std::move(other.to_);
  }
  return *this;
}

void Doorbell::ring() const {
  if (fd_ < 0) return;
  for (const Address &a : to_) {
    const sockaddr_in to = address_of(a.ip, a.port);
    // Non-blocking, unchecked: a ring that fails leaves the node polling.
    (void)sendto(fd_, &kRing, 1, 0, reinterpret_cast<const sockaddr *>(&to), sizeof to);
  }
}

}  // namespace unicl::cluster
