#include "cluster/protocol/messages.hpp"

namespace unicl::cluster {

const std::vector<cl_uint> &platform_params() {
  static const std::vector<cl_uint> params = {CL_PLATFORM_PROFILE, CL_PLATFORM_VERSION, CL_PLATFORM_NAME,
                                              CL_PLATFORM_VENDOR, CL_PLATFORM_EXTENSIONS};
  return params;
}

// Every query of OpenCL 1.2, and the 2.x/3.0 ones a 3.0 platform must answer.
const std::vector<cl_uint> &device_params() {
  static const std::vector<cl_uint> params = {
      CL_DEVICE_TYPE, CL_DEVICE_VENDOR_ID, CL_DEVICE_MAX_COMPUTE_UNITS, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
      CL_DEVICE_MAX_WORK_GROUP_SIZE, CL_DEVICE_MAX_WORK_ITEM_SIZES, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, CL_DEVICE_MAX_CLOCK_FREQUENCY,
      CL_DEVICE_ADDRESS_BITS, CL_DEVICE_MAX_MEM_ALLOC_SIZE, CL_DEVICE_IMAGE_SUPPORT, CL_DEVICE_MAX_READ_IMAGE_ARGS,
      CL_DEVICE_MAX_WRITE_IMAGE_ARGS, CL_DEVICE_IMAGE2D_MAX_WIDTH, CL_DEVICE_IMAGE2D_MAX_HEIGHT,
      CL_DEVICE_IMAGE3D_MAX_WIDTH, CL_DEVICE_IMAGE3D_MAX_HEIGHT, CL_DEVICE_IMAGE3D_MAX_DEPTH,
      CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, CL_DEVICE_MAX_SAMPLERS,
      CL_DEVICE_MAX_PARAMETER_SIZE, CL_DEVICE_MEM_BASE_ADDR_ALIGN, CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE,
      CL_DEVICE_SINGLE_FP_CONFIG, CL_DEVICE_DOUBLE_FP_CONFIG, CL_DEVICE_HALF_FP_CONFIG,
      CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
      CL_DEVICE_GLOBAL_MEM_SIZE, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, CL_DEVICE_MAX_CONSTANT_ARGS,
      CL_DEVICE_LOCAL_MEM_TYPE, CL_DEVICE_LOCAL_MEM_SIZE, CL_DEVICE_ERROR_CORRECTION_SUPPORT,
      CL_DEVICE_HOST_UNIFIED_MEMORY, CL_DEVICE_PROFILING_TIMER_RESOLUTION, CL_DEVICE_ENDIAN_LITTLE,
      CL_DEVICE_AVAILABLE, CL_DEVICE_COMPILER_AVAILABLE, CL_DEVICE_LINKER_AVAILABLE, CL_DEVICE_EXECUTION_CAPABILITIES,
      CL_DEVICE_QUEUE_PROPERTIES, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, CL_DEVICE_BUILT_IN_KERNELS, CL_DEVICE_NAME,
      CL_DEVICE_VENDOR, CL_DRIVER_VERSION, CL_DEVICE_PROFILE, CL_DEVICE_VERSION, CL_DEVICE_OPENCL_C_VERSION,
      CL_DEVICE_EXTENSIONS, CL_DEVICE_PRINTF_BUFFER_SIZE, CL_DEVICE_PREFERRED_INTEROP_USER_SYNC,
      CL_DEVICE_PARTITION_MAX_SUB_DEVICES, CL_DEVICE_PARTITION_PROPERTIES, CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
      CL_DEVICE_PARTITION_TYPE, CL_DEVICE_REFERENCE_COUNT, CL_DEVICE_NUMERIC_VERSION,
      CL_DEVICE_EXTENSIONS_WITH_VERSION, CL_DEVICE_ILS_WITH_VERSION, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION,
      CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
      CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, CL_DEVICE_OPENCL_C_ALL_VERSIONS,
      CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
      CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, CL_DEVICE_OPENCL_C_FEATURES,
      CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, CL_DEVICE_PIPE_SUPPORT, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED,
      CL_DEVICE_SVM_CAPABILITIES, CL_DEVICE_IL_VERSION, CL_DEVICE_MAX_NUM_SUB_GROUPS,
      CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS,
      CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
      CL_DEVICE_IMAGE_PITCH_ALIGNMENT, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, CL_DEVICE_MAX_PIPE_ARGS,
      CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, CL_DEVICE_PIPE_MAX_PACKET_SIZE,
      CL_DEVICE_MAX_ON_DEVICE_QUEUES, CL_DEVICE_MAX_ON_DEVICE_EVENTS, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES,
      CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE,
      CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT,
      CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT};
  return params;
}

void write(Writer &w, const InfoAnswers &info) {
  w.put<uint64_t>(info.size());
  for (auto &[param, value] : info) w.put(param).bytes(value.data(), value.size());
}
InfoAnswers read_info(Reader &r) {
  InfoAnswers info;
  for (auto n = r.get<uint64_t>(); n > 0; --n) {
    auto param = r.get<cl_uint>();
    info[param] = r.bytes();
  }
  return info;
}

void write(Writer &w, const CommandHeader &h) {
  w.put(h.queue).put<uint32_t>(static_cast<uint32_t>(h.wait.size()));
  for (uint64_t e : h.wait) w.put(e);
  w.put(h.event).put(h.flags);
}
CommandHeader read_command_header(Reader &r) {
  CommandHeader h;
  h.queue = r.get<uint64_t>();
  h.wait.resize(r.get<uint32_t>());
  for (auto &e : h.wait) e = r.get<uint64_t>();
  h.event = r.get<uint64_t>();
  h.flags = r.get<uint32_t>();
  return h;
}

LaunchShape LaunchShape::of(cl_uint dims, const size_t *offset, const size_t *global, const size_t *local) {
  LaunchShape s;
  s.dims = dims, s.has_offset = offset != nullptr, s.has_local = local != nullptr;
  for (cl_uint i = 0; i < 3 && i < dims; ++i) {
    if (offset) s.offset[i] = offset[i];
    s.global[i] = global[i];
    if (local) s.local[i] = local[i];
  }
  return s;
}

void write(Writer &w, const LaunchShape &s) {
  w.put(s.dims);
  for (uint64_t v : s.offset) w.put(v);
  for (uint64_t v : s.global) w.put(v);
  for (uint64_t v : s.local) w.put(v);
  w.put(uint8_t{s.has_offset}).put(uint8_t{s.has_local});
}
LaunchShape read_launch_shape(Reader &r) {
  LaunchShape s;
  s.dims = r.get<cl_uint>();
  for (auto &v : s.offset) v = r.get<uint64_t>();
  for (auto &v : s.global) v = r.get<uint64_t>();
  for (auto &v : s.local) v = r.get<uint64_t>();
  s.has_offset = r.get<uint8_t>(), s.has_local = r.get<uint8_t>();
  return s;
}

void write(Writer &w, const PeerCopyIn &p) {
  w.put(p.buffer).put(p.offset).put(p.size).put(uint8_t{p.source_here});
  if (p.source_here) w.put(p.source).put(p.source_offset);
}
PeerCopyIn read_peer_copy_in(Reader &r) {
  PeerCopyIn p;
  p.buffer = r.get<uint64_t>(), p.offset = r.get<uint64_t>(), p.size = r.get<uint64_t>();
  p.source_here = r.get<uint8_t>();
  if (p.source_here) p.source = r.get<uint64_t>(), p.source_offset = r.get<uint64_t>();
  return p;
}

static_assert(sizeof(size_t) == sizeof(uint64_t), "sizes travel as uint64_t");

Size3 size3(const size_t *v) { return v ? Size3{v[0], v[1], v[2]} : Size3{}; }

void write_args(Writer &w, const std::vector<std::pair<cl_uint, const KernelArg *>> &changed) {
  w.put<uint32_t>(static_cast<uint32_t>(changed.size()));
  for (auto &[index, a] : changed) {
    w.put(index).put(a->kind);
    switch (a->kind) {
      case ArgKind::kBytes: w.bytes(a->bytes.data(), a->bytes.size()); break;
      case ArgKind::kMemory:
      case ArgKind::kSampler: w.put(a->id); break;
      case ArgKind::kLocal: w.put(a->size); break;
      case ArgKind::kNullMemory: break;
    }
  }
}
std::vector<std::pair<cl_uint, KernelArg>> read_args(Reader &r) {
  std::vector<std::pair<cl_uint, KernelArg>> out(r.get<uint32_t>());
  for (auto &[index, a] : out) {
    index = r.get<cl_uint>();
    a.kind = r.get<ArgKind>();
    switch (a.kind) {
      case ArgKind::kBytes: a.bytes = r.bytes(); break;
      case ArgKind::kMemory:
      case ArgKind::kSampler: a.id = r.get<uint64_t>(); break;
      case ArgKind::kLocal: a.size = r.get<uint64_t>(); break;
      case ArgKind::kNullMemory: break;
      default: throw Truncated();  // not a kind of this protocol
    }
  }
  return out;
}

// Field by field: a struct's padding would travel uninitialized.
void write(Writer &w, const EventEnded &e) {
  w.put(e.id).put(e.status).put(e.queued).put(e.submit).put(e.start).put(e.end).put(e.bytes);
}
EventEnded read_event_ended(Reader &r) {
  EventEnded e;
  e.id = r.get<uint64_t>();
  e.status = r.get<cl_int>();
  e.queued = r.get<cl_ulong>(), e.submit = r.get<cl_ulong>(), e.start = r.get<cl_ulong>(), e.end = r.get<cl_ulong>();
  e.bytes = r.get<uint64_t>();
  return e;
}

void write(Writer &w, const ProgramFacts &f) {
  write(w, f.build);
  write(w, f.program);
  w.put<uint64_t>(f.kernels.size());
  for (auto &k : f.kernels) {
    w.text(k.name);
    write(w, k.info);
    write(w, k.work_group);
    w.put<uint64_t>(k.args.size());
    for (auto &a : k.args) write(w, a);
  }
}
ProgramFacts read_program_facts(Reader &r) {
  ProgramFacts f;
  f.build = read_info(r);
  f.program = read_info(r);
  f.kernels.resize(r.get<uint64_t>());
  for (auto &k : f.kernels) {
    k.name = r.text();
    k.info = read_info(r);
    k.work_group = read_info(r);
    k.args.resize(r.get<uint64_t>());
    for (auto &a : k.args) a = read_info(r);
  }
  return f;
}

const std::vector<cl_uint> &build_params() {
  static const std::vector<cl_uint> params = {CL_PROGRAM_BUILD_STATUS, CL_PROGRAM_BUILD_LOG,
                                              CL_PROGRAM_BINARY_TYPE, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE};
  return params;
}
// Not CL_PROGRAM_BINARY_SIZES: a vendor's binary may grow after the build
// (PoCL adds each kernel's compiled code once it is made), and the
// application sizes the memory CL_PROGRAM_BINARIES fills from it.
const std::vector<cl_uint> &program_params() {
  static const std::vector<cl_uint> params = {CL_PROGRAM_NUM_KERNELS, CL_PROGRAM_KERNEL_NAMES};
  return params;
}
const std::vector<cl_uint> &kernel_params() {
  static const std::vector<cl_uint> params = {CL_KERNEL_FUNCTION_NAME, CL_KERNEL_NUM_ARGS, CL_KERNEL_ATTRIBUTES};
  return params;
}
// Not CL_KERNEL_LOCAL_MEM_SIZE: it counts the local arguments set, which
// only the kernel's rank 0 side knows until they are sent (kSetKernelArgs).
const std::vector<cl_uint> &work_group_params() {
  static const std::vector<cl_uint> params = {CL_KERNEL_WORK_GROUP_SIZE, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                              CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                              CL_KERNEL_PRIVATE_MEM_SIZE};
  return params;
}
const std::vector<cl_uint> &arg_params() {
  static const std::vector<cl_uint> params = {CL_KERNEL_ARG_ADDRESS_QUALIFIER, CL_KERNEL_ARG_ACCESS_QUALIFIER,
                                              CL_KERNEL_ARG_TYPE_NAME, CL_KERNEL_ARG_TYPE_QUALIFIER,
                                              CL_KERNEL_ARG_NAME};
  return params;
}

void write(Writer &w, const NodeDescription &d) {
  w.text(d.host).text(d.unicl_version).text(d.topology).put<uint64_t>(d.platforms.size());
  for (auto &p : d.platforms) {
    w.put(p.id);
    write(w, p.info);
    w.put<uint64_t>(p.devices.size());
    for (auto &dev : p.devices) {
      w.put(dev.id);
      write(w, dev.info);
    }
  }
  write(w, d.doorbell);
}

NodeDescription read_node(Reader &r) {
  NodeDescription d;
  d.host = r.text();
  d.unicl_version = r.text();
  d.topology = r.text();
  for (auto n = r.get<uint64_t>(); n > 0; --n) {
    auto &p = d.platforms.emplace_back();
    p.id = r.get<uint64_t>();
    p.info = read_info(r);
    for (auto m = r.get<uint64_t>(); m > 0; --m) {
      auto &dev = p.devices.emplace_back();
      dev.id = r.get<uint64_t>();
      dev.info = read_info(r);
    }
  }
  d.doorbell = read_message<DoorbellAt>(r);
  return d;
}

}  // namespace unicl::cluster
