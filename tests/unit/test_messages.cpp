// The messages rank 0 and the nodes exchange (src/cluster/protocol/
// messages.hpp), each written the way one end writes it and read back the
// way the other reads it: what is read is what was written, all of it, and
// a message cut short is refused (Truncated), never read past its end.
#include <catch2/catch.hpp>

#include <cstring>

#include "cluster/protocol/messages.hpp"

using namespace unicl::cluster;

// For comparing CreateImage's fields (found by argument-dependent lookup).
inline bool operator==(const cl_image_format &a, const cl_image_format &b) {
  return a.image_channel_order == b.image_channel_order && a.image_channel_data_type == b.image_channel_data_type;
}

namespace {

// Reads `read(reader)` back from what `w` holds, checking that every byte
// was read; then checks that each shorter prefix is refused.
template <class Read>
auto round_trip(const Writer &w, Read &&read) {
  Reader r(w.buffer());
  auto back = read(r);
  CHECK(r.done());
  for (size_t cut = 0; cut < w.size(); ++cut) {
    INFO("cut at " << cut << " of " << w.size());
    std::vector<char> prefix(w.buffer().begin(), w.buffer().begin() + static_cast<std::ptrdiff_t>(cut));
    Reader short_reader(prefix);
    CHECK_THROWS_AS(read(short_reader), Truncated);
  }
  return back;
}

// A message of listed fields (FieldMessage) back as written.
template <class M>
void check_fields_round_trip(M m) {
  Writer w;
  write(w, m);
  M back = round_trip(w, read_message<M>);
  CHECK(back.fields() == m.fields());
}

InfoAnswers answers_of(std::initializer_list<std::pair<cl_uint, std::string>> list) {
  InfoAnswers a;
  for (auto &[param, text] : list) a[param] = std::vector<char>(text.begin(), text.end());
  return a;
}

}  // namespace

TEST_CASE("A command's header: its queue, wait list, event and flags") {
  CommandHeader h;
  h.queue = 7, h.wait = {3, 1ull << 40, 9}, h.event = 12, h.flags = kPrompt;
  Writer w;
  write(w, h);
  auto back = round_trip(w, read_command_header);
  CHECK(back.queue == 7);
  CHECK(back.wait == h.wait);
  CHECK(back.event == 12);
  CHECK(back.flags == kPrompt);
}

TEST_CASE("A launch's changed arguments, of every kind") {
  KernelArg bytes{ArgKind::kBytes, {'a', 'b', 'c', 'd'}, 0, 0}, memory{ArgKind::kMemory, {}, 42, 0},
      local{ArgKind::kLocal, {}, 0, 4096}, sampler{ArgKind::kSampler, {}, 5, 0}, null{ArgKind::kNullMemory, {}, 0, 0};
  std::vector<std::pair<cl_uint, const KernelArg *>> changed = {
      {0, &bytes}, {1, &memory}, {2, &local}, {5, &sampler}, {7, &null}};
  Writer w;
  write_args(w, changed);
  auto back = round_trip(w, read_args);
  REQUIRE(back.size() == changed.size());
  for (size_t i = 0; i < back.size(); ++i) {
    CHECK(back[i].first == changed[i].first);
    CHECK(back[i].second == *changed[i].second);
  }
}

TEST_CASE("A launch's shape: the sizes given, the spec's defaults past its dimensions") {
  const size_t offset[] = {2, 4}, global[] = {64, 32}, local[] = {8, 8};
  SECTION("everything given") {
    LaunchShape s = LaunchShape::of(2, offset, global, local);
    CHECK(s.global[2] == 1);
    CHECK(s.local[2] == 1);
    CHECK(s.offset[2] == 0);
    Writer w;
    write(w, s);
    CHECK(round_trip(w, read_launch_shape) == s);
  }
  SECTION("no offset, no local size") {
    LaunchShape s = LaunchShape::of(1, nullptr, global, nullptr);
    CHECK_FALSE(s.has_offset);
    CHECK_FALSE(s.has_local);
    CHECK(s.global[0] == 64);
    CHECK(s.global[1] == 1);
    Writer w;
    write(w, s);
    CHECK(round_trip(w, read_launch_shape) == s);
  }
}

TEST_CASE("A launch as the client writes it, read as the node reads it") {
  // kNDRange after its command header: the kernel, its changed arguments,
  // its shape (client/launch.cpp, node/enqueues.cpp).
  KernelArg scalar{ArgKind::kBytes, {1, 0, 0, 0}, 0, 0};
  const size_t global[] = {256};
  Writer w;
  w.put(uint64_t{99});
  write_args(w, {{2, &scalar}});
  write(w, LaunchShape::of(1, nullptr, global, nullptr));
  auto back = round_trip(w, [](Reader &r) {
    const auto kernel = r.get<uint64_t>();
    auto args = read_args(r);
    const auto shape = read_launch_shape(r);
    return std::make_tuple(kernel, args, shape);
  });
  CHECK(std::get<0>(back) == 99);
  REQUIRE(std::get<1>(back).size() == 1);
  CHECK(std::get<1>(back)[0].second == scalar);
  CHECK(std::get<2>(back).global[0] == 256);
}

