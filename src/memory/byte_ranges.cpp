#include "byte_ranges.hpp"

namespace unicl {

namespace detail {

void check_range(ByteRange r, std::size_t size) {
  // Written so that offset + length cannot overflow.
  if (r.offset > size || r.length > size - r.offset) throw std::out_of_range("byte range beyond the buffer");
}

}  // namespace detail

RangeValidity::RangeValidity(std::size_t bytes, std::size_t locations, LocationSet initially_valid)
    : locations_(locations), map_(bytes, initially_valid & LocationSet::first(locations)), valid_bytes_(locations, 0) {
  if (locations > LocationSet::kCapacity) throw std::invalid_argument("more locations than a LocationSet holds");
  for (Location l : initially_valid & LocationSet::first(locations)) valid_bytes_[l] = bytes;
}

void RangeValidity::check_location(Location l) const {
  if (l >= locations_) throw std::out_of_range("location out of range");
}

void RangeValidity::assign(ByteRange piece, LocationSet &holders, LocationSet now) {
  for (Location l : holders ^ now) {
    if (now.contains(l)) valid_bytes_[l] += piece.length;
    else valid_bytes_[l] -= piece.length;
  }
  holders = now;
}

void RangeValidity::write(Location l, ByteRange r) {
  check_location(l);
  map_.update(r, [&](ByteRange piece, LocationSet &holders) { assign(piece, holders, LocationSet::only(l)); });
}

void RangeValidity::copy(Location src, Location dst, ByteRange r) {
  check_location(src);
  check_location(dst);
  if (src == dst) return;
  map_.update(r, [&](ByteRange piece, LocationSet &holders) {
    LocationSet now = holders;
    if (holders.contains(src)) now.insert(dst);
    else now.erase(dst);
    assign(piece, holders, now);
  });
}

void RangeValidity::mark_undefined(ByteRange r) {
  LocationSet all = LocationSet::first(locations_);
  map_.update(r, [&](ByteRange piece, LocationSet &holders) { assign(piece, holders, all); });
}

void RangeValidity::forget(Location l, ByteRange r) {
  check_location(l);
  map_.update(r, [&](ByteRange piece, LocationSet &holders) {
    LocationSet now = holders;
    now.erase(l);
    assign(piece, holders, now);
  });
}

void RangeValidity::drop(Location l) {
  check_location(l);
  map_.update_all([&](ByteRange piece, LocationSet &holders) {
    LocationSet now = holders;
    now.erase(l);
    assign(piece, holders, now);
  });
}

bool RangeValidity::valid_at(Location l, ByteRange r) const {
  check_location(l);
  bool valid = true;
  map_.visit(r, [&](ByteRange, const LocationSet &holders) { valid = valid && holders.contains(l); });
  return valid;
}

std::vector<MissingRange> RangeValidity::missing(Location l, ByteRange r) const {
  check_location(l);
  std::vector<MissingRange> out;
  map_.visit(r, [&](ByteRange piece, const LocationSet &holders) {
    // Neighbouring runs differ, so neighbouring pieces need no joining.
    if (!holders.contains(l)) out.push_back({piece, holders});
  });
  return out;
}

std::size_t RangeValidity::valid_bytes(Location l) const {
  check_location(l);
  return valid_bytes_[l];
}

std::size_t RangeValidity::valid_bytes(Location l, ByteRange r) const {
  check_location(l);
  std::size_t total = 0;
  map_.visit(r, [&](ByteRange piece, const LocationSet &holders) {
    if (holders.contains(l)) total += piece.length;
  });
  return total;
}

LocationSet RangeValidity::sole_holders() const {
  LocationSet out;
  map_.visit({0, size()}, [&](ByteRange, const LocationSet &holders) {
    if (holders.size() == 1) out = out | holders;
  });
  return out;
}

std::vector<ByteRange> RangeValidity::sole_ranges(Location l) const {
  check_location(l);
  std::vector<ByteRange> out;
  LocationSet only = LocationSet::only(l);
  map_.visit({0, size()}, [&](ByteRange piece, const LocationSet &holders) {
    if (holders == only) out.push_back(piece);
  });
  return out;
}

}  // namespace unicl
