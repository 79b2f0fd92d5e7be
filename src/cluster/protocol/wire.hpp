// The bytes of a message between ranks: values appended in order by a
// Writer and read back in the same order by a Reader. Both ends are the same
// build of UniCL on machines of one byte order (checked at start-up by the
// protocol version's magic), so values travel as their in-memory bytes.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace unicl::cluster {

class Writer {
 public:
  template <class T>
    requires std::is_trivially_copyable_v<T>
  Writer &put(const T &v) {
    append(&v, sizeof v);
    return *this;
  }
  // A length, then the bytes.
  Writer &bytes(const void *data, size_t n) {
    put<uint64_t>(n);
    append(data, n);
    return *this;
  }
  Writer &text(const std::string &s) { return bytes(s.data(), s.size()); }
  // The bytes alone: the reader knows their length otherwise.
  Writer &raw(const void *data, size_t n) {
    append(data, n);
    return *this;
  }
  size_t size() const { return buffer_.size(); }
  const std::vector<char> &buffer() const { return buffer_; }
  std::vector<char> take() { return std::move(buffer_); }

 private:
  void append(const void *data, size_t n) {
    auto p = static_cast<const char *>(data);
    buffer_.insert(buffer_.end(), p, p + n);
  }
  std::vector<char> buffer_;
};

// Reading past the end throws Truncated: a message that does not hold what
// its kind promises is a protocol error, not undefined behaviour.
struct Truncated : std::runtime_error {
  Truncated() : std::runtime_error("truncated message") {}
};

class Reader {
 public:
  Reader(const char *data, size_t size) : at_(data), end_(data + size) {}
  explicit Reader(const std::vector<char> &v) : Reader(v.data(), v.size()) {}
  template <class T>
    requires std::is_trivially_copyable_v<T>
  T get() {
    T v;
    take(&v, sizeof v);
    return v;
  }
  std::vector<char> bytes() {
    auto n = get<uint64_t>();
    if (n > static_cast<uint64_t>(end_ - at_)) throw Truncated();
    std::vector<char> out(at_, at_ + n);
    at_ += n;
    return out;
  }
  std::string text() {
    auto b = bytes();
    return {b.begin(), b.end()};
  }
  // `n` bytes in place (valid while the message is): the reader knows
  // their length otherwise.
  const char *raw(size_t n) {
    if (n > static_cast<size_t>(end_ - at_)) throw Truncated();
    const char *p = at_;
    at_ += n;
    return p;
  }
  bool done() const { return at_ == end_; }
  size_t left() const { return static_cast<size_t>(end_ - at_); }

 private:
  void take(void *out, size_t n) {
    if (n > static_cast<size_t>(end_ - at_)) throw Truncated();
    std::memcpy(out, at_, n);
    at_ += n;
  }
  const char *at_, *end_;
};

// A message whose fields are all values (trivially copyable, or text)
// lists them once, `auto fields() { return std::tie(a, b, ...); }`, and
// that one list is how both ends write and read it, in that order.
template <class M>
concept FieldMessage = requires(M m) { m.fields(); };

// Fields may also be lists (a count, then each element), pairs and field
// messages of their own (their fields in turn); a list of values travels as
// one block (the same bytes as one by one).
namespace wire_detail {
template <class A, class B>
void put_field(Writer &w, const std::pair<A, B> &p);
template <class T>
void put_field(Writer &w, const std::vector<T> &v);
template <FieldMessage M>
void put_field(Writer &w, const M &m);
template <class A, class B>
void get_field(Reader &r, std::pair<A, B> &p);
template <class T>
void get_field(Reader &r, std::vector<T> &v);
template <FieldMessage M>
void get_field(Reader &r, M &m);

inline void put_field(Writer &w, const std::string &s) { w.text(s); }
template <class T>
  requires(std::is_trivially_copyable_v<T> && !FieldMessage<T>)
void put_field(Writer &w, const T &v) {
  w.put(v);
}
template <class A, class B>
void put_field(Writer &w, const std::pair<A, B> &p) {
  put_field(w, p.first), put_field(w, p.second);
}
template <class T>
void put_field(Writer &w, const std::vector<T> &v) {
  w.put(uint64_t{v.size()});
  if constexpr (std::is_trivially_copyable_v<T>) w.raw(v.data(), v.size() * sizeof(T));
  else
    for (const T &x : v) put_field(w, x);
}

template <FieldMessage M>
void put_field(Writer &w, const M &m) {
  std::apply([&](const auto &...f) { (put_field(w, f), ...); }, const_cast<M &>(m).fields());
}

inline void get_field(Reader &r, std::string &s) { s = r.text(); }
template <class T>
  requires(std::is_trivially_copyable_v<T> && !FieldMessage<T>)
void get_field(Reader &r, T &v) {
  v = r.get<T>();
}
template <class A, class B>
void get_field(Reader &r, std::pair<A, B> &p) {
  get_field(r, p.first), get_field(r, p.second);
}
template <class T>
void get_field(Reader &r, std::vector<T> &v) {
  const auto n = r.get<uint64_t>();
  v.clear();
  if constexpr (std::is_trivially_copyable_v<T>) {
    if (n > r.left() / sizeof(T)) throw Truncated();
    v.resize(n);
    if (n) std::memcpy(v.data(), r.raw(n * sizeof(T)), n * sizeof(T));
  } else {
    for (uint64_t i = 0; i < n; ++i) get_field(r, v.emplace_back());  // each throws once the message ends
  }
}
template <FieldMessage M>
void get_field(Reader &r, M &m) {
  std::apply([&](auto &...f) { (get_field(r, f), ...); }, m.fields());
}
}  // namespace wire_detail

template <FieldMessage M>
void write(Writer &w, const M &m) {
  wire_detail::put_field(w, m);
}
template <FieldMessage M>
M read_message(Reader &r) {
  M m;
  wire_detail::get_field(r, m);
  return m;
}

}  // namespace unicl::cluster
