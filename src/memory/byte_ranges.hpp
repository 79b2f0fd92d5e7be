// Validity and access history per byte range of a root buffer.
//
// Why: coherence used to keep one "valid" flag per location (each device
// slot, then the host copy) for a whole root buffer, so a write through a
// sub-buffer or at an offset made every other copy of the whole buffer
// stale, and making a copy valid moved the whole buffer. These maps keep
// the same facts per byte range instead: two devices can write disjoint
// halves of one buffer at once, and reading a range moves only that range.
//
// How the coherence layer uses them: each root buffer holds one
// RangeCoherence<Token>, where Token is what it orders commands with (a
// vendor event and the slot it belongs to). Before a command on location l
// touches [offset, offset + length), the layer asks validity().missing()
// what l lacks and who holds it, has the TransferPlanner route those bytes,
// waits for transfer_waits() of each step, issues it and records it with
// copy(); then the command waits for command_waits() and is recorded with
// write() or read(). Schedulers read validity().valid_bytes(); eviction
// writes back validity().sole_ranges(l) before drop(l).
//
// Every map is an ordered map from interval starts to a value, with equal
// neighbours merged, so an operation on k intervals costs O(log n + k) and
// a full-buffer write leaves one interval however fragmented the buffer was.
// Nothing here locks: the coherence layer calls it under the context's lock.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace unicl {

// A place that can hold a copy of a buffer's bytes: a device slot of the
// context, or the host copy (numbered after the slots).
using Location = std::size_t;

// A set of locations, one bit each: small, cheap to copy and to compare,
// which the interval maps rely on to split and merge intervals. Four words
// hold the largest context UniCL makes (255 devices and the host).
class LocationSet {
  static constexpr std::size_t kWords = 4;
  using Words = std::array<std::uint64_t, kWords>;

 public:
  static constexpr std::size_t kCapacity = 64 * kWords;

  constexpr LocationSet() = default;
  static constexpr LocationSet only(Location l) {
    LocationSet s;
    s.insert(l);
    return s;
  }
  // Locations 0 .. n-1.
  static constexpr LocationSet first(std::size_t n) {
    LocationSet s;
    for (std::size_t w = 0; w < kWords && n > 64 * w; ++w)
      s.words_[w] = n - 64 * w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (n - 64 * w)) - 1;
    return s;
  }

  constexpr bool contains(Location l) const { return l < kCapacity && (words_[l / 64] & bit(l)) != 0; }
  constexpr void insert(Location l) { words_[word(l)] |= bit(l); }
  constexpr void erase(Location l) { words_[word(l)] &= ~bit(l); }
  constexpr bool empty() const {
    for (auto w : words_)
      if (w) return false;
    return true;
  }
  constexpr std::size_t size() const {
    std::size_t n = 0;
    for (auto w : words_) n += static_cast<std::size_t>(std::popcount(w));
    return n;
  }
  constexpr bool operator==(const LocationSet &) const = default;
  constexpr LocationSet operator|(LocationSet o) const { return combine(o, [](auto a, auto b) { return a | b; }); }
  constexpr LocationSet operator&(LocationSet o) const { return combine(o, [](auto a, auto b) { return a & b; }); }
  constexpr LocationSet operator^(LocationSet o) const { return combine(o, [](auto a, auto b) { return a ^ b; }); }

  // Iterates the members in increasing order.
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Location;
    using difference_type = std::ptrdiff_t;
    using pointer = const Location *;
    using reference = Location;
    constexpr iterator() = default;
    constexpr explicit iterator(const Words &rest) : rest_(rest), word_(0) { skip_empty(); }
    constexpr Location operator*() const {
      return static_cast<Location>(64 * word_ + static_cast<std::size_t>(std::countr_zero(rest_[word_])));
    }
    constexpr iterator &operator++() {
      rest_[word_] &= rest_[word_] - 1;
      skip_empty();
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    constexpr bool operator==(const iterator &o) const { return word_ == o.word_ && rest_ == o.rest_; }

   private:
    constexpr void skip_empty() {
      while (word_ < kWords && rest_[word_] == 0) ++word_;
    }
    Words rest_{};
    std::size_t word_ = kWords;  // kWords: the end
  };
  constexpr iterator begin() const { return iterator(words_); }
  constexpr iterator end() const { return iterator(); }

 private:
  static constexpr std::size_t word(Location l) {
    if (l >= kCapacity) throw std::out_of_range("location beyond LocationSet capacity");
    return l / 64;
  }
  static constexpr std::uint64_t bit(Location l) { return std::uint64_t{1} << (l % 64); }
  template <class Op>
  constexpr LocationSet combine(LocationSet o, Op op) const {
    LocationSet s;
    for (std::size_t w = 0; w < kWords; ++w) s.words_[w] = op(words_[w], o.words_[w]);
    return s;
  }
  Words words_{};
};