TEST_CASE("Spans of a buffer's bytes, and copies between two") {
  ByteSpan span{4096, 1 << 20};
  Writer w;
  write(w, span);
  CHECK(round_trip(w, read_message<ByteSpan>) == span);
  SpanCopy copy{16, 32, 64};
  Writer v;
  write(v, copy);
  CHECK(round_trip(v, read_message<SpanCopy>) == copy);
}

TEST_CASE("The two sides of a copy between nodes") {
  for (bool here : {false, true}) {
    INFO((here ? "source on the same node" : "source on another node"));
    PeerCopyIn receive{7, 64, 1 << 22, here, here ? 9u : 0u, here ? 128u : 0u};
    Writer w;
    write(w, receive);
    CHECK(round_trip(w, read_peer_copy_in) == receive);
  }
  PeerCopyOut send{9, 128, 1 << 22, 2, 77};
  Writer w;
  write(w, send);
  CHECK(round_trip(w, read_message<PeerCopyOut>) == send);
}

TEST_CASE("Boxes of images and buffer rectangles, and copies between them") {
  const size_t origin[] = {1, 2, 3}, region[] = {16, 8, 2}, to[] = {4, 0, 1};
  Box box{size3(origin), size3(region)};
  CHECK(box.volume() == 256);
  CHECK(size3(nullptr) == Size3{0, 0, 0});
  {
    Writer w;
    w.put(uint64_t{5});  // the image's id first, as a command carries it
    write(w, box);
    auto back = round_trip(w, [](Reader &r) {
      const auto id = r.get<uint64_t>();  // read in order: a call's arguments are not
      return std::make_pair(id, read_message<Box>(r));
    });
    CHECK(back.first == 5);
    CHECK(back.second == box);
  }
  {
    BufferRect rect{box, 64, 1024};
    Writer w;
    write(w, rect);
    CHECK(round_trip(w, read_message<BufferRect>) == rect);
  }
  {
    BoxCopy copy{size3(origin), size3(to), size3(region)};
    Writer w;
    write(w, copy);
    CHECK(round_trip(w, read_message<BoxCopy>) == copy);
    BufferRectCopy rect_copy{copy, 64, 1024, 32, 512};
    Writer v;
    write(v, rect_copy);
    CHECK(round_trip(v, read_message<BufferRectCopy>) == rect_copy);
  }
}

TEST_CASE("A report's entry: a command's end, its times, the bytes it brings") {
  EventEnded e;
  e.id = 31, e.status = CL_COMPLETE, e.queued = 1, e.submit = 2, e.start = 3, e.end = 4, e.bytes = 16;
  Writer w;
  write(w, e);
  auto back = round_trip(w, read_event_ended);
  CHECK(back.id == 31);
  CHECK(back.status == CL_COMPLETE);
  CHECK((back.queued == 1 && back.submit == 2 && back.start == 3 && back.end == 4));
  CHECK(back.bytes == 16);
  // Onto another clock, either way; unknown times stay unknown.
  EventEnded moved = e;
  moved.queued = 0;
  moved.shift_times(1000);
  CHECK((moved.queued == 0 && moved.submit == 1002 && moved.end == 1004));
  moved.shift_times(-uint64_t{1000});
  CHECK((moved.queued == 0 && moved.submit == 2 && moved.start == 3 && moved.end == 4));
  // A command of parts began before its last vendor command: START moves
  // back, SUBMIT and QUEUED with it, never forward.
  EventEnded parts;
  parts.queued = 100, parts.submit = 110, parts.start = 500, parts.end = 510;
  parts.start_at(120);
  CHECK((parts.queued == 100 && parts.submit == 110 && parts.start == 120 && parts.end == 510));
  parts.start_at(50);
  CHECK((parts.queued == 50 && parts.submit == 50 && parts.start == 50));
  parts.start_at(0);
  parts.start_at(300);
  CHECK(parts.start == 50);
  EventEnded failed;
  failed.id = 32, failed.status = CL_OUT_OF_RESOURCES;
  Writer f;
  write(f, failed);
  CHECK(round_trip(f, read_event_ended).status == CL_OUT_OF_RESOURCES);
}