// [offset, offset + length) of a root buffer.
struct ByteRange {
  std::size_t offset = 0;
  std::size_t length = 0;
  constexpr std::size_t end() const { return offset + length; }
  constexpr bool operator==(const ByteRange &) const = default;
};

// Bytes some location lacks, and the locations that hold them (empty when
// no location does: contents lost or never defined).
struct MissingRange {
  ByteRange range;
  LocationSet holders;
  bool operator==(const MissingRange &) const = default;
};

namespace detail {

// Throws std::out_of_range unless r lies within [0, size).
void check_range(ByteRange r, std::size_t size);

// A value for every byte of [0, size), stored as the starts of maximal
// runs of equal values. Invariant: no two neighbouring runs are equal.
template <std::equality_comparable V>
class ByteIntervalMap {
 public:
  ByteIntervalMap(std::size_t size, V initial) : size_(size) {
    if (size_ > 0) runs_.emplace(0, std::move(initial));
  }

  std::size_t size() const { return size_; }
  std::size_t intervals() const { return runs_.size(); }

  // Calls f(piece, const V &) for each run overlapping r, clipped to r.
  template <class F>
  void visit(ByteRange r, F &&f) const {
    check_range(r, size_);
    if (r.length == 0) return;
    auto it = std::prev(runs_.upper_bound(r.offset));
    while (it != runs_.end() && it->first < r.end()) {
      auto next = std::next(it);
      std::size_t stop = next == runs_.end() ? size_ : next->first;
      std::size_t start = std::max(it->first, r.offset);
      f(ByteRange{start, std::min(stop, r.end()) - start}, it->second);
      it = next;
    }
  }

  // Calls f(piece, V &) for each run within r after splitting runs at r's
  // ends, then merges equal neighbours again.
  template <class F>
  void update(ByteRange r, F &&f) {
    check_range(r, size_);
    if (r.length == 0) return;
    auto first = split(r.offset);
    auto last = r.end() == size_ ? runs_.end() : split(r.end());
    for (auto it = first; it != last; ++it) {
      std::size_t stop = std::next(it) == runs_.end() ? size_ : std::next(it)->first;
      f(ByteRange{it->first, stop - it->first}, it->second);
    }
    merge(first == runs_.begin() ? first : std::prev(first), last);
  }

  // Calls f(piece, V &) for every run, then merges equal neighbours.
  template <class F>
  void update_all(F &&f) {
    for (auto it = runs_.begin(); it != runs_.end(); ++it) {
      std::size_t stop = std::next(it) == runs_.end() ? size_ : std::next(it)->first;
      f(ByteRange{it->first, stop - it->first}, it->second);
    }
    if (!runs_.empty()) merge(runs_.begin(), runs_.end());
  }

 private:
  using Runs = std::map<std::size_t, V>;

  // The run starting at `at` (< size), splitting the run containing it.
  typename Runs::iterator split(std::size_t at) {
    auto it = std::prev(runs_.upper_bound(at));
    if (it->first == at) return it;
    return runs_.emplace_hint(std::next(it), at, it->second);
  }

  // Merges equal neighbours from `from` up to and including `last` (or to
  // the end). Runs past `last` were merged before and are left unchanged.
  void merge(typename Runs::iterator from, typename Runs::iterator last) {
    for (auto it = from;;) {
      auto next = std::next(it);
      if (next == runs_.end()) return;
      bool at_last = next == last;
      if (it->second == next->second) runs_.erase(next);
      else it = next;
      if (at_last) return;
    }
  }

  std::size_t size_;
  Runs runs_;
};

}  // namespace detail

// Which locations hold valid bytes, for every byte of a root buffer.
class RangeValidity {
 public:
  // Throws std::invalid_argument when locations exceeds LocationSet::kCapacity.
  RangeValidity(std::size_t bytes, std::size_t locations, LocationSet initially_valid);

  std::size_t size() const { return map_.size(); }
  std::size_t locations() const { return locations_; }

  // Something at l changed r: l holds the only valid copy of those bytes.
  void write(Location l, ByteRange r);
  // r was copied from src to dst: dst now holds what src held, so dst is
  // valid exactly where src was (a stale source gives a stale copy).
  void copy(Location src, Location dst, ByteRange r);
  // The program no longer needs r's contents (undefined from now on): every
  // location counts as holding them, so nothing will ever move them.
  void mark_undefined(ByteRange r);
  // l's copy is gone: l holds nothing.
  void drop(Location l);
  // Copy l no longer holds r (a transfer into it failed).
  void forget(Location l, ByteRange r);

  bool valid_at(Location l, ByteRange r) const;
  // The pieces of r that l lacks, each with the locations holding it;
  // neighbouring pieces with the same holders come as one.
  std::vector<MissingRange> missing(Location l, ByteRange r) const;
  // Bytes valid at l, in the whole buffer (O(1)) or within r.
  std::size_t valid_bytes(Location l) const;
  std::size_t valid_bytes(Location l, ByteRange r) const;
  // Locations holding the only valid copy of at least one byte.
  LocationSet sole_holders() const;
  // The ranges only l holds: what must be written elsewhere before drop(l).
  std::vector<ByteRange> sole_ranges(Location l) const;
  std::size_t intervals() const { return map_.intervals(); }

 private:
  void check_location(Location l) const;
  // Sets a run's holders, keeping the per-location byte counts right.
  void assign(ByteRange piece, LocationSet &holders, LocationSet now);

  std::size_t locations_;
  detail::ByteIntervalMap<LocationSet> map_;
  std::vector<std::size_t> valid_bytes_;  // per location
};

// Per location and byte range, the last access that wrote the location's
// copy and the accesses that read it since: what a later access of exactly
// those bytes of that copy must be ordered after. Kept per location because
// each copy is separate memory: a transfer into a copy must wait for the
// commands still reading or writing that copy's old bytes, not for those of
// other copies.
template <std::equality_comparable Token>
class RangeHistory {
 public:
  struct Track {
    std::optional<Token> writer;
    std::vector<Token> readers;
    bool operator==(const Track &) const = default;
  };

  RangeHistory(std::size_t bytes, std::size_t locations) : tracks_(locations, detail::ByteIntervalMap<Track>(bytes, {})) {}

  std::size_t size() const { return tracks_.empty() ? 0 : tracks_.front().size(); }

  // `t` wrote r of l's copy: it is the writer there and no one read since.
  void wrote(Location l, ByteRange r, const Token &t) {
    at(l).update(r, [&](ByteRange, Track &track) {
      track.writer = t;
      track.readers.clear();
    });
  }

  // `t` read r of l's copy.
  void read(Location l, ByteRange r, const Token &t) {
    at(l).update(r, [&](ByteRange, Track &track) {
      if (!contains(track.readers, t)) track.readers.push_back(t);
    });
  }