TEST_CASE("Info answers, a program's facts and a node's description") {
  InfoAnswers info = answers_of({{CL_DEVICE_NAME, "gpu0"}, {CL_DEVICE_VENDOR, "UniCL"}, {CL_DEVICE_VERSION, ""}});
  {
    Writer w;
    write(w, info);
    CHECK(round_trip(w, read_info) == info);
  }
  ProgramFacts facts;
  facts.build = answers_of({{CL_PROGRAM_BUILD_LOG, "ok"}});
  facts.program = answers_of({{CL_PROGRAM_NUM_KERNELS, "1"}});
  facts.kernels.push_back({"mm_block", answers_of({{CL_KERNEL_NUM_ARGS, "4"}}),
                           answers_of({{CL_KERNEL_WORK_GROUP_SIZE, "256"}}), {answers_of({{CL_KERNEL_ARG_NAME, "a"}})}});
  {
    Writer w;
    write(w, facts);
    auto back = round_trip(w, read_program_facts);
    CHECK(back.build == facts.build);
    CHECK(back.program == facts.program);
    REQUIRE(back.kernels.size() == 1);
    CHECK(back.kernels[0].name == "mm_block");
    CHECK(back.kernels[0].info == facts.kernels[0].info);
    CHECK(back.kernels[0].work_group == facts.kernels[0].work_group);
    CHECK(back.kernels[0].args == facts.kernels[0].args);
  }
  NodeDescription node;
  node.host = "vm", node.unicl_version = "1.0", node.topology = "Machine (24GB)";
  node.platforms.push_back({11, answers_of({{CL_PLATFORM_NAME, "PoCL"}}), {{21, info}, {22, {}}}});
  node.doorbell = {"vm", 40123, {"10.0.0.2", "127.0.0.1"}};
  {
    Writer w;
    write(w, node);
    auto back = round_trip(w, read_node);
    CHECK(back.host == "vm");
    CHECK(back.unicl_version == "1.0");
    CHECK(back.topology == node.topology);
    REQUIRE(back.platforms.size() == 1);
    CHECK(back.platforms[0].id == 11);
    CHECK(back.platforms[0].info == node.platforms[0].info);
    REQUIRE(back.platforms[0].devices.size() == 2);
    CHECK(back.platforms[0].devices[0].id == 21);
    CHECK(back.platforms[0].devices[0].info == info);
    CHECK(back.platforms[0].devices[1].info.empty());
    CHECK(back.doorbell.host == "vm");
    CHECK(back.doorbell.port == 40123);
    CHECK(back.doorbell.addresses == node.doorbell.addresses);
  }
}

TEST_CASE("The posted creations and the status of a user event, each a list of fields") {
  check_fields_round_trip(CreateContext{1, 0xdead});
  check_fields_round_trip(CreateQueue{2, 1, 0xdead, CL_QUEUE_PROFILING_ENABLE});
  check_fields_round_trip(CreateBuffer{3, 1, CL_MEM_READ_ONLY, 1 << 20});
  check_fields_round_trip(CreateSubBuffer{4, 3, CL_MEM_READ_ONLY, 4096, 8192});
  check_fields_round_trip(CreateImage{5, 1, CL_MEM_READ_WRITE, {CL_RGBA, CL_UNORM_INT8}, CL_MEM_OBJECT_IMAGE2D, 64, 32,
                                      1, 1, 0});
  check_fields_round_trip(CreateSampler{6, 1, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR});
  check_fields_round_trip(CreateProgram{7, 1, "__kernel void k(__global int *a) { a[0] = 1; }"});
  check_fields_round_trip(CreateKernel{8, 7, "k"});
  check_fields_round_trip(CreateUserEvent{9, 1});
  check_fields_round_trip(SetUserEventStatus{9, CL_OUT_OF_RESOURCES});
  check_fields_round_trip(ImageFormats{1, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE3D});
}

TEST_CASE("The other requests of plain fields") {
  check_fields_round_trip(Hello{});
  check_fields_round_trip(DoorbellAt{"vm", 40123, {"192.0.2.2", "127.0.0.1"}});
  CHECK(Hello{}.magic == kMagic);
  CHECK(Hello{}.version == kProtocolVersion);
  check_fields_round_trip(PingPong{1 << 20, 4});
  check_fields_round_trip(PingPongWith{3, 1 << 20, 4});
  check_fields_round_trip(PeerCancel{77, CL_DEVICE_NOT_AVAILABLE});
  check_fields_round_trip(Release{ObjectKind::kKernel, 12});
  check_fields_round_trip(ReportNow{0});
  check_fields_round_trip(WriteBytes{31, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST});
  check_fields_round_trip(InfoQuery{ObjectKind::kProgram, 7, CL_PROGRAM_BINARY_SIZES, 0});
  check_fields_round_trip(BufferWrite{3, 4096});
}

TEST_CASE("Programs: from a binary, a build, a compilation with headers, a link of inputs") {
  check_fields_round_trip(CreateProgramBinary{10, 1, 0xdead, {'\x7f', 'E', 'L', 'F', '\0', '\1'}});
  check_fields_round_trip(CreateProgramBinary{10, 1, 0xdead, {}});
  check_fields_round_trip(BuildProgram{7, 0xdead, "-cl-fast-relaxed-math"});
  check_fields_round_trip(CompileProgram{7, 0xdead, "", {{11, "a.h"}, {12, "dir/b.h"}}});
  check_fields_round_trip(CompileProgram{7, 0xdead, "-DX=1", {}});
  check_fields_round_trip(LinkProgram{13, 1, 0xdead, "-create-library", {7, 8, 9}});
  // A list of values travels as one block: the same bytes as one by one.
  Writer listed, by_hand;
  write(listed, LinkProgram{13, 1, 2, "o", {7, 8}});
  by_hand.put(uint64_t{13}).put(uint64_t{1}).put(uint64_t{2}).text("o").put(uint64_t{2}).put(uint64_t{7}).put(uint64_t{8});
  CHECK(listed.buffer() == by_hand.buffer());
}