  // What an access of r of l's copy must wait for: the writers of those
  // bytes, and also their readers when the access writes. No duplicates.
  std::vector<Token> hazards(Location l, ByteRange r, bool writing) const {
    std::vector<Token> out;
    add_hazards(l, r, writing, out);
    return out;
  }
  void add_hazards(Location l, ByteRange r, bool writing, std::vector<Token> &out) const {
    at(l).visit(r, [&](ByteRange, const Track &track) {
      if (track.writer && !contains(out, *track.writer)) out.push_back(*track.writer);
      if (writing)
        for (const Token &t : track.readers)
          if (!contains(out, t)) out.push_back(t);
    });
  }

  // l's copy is gone: nothing of it needs waiting for.
  void forget(Location l) { at(l) = detail::ByteIntervalMap<Track>(size(), {}); }

  // Forgets every token for which finished(token) is true (commands that
  // completed need no ordering), which also lets runs merge again.
  template <class Finished>
  void prune(Finished &&finished) {
    for (auto &map : tracks_)
      map.update_all([&](ByteRange, Track &track) {
        if (track.writer && finished(*track.writer)) track.writer.reset();
        std::erase_if(track.readers, [&](const Token &t) { return finished(t); });
      });
  }

  const Track *track_at(Location l, std::size_t byte) const {
    const Track *found = nullptr;
    at(l).visit({byte, 1}, [&](ByteRange, const Track &track) { found = &track; });
    return found;
  }
  std::size_t intervals(Location l) const { return at(l).intervals(); }

 private:
  static bool contains(const std::vector<Token> &list, const Token &t) {
    for (const Token &x : list)
      if (x == t) return true;
    return false;
  }
  detail::ByteIntervalMap<Track> &at(Location l) {
    if (l >= tracks_.size()) throw std::out_of_range("location out of range");
    return tracks_[l];
  }
  const detail::ByteIntervalMap<Track> &at(Location l) const {
    if (l >= tracks_.size()) throw std::out_of_range("location out of range");
    return tracks_[l];
  }

  std::vector<detail::ByteIntervalMap<Track>> tracks_;
};

// Validity and history of one root buffer, kept in step: the rules of what
// a command or a transfer does to both live here.
template <std::equality_comparable Token>
class RangeCoherence {
 public:
  RangeCoherence(std::size_t bytes, std::size_t locations, LocationSet initially_valid)
      : validity_(bytes, locations, initially_valid), history_(bytes, locations) {}

  const RangeValidity &validity() const { return validity_; }
  const RangeHistory<Token> &history() const { return history_; }

  // What a command on l accessing r waits for (after l was made valid).
  std::vector<Token> command_waits(Location l, ByteRange r, bool writing) const {
    return history_.hazards(l, r, writing);
  }
  // What a transfer of r from src to dst waits for: the bytes being ready
  // at src, and the end of every access of dst's old bytes.
  std::vector<Token> transfer_waits(Location src, Location dst, ByteRange r) const {
    std::vector<Token> out;
    history_.add_hazards(src, r, false, out);
    history_.add_hazards(dst, r, true, out);
    return out;
  }

  // Command `t` on l wrote r: l holds the only valid copy.
  void write(Location l, ByteRange r, const Token &t) {
    validity_.write(l, r);
    history_.wrote(l, r, t);
  }
  // Command `t` on l read r.
  void read(Location l, ByteRange r, const Token &t) { history_.read(l, r, t); }
  // Transfer `t` copied r from src to dst.
  void copy(Location src, Location dst, ByteRange r, const Token &t) {
    validity_.copy(src, dst, r);
    history_.read(src, r, t);
    history_.wrote(dst, r, t);
  }
  void mark_undefined(ByteRange r) { validity_.mark_undefined(r); }
  // A transfer of r into dst failed: dst does not hold those bytes after
  // all. Its record stays in the history (what waited for it still does).
  void copy_failed(Location dst, ByteRange r) { validity_.forget(dst, r); }
  // Eviction of l's copy (after writing back sole_ranges(l)).
  void drop(Location l) {
    validity_.drop(l);
    history_.forget(l);
  }
  template <class Finished>
  void prune(Finished &&finished) {
    history_.prune(std::forward<Finished>(finished));
  }

 private:
  RangeValidity validity_;
  RangeHistory<Token> history_;
};

}  // namespace unicl
