// The node client's entry points for contexts, queues, memory objects,
// programs and kernels: each creation asks the node and waits for its
// status; what rank 0 knows (the objects one belongs to, references) is
// answered here, the rest by the node.
#include <cstring>

#include "backend/image_format.hpp"
#include "cluster/idle_backoff.hpp"
#include "cluster/remote_objects.hpp"
#include "remote_api_decls.hpp"

namespace unicl::api {
using namespace unicl::cluster;

namespace {

template <class T>
T fail(cl_int *errcode_ret, cl_int err, T value = nullptr) {
  if (errcode_ret) *errcode_ret = err;
  return value;
}

// An info query the node answers: its bytes copied out as clGet*Info does.
cl_int node_info(const Proxy *p, ObjectKind kind, cl_uint param, uint64_t second, size_t size, void *value,
                 size_t *size_ret) {
  Writer w;
  w.put(kind).put(p->remote).put(param).put(second);
  std::vector<char> reply;
  if (cl_int err = rpc(p->rank, Op::kInfo, w, &reply); err != CL_SUCCESS) return err;
  Reader r(reply);
  auto bytes = r.bytes();
  return answer(bytes.data(), bytes.size(), size, value, size_ret);
}

}  // namespace

// ---- contexts ----------------------------------------------------------------

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                       const cl_device_id *devices, void(CL_CALLBACK *)(const char *, const void *,
                                                                                       size_t, void *),
                                       void *, cl_int *errcode_ret) {
  if (!devices || num_devices == 0) return fail<cl_context>(errcode_ret, CL_INVALID_VALUE);
  // UniCL makes one vendor context per device; a context of several devices
  // of one node would need the node to make one too (not yet).
  if (num_devices != 1) return fail<cl_context>(errcode_ret, CL_INVALID_OPERATION);
  if (!is_device(devices[0])) return fail<cl_context>(errcode_ret, CL_INVALID_DEVICE);
  Writer w;
  w.put(devices[0]->remote);
  std::vector<char> reply;
  if (cl_int err = rpc(devices[0]->rank, Op::kCreateContext, w, &reply); err != CL_SUCCESS)
    return fail<cl_context>(errcode_ret, err);
  auto *c = make_proxy<_cl_context>(ObjectKind::kContext, devices[0]->rank, Reader(reply).get<uint64_t>());
  c->device = devices[0];
  if (properties) {
    size_t n = 0;
    while (properties[n]) n += 2;
    c->properties.assign(properties, properties + n + 1);
  }
  return fail(errcode_ret, CL_SUCCESS, static_cast<cl_context>(c));
}

cl_int CL_API_CALL clRetainContext(cl_context c) { return retain_handle<ObjectKind::kContext, CL_INVALID_CONTEXT>(c); }
cl_int CL_API_CALL clReleaseContext(cl_context c) { return release_handle<ObjectKind::kContext, CL_INVALID_CONTEXT>(c); }

cl_int CL_API_CALL clGetContextInfo(cl_context c, cl_context_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(c, ObjectKind::kContext)) return CL_INVALID_CONTEXT;
  switch (param) {
    case CL_CONTEXT_REFERENCE_COUNT: return answer_value(c->refs.load(), size, value, size_ret);
    case CL_CONTEXT_NUM_DEVICES: return answer_value(cl_uint{1}, size, value, size_ret);
    case CL_CONTEXT_DEVICES: return answer_value(c->device, size, value, size_ret);
    case CL_CONTEXT_PROPERTIES:
      return answer(c->properties.data(), c->properties.size() * sizeof(cl_context_properties), size, value,
                    size_ret);
    default: return node_info(c, ObjectKind::kContext, param, 0, size, value, size_ret);
  }
}

// ---- queues ------------------------------------------------------------------

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context c, cl_device_id device,
                                                  cl_command_queue_properties properties, cl_int *errcode_ret) {
  if (!live(c, ObjectKind::kContext)) return fail<cl_command_queue>(errcode_ret, CL_INVALID_CONTEXT);
  if (device != c->device) return fail<cl_command_queue>(errcode_ret, CL_INVALID_DEVICE);
  Writer w;
  w.put(c->remote).put(device->remote).put(properties);
  std::vector<char> reply;
  if (cl_int err = rpc(c->rank, Op::kCreateQueue, w, &reply); err != CL_SUCCESS)
    return fail<cl_command_queue>(errcode_ret, err);
  auto *q = make_proxy<_cl_command_queue>(ObjectKind::kQueue, c->rank, Reader(reply).get<uint64_t>());
  q->context = c, q->device = device, q->properties = properties;
  retain(c);
  return fail(errcode_ret, CL_SUCCESS, static_cast<cl_command_queue>(q));
}

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context c, cl_device_id device,
                                                                const cl_queue_properties *properties,
                                                                cl_int *errcode_ret) {
  cl_command_queue_properties bits = 0;
  for (size_t i = 0; properties && properties[i]; i += 2) {
    if (properties[i] == CL_QUEUE_PROPERTIES) bits = properties[i + 1];
    else return fail<cl_command_queue>(errcode_ret, CL_INVALID_QUEUE_PROPERTIES);  // on-device queues: none here
  }
  return api::clCreateCommandQueue(c, device, bits, errcode_ret);
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q) {
  if (!live(q, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  retain(q);
  return CL_SUCCESS;
}
cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q) {
  if (!live(q, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  // The spec's implicit flush on every release.
  api::clFlush(q);
  release(q);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param, size_t size, void *value,
                                         size_t *size_ret) {
  if (!live(q, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  switch (param) {
    case CL_QUEUE_CONTEXT: return answer_value(q->context, size, value, size_ret);
    case CL_QUEUE_DEVICE: return answer_value(q->device, size, value, size_ret);
    case CL_QUEUE_REFERENCE_COUNT: return answer_value(q->refs.load(), size, value, size_ret);
    case CL_QUEUE_PROPERTIES: return answer_value(q->properties, size, value, size_ret);
    default: return node_info(q, ObjectKind::kQueue, param, 0, size, value, size_ret);
  }
}

cl_int CL_API_CALL clFlush(cl_command_queue q) {
  if (!live(q, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  // Not waited for: a flush only promises that the commands will be
  // submitted, which the node does in the order it got them. UniCL flushes
  // a device's queue each time its worker stops issuing: waiting for each
  // flush's round trip held the worker while the node was busy receiving
  // some other command's bytes (milliseconds, in bench-cluster-scaling).
  Writer w;
  w.put(q->remote);
  post(q->rank, Op::kFlush, w);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clFinish(cl_command_queue q) {
  if (!live(q, ObjectKind::kQueue)) return CL_INVALID_COMMAND_QUEUE;
  // Every command enqueued here reports its end: waiting for those is the
  // node's clFinish without a round trip of its own. The flush (not waited
  // for) submits them on vendors that run commands only when flushed.
  Writer w;
  w.put(q->remote);
  post(q->rank, Op::kFlush, w);
  std::unique_lock lock(q->mutex);
  wait_briefly_spinning(lock, q->ended, [&] { return q->in_flight == 0; }, kCallerSpin);
  return CL_SUCCESS;
}

// ---- memory objects ----------------------------------------------------------

cl_mem CL_API_CALL clCreateBuffer(cl_context c, cl_mem_flags flags, size_t size, void *host_ptr,
                                  cl_int *errcode_ret) {
  if (!live(c, ObjectKind::kContext)) return fail<cl_mem>(errcode_ret, CL_INVALID_CONTEXT);
  if (size == 0) return fail<cl_mem>(errcode_ret, CL_INVALID_BUFFER_SIZE);
  const bool initial = flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR);
  if (initial != (host_ptr != nullptr)) return fail<cl_mem>(errcode_ret, CL_INVALID_HOST_PTR);
  // The node's memory cannot be the application's: its initial bytes travel
  // with the request (USE_HOST_PTR is kept coherent by UniCL above, not here).
  Writer w;
  w.put(c->remote).put(flags & ~(CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR))
      .put(uint64_t{size});
  w.bytes(host_ptr, initial ? size : 0);
  std::vector<char> reply;
  if (cl_int err = rpc(c->rank, Op::kCreateBuffer, w, &reply); err != CL_SUCCESS)
    return fail<cl_mem>(errcode_ret, err);
  auto *m = make_proxy<_cl_mem>(ObjectKind::kMemory, c->rank, Reader(reply).get<uint64_t>());
  m->context = c, m->flags = flags, m->size = size;
  m->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : nullptr;
  retain(c);
  return fail(errcode_ret, CL_SUCCESS, static_cast<cl_mem>(m));
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type, const void *info,
                                     cl_int *errcode_ret) {
  if (!live(parent, ObjectKind::kMemory) || parent->parent) return fail<cl_mem>(errcode_ret, CL_INVALID_MEM_OBJECT);
  if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) return fail<cl_mem>(errcode_ret, CL_INVALID_VALUE);
  auto region = *static_cast<const cl_buffer_region *>(info);
  Writer w;
  w.put(parent->remote).put(flags).put(uint64_t{region.origin}).put(uint64_t{region.size});
  std::vector<char> reply;
  if (cl_int err = rpc(parent->rank, Op::kCreateSubBuffer, w, &reply); err != CL_SUCCESS)
    return fail<cl_mem>(errcode_ret, err);
  auto *m = make_proxy<_cl_mem>(ObjectKind::kMemory, parent->rank, Reader(reply).get<uint64_t>());
  m->context = parent->context, m->parent = parent, m->flags = flags ? flags : parent->flags;
  m->size = region.size, m->origin = region.origin;
  retain(parent);
  return fail(errcode_ret, CL_SUCCESS, static_cast<cl_mem>(m));
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context c, cl_mem_flags flags, cl_mem_object_type type,
                                              cl_uint num_entries, cl_image_format *formats, cl_uint *num_formats) {
  if (!live(c, ObjectKind::kContext)) return CL_INVALID_CONTEXT;
  if (num_entries == 0 && formats) return CL_INVALID_VALUE;
  Writer w;
  w.put(c->remote).put(flags).put(type);
  std::vector<char> reply;
  if (cl_int err = rpc(c->rank, Op::kImageFormats, w, &reply); err != CL_SUCCESS) return err;
  auto bytes = Reader(reply).bytes();
  const size_t n = bytes.size() / sizeof(cl_image_format);
  if (formats) std::memcpy(formats, bytes.data(), std::min<size_t>(n, num_entries) * sizeof(cl_image_format));
  if (num_formats) *num_formats = static_cast<cl_uint>(n);
  return CL_SUCCESS;
}

cl_mem CL_API_CALL clCreateImage(cl_context c, cl_mem_flags flags, const cl_image_format *format,
                                 const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret) {
  if (!live(c, ObjectKind::kContext)) return fail<cl_mem>(errcode_ret, CL_INVALID_CONTEXT);
  if (!format) return fail<cl_mem>(errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  if (!desc) return fail<cl_mem>(errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR);
  const bool initial = flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR);
  if (initial != (host_ptr != nullptr)) return fail<cl_mem>(errcode_ret, CL_INVALID_HOST_PTR);
  if (desc->buffer && !live(desc->buffer, ObjectKind::kMemory))
    return fail<cl_mem>(errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR);
  // The application's bytes travel packed: rows (and slices) as it laid
  // them out, one after another.
  std::vector<char> packed;
  if (initial) {
    const size_t element = image_element_size(*format);
    if (!element) return fail<cl_mem>(errcode_ret, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    const bool arrayed1d = desc->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    const size_t width = desc->image_width * element;
    const size_t height = arrayed1d ? desc->image_array_size : std::max<size_t>(desc->image_height, 1);
    const size_t depth = desc->image_type == CL_MEM_OBJECT_IMAGE3D ? desc->image_depth
                         : desc->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? desc->image_array_size
                                                                             : 1;
    const size_t row = desc->image_row_pitch ? desc->image_row_pitch : width;
    const size_t slice = desc->image_slice_pitch ? desc->image_slice_pitch : row * (arrayed1d ? 1 : height);
    packed.resize(width * height * depth);
    for (size_t z = 0; z < depth; ++z)
      for (size_t y = 0; y < height; ++y)
        std::memcpy(packed.data() + (z * height + y) * width,
                    static_cast<const char *>(host_ptr) + z * slice + y * (arrayed1d ? slice : row), width);
  }
  Writer w;
  w.put(c->remote).put(flags & ~(CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR)).put(*format);
  w.put(desc->image_type).put(uint64_t{desc->image_width}).put(uint64_t{desc->image_height})
      .put(uint64_t{desc->image_depth}).put(uint64_t{desc->image_array_size})
      .put(uint64_t{desc->buffer ? desc->buffer->remote : 0});
  w.bytes(packed.data(), packed.size());
  std::vector<char> reply;
  if (cl_int err = rpc(c->rank, Op::kCreateImage, w, &reply); err != CL_SUCCESS)
    return fail<cl_mem>(errcode_ret, err);
  Reader r(reply);
  auto *m = make_proxy<_cl_mem>(ObjectKind::kMemory, c->rank, r.get<uint64_t>());
  m->element = r.get<uint64_t>();
  m->context = c, m->flags = flags, m->type = desc->image_type;
  m->host_ptr = (flags & CL_MEM_USE_HOST_PTR) ? host_ptr : nullptr;
  retain(c);
  return fail(errcode_ret, CL_SUCCESS, static_cast<cl_mem>(m));
}

cl_int CL_API_CALL clGetImageInfo(cl_mem m, cl_image_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(m, ObjectKind::kMemory) || m->type == CL_MEM_OBJECT_BUFFER) return CL_INVALID_MEM_OBJECT;
  return node_info(m, ObjectKind::kImage, param, 0, size, value, size_ret);
}

cl_int CL_API_CALL clRetainMemObject(cl_mem m) { return retain_handle<ObjectKind::kMemory, CL_INVALID_MEM_OBJECT>(m); }
cl_int CL_API_CALL clReleaseMemObject(cl_mem m) { return release_handle<ObjectKind::kMemory, CL_INVALID_MEM_OBJECT>(m); }

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem m, void(CL_CALLBACK *fn)(cl_mem, void *),
                                                    void *user_data) {
  if (!live(m, ObjectKind::kMemory)) return CL_INVALID_MEM_OBJECT;
  if (!fn) return CL_INVALID_VALUE;
  m->destructors.push_back({fn, user_data});
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(m, ObjectKind::kMemory)) return CL_INVALID_MEM_OBJECT;
  switch (param) {
    case CL_MEM_TYPE: return answer_value(m->type, size, value, size_ret);
    case CL_MEM_FLAGS: return answer_value(m->flags, size, value, size_ret);
    case CL_MEM_SIZE:
      if (m->type != CL_MEM_OBJECT_BUFFER) break;  // the node's
      return answer_value(m->size, size, value, size_ret);
    case CL_MEM_HOST_PTR: return answer_value(m->host_ptr, size, value, size_ret);
    case CL_MEM_REFERENCE_COUNT: return answer_value(m->refs.load(), size, value, size_ret);
    case CL_MEM_CONTEXT: return answer_value(m->context, size, value, size_ret);
    case CL_MEM_ASSOCIATED_MEMOBJECT: return answer_value(m->parent, size, value, size_ret);
    case CL_MEM_OFFSET: return answer_value(m->origin, size, value, size_ret);
    case CL_MEM_MAP_COUNT: {
      std::lock_guard lock(m->maps_mutex);
      return answer_value(static_cast<cl_uint>(m->maps.size()), size, value, size_ret);
    }
    default: break;
  }
  return node_info(m, ObjectKind::kMemory, param, 0, size, value, size_ret);
}

// ---- programs ----------------------------------------------------------------

cl_program CL_API_CALL clCreateProgramWithSource(cl_context c, cl_uint count, const char **strings,
                                                 const size_t *lengths, cl_int *errcode_ret) {
  if (!live(c, ObjectKind::kContext)) return fail<cl_program>(errcode_ret, CL_INVALID_CONTEXT);
  if (!count || !strings) return fail<cl_program>(errcode_ret, CL_INVALID_VALUE);
  std::string source;
  for (cl_uint i = 0; i < count; ++i) {
    if (!strings[i]) return fail<cl_program>(errcode_ret, CL_INVALID_VALUE);
    source.append(strings[i], lengths && lengths[i] ? lengths[i] : std::strlen(strings[i]));
  }
  Writer w;
  w.put(c->remote).text(source);
  std::vector<char> reply;
  if (cl_int err = rpc(c->rank, Op::kCreateProgram, w, &reply); err != CL_SUCCESS)
    return fail<cl_program>(errcode_ret, err);
  auto *p = make_proxy<_cl_program>(ObjectKind::kProgram, c->rank, Reader(reply).get<uint64_t>());
  p->context = c, p->source = std::move(source);
  retain(c);
  return fail(errcode_ret, CL_SUCCESS, static_cast<cl_program>(p));
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context c, cl_uint num_devices, const cl_device_id *devices,
                                                 const size_t *lengths, const unsigned char **binaries,
                                                 cl_int *binary_status, cl_int *errcode_ret) {
  if (!live(c, ObjectKind::kContext)) return fail<cl_program>(errcode_ret, CL_INVALID_CONTEXT);
  if (num_devices != 1 || !devices || devices[0] != c->device) return fail<cl_program>(errcode_ret, CL_INVALID_DEVICE);
  if (!lengths || !binaries || !binaries[0] || !lengths[0]) return fail<cl_program>(errcode_ret, CL_INVALID_VALUE);
  Writer w;
  w.put(c->remote).put(c->device->remote).bytes(binaries[0], lengths[0]);
  std::vector<char> reply;
  cl_int err = rpc(c->rank, Op::kCreateProgramBinary, w, &reply);
  Reader r(reply);
  cl_int status = reply.size() >= sizeof(cl_int) ? r.get<cl_int>() : err;
  if (binary_status) binary_status[0] = status;
  if (err != CL_SUCCESS) return fail<cl_program>(errcode_ret, err);
  auto *p = make_proxy<_cl_program>(ObjectKind::kProgram, c->rank, r.get<uint64_t>());
  p->context = c;
  retain(c);
  return fail(errcode_ret, CL_SUCCESS, static_cast<cl_program>(p));
}

cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint num_devices, const cl_device_id *devices, const char *options,
                                  void(CL_CALLBACK *notify)(cl_program, void *), void *user_data) {
  if (!live(p, ObjectKind::kProgram)) return CL_INVALID_PROGRAM;
  if ((num_devices && !devices) || (!num_devices && devices)) return CL_INVALID_VALUE;
  if (num_devices && (num_devices != 1 || devices[0] != p->context->device)) return CL_INVALID_DEVICE;
  Writer w;
  w.put(p->remote).put(p->context->device->remote).text(options ? options : "");
  cl_int err = rpc(p->rank, Op::kBuildProgram, w);
  if (notify) notify(p, user_data);  // the build is over when the node answers
  return err;
}

cl_int CL_API_CALL clCompileProgram(cl_program p, cl_uint num_devices, const cl_device_id *devices,
                                    const char *options, cl_uint num_headers, const cl_program *headers,
                                    const char **header_names, void(CL_CALLBACK *notify)(cl_program, void *),
                                    void *user_data) {
  if (!live(p, ObjectKind::kProgram)) return CL_INVALID_PROGRAM;
  if ((num_devices && !devices) || (!num_devices && devices)) return CL_INVALID_VALUE;
  if (num_devices && (num_devices != 1 || devices[0] != p->context->device)) return CL_INVALID_DEVICE;
  if ((num_headers && (!headers || !header_names)) || (!num_headers && (headers || header_names)))
    return CL_INVALID_VALUE;
  if (!notify && user_data) return CL_INVALID_VALUE;
  Writer w;
  w.put(p->remote).put(p->context->device->remote).text(options ? options : "").put(uint64_t{num_headers});
  for (cl_uint i = 0; i < num_headers; ++i) {
    // Headers are programs of the same node's context.
    if (!live(headers[i], ObjectKind::kProgram) || headers[i]->context != p->context || !header_names[i])
      return CL_INVALID_VALUE;
    w.put(headers[i]->remote).text(header_names[i]);
  }
  cl_int err = rpc(p->rank, Op::kCompileProgram, w);
  if (notify) notify(p, user_data);  // the compilation is over when the node answers
  return err;
}

cl_program CL_API_CALL clLinkProgram(cl_context c, cl_uint num_devices, const cl_device_id *devices,
                                     const char *options, cl_uint num_inputs, const cl_program *inputs,
                                     void(CL_CALLBACK *notify)(cl_program, void *), void *user_data,
                                     cl_int *errcode_ret) {
  if (!live(c, ObjectKind::kContext)) return fail<cl_program>(errcode_ret, CL_INVALID_CONTEXT);
  if ((num_devices && !devices) || (!num_devices && devices)) return fail<cl_program>(errcode_ret, CL_INVALID_VALUE);
  if (num_devices && (num_devices != 1 || devices[0] != c->device))
    return fail<cl_program>(errcode_ret, CL_INVALID_DEVICE);
  if (!num_inputs || !inputs || (!notify && user_data)) return fail<cl_program>(errcode_ret, CL_INVALID_VALUE);
  Writer w;
  w.put(c->remote).put(c->device->remote).text(options ? options : "").put(uint64_t{num_inputs});
  for (cl_uint i = 0; i < num_inputs; ++i) {
    if (!live(inputs[i], ObjectKind::kProgram) || inputs[i]->context != c)
      return fail<cl_program>(errcode_ret, CL_INVALID_PROGRAM);
    w.put(inputs[i]->remote);
  }
  std::vector<char> reply;
  if (cl_int err = rpc(c->rank, Op::kLinkProgram, w, &reply); err != CL_SUCCESS)
    return fail<cl_program>(errcode_ret, err);
  Reader r(reply);
  const auto handle = r.get<uint64_t>();
  const auto status = r.get<cl_int>();
  cl_program out = nullptr;
  if (handle) {
    auto *p = make_proxy<_cl_program>(ObjectKind::kProgram, c->rank, handle);
    p->context = c;
    retain(c);
    out = p;
  }
  if (notify && out) notify(out, user_data);
  return fail(errcode_ret, status, out);
}

cl_int CL_API_CALL clRetainProgram(cl_program p) { return retain_handle<ObjectKind::kProgram, CL_INVALID_PROGRAM>(p); }
cl_int CL_API_CALL clReleaseProgram(cl_program p) { return release_handle<ObjectKind::kProgram, CL_INVALID_PROGRAM>(p); }

cl_int CL_API_CALL clGetProgramInfo(cl_program p, cl_program_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(p, ObjectKind::kProgram)) return CL_INVALID_PROGRAM;
  switch (param) {
    case CL_PROGRAM_REFERENCE_COUNT: return answer_value(p->refs.load(), size, value, size_ret);
    case CL_PROGRAM_CONTEXT: return answer_value(p->context, size, value, size_ret);
    case CL_PROGRAM_NUM_DEVICES: return answer_value(cl_uint{1}, size, value, size_ret);
    case CL_PROGRAM_DEVICES: return answer_value(p->context->device, size, value, size_ret);
    case CL_PROGRAM_BINARIES: {
      // An array of one pointer to the caller's memory, sized by
      // CL_PROGRAM_BINARY_SIZES: the node sends the bytes.
      if (!value) return answer(nullptr, sizeof(unsigned char *), 0, nullptr, size_ret);
      if (size < sizeof(unsigned char *)) return CL_INVALID_VALUE;
      Writer w;
      w.put(ObjectKind::kProgram).put(p->remote).put(param).put(uint64_t{0});
      std::vector<char> reply;
      if (cl_int err = rpc(p->rank, Op::kInfo, w, &reply); err != CL_SUCCESS) return err;
      auto binary = Reader(reply).bytes();
      unsigned char *out = *static_cast<unsigned char **>(value);
      if (out) std::memcpy(out, binary.data(), binary.size());
      if (size_ret) *size_ret = sizeof(unsigned char *);
      return CL_SUCCESS;
    }
    default: return node_info(p, ObjectKind::kProgram, param, 0, size, value, size_ret);
  }
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p, cl_device_id device, cl_program_build_info param, size_t size,
                                         void *value, size_t *size_ret) {
  if (!live(p, ObjectKind::kProgram)) return CL_INVALID_PROGRAM;
  if (device != p->context->device) return CL_INVALID_DEVICE;
  return node_info(p, ObjectKind::kProgramBuild, param, device->remote, size, value, size_ret);
}

// ---- kernels -----------------------------------------------------------------

cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char *name, cl_int *errcode_ret) {
  if (!live(p, ObjectKind::kProgram)) return fail<cl_kernel>(errcode_ret, CL_INVALID_PROGRAM);
  if (!name) return fail<cl_kernel>(errcode_ret, CL_INVALID_VALUE);
  Writer w;
  w.put(p->remote).text(name);
  std::vector<char> reply;
  if (cl_int err = rpc(p->rank, Op::kCreateKernel, w, &reply); err != CL_SUCCESS)
    return fail<cl_kernel>(errcode_ret, err);
  auto *k = make_proxy<_cl_kernel>(ObjectKind::kKernel, p->rank, Reader(reply).get<uint64_t>());
  k->program = p;
  retain(p);
  return fail(errcode_ret, CL_SUCCESS, static_cast<cl_kernel>(k));
}

cl_int CL_API_CALL clRetainKernel(cl_kernel k) { return retain_handle<ObjectKind::kKernel, CL_INVALID_KERNEL>(k); }
cl_int CL_API_CALL clReleaseKernel(cl_kernel k) { return release_handle<ObjectKind::kKernel, CL_INVALID_KERNEL>(k); }

cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value) {
  if (!live(k, ObjectKind::kKernel)) return CL_INVALID_KERNEL;
  Writer w;
  w.put(k->remote).put(index);
  cl_mem m = nullptr;
  if (value && size == sizeof(cl_mem)) std::memcpy(&m, value, sizeof m);
  cl_sampler sampler = nullptr;
  if (value && size == sizeof(cl_sampler)) std::memcpy(&sampler, value, sizeof sampler);
  if (value && size == sizeof(cl_mem) && live(m, ObjectKind::kMemory)) {
    // A memory object of this node: the node's handle goes instead.
    if (m->rank != k->rank) return CL_INVALID_MEM_OBJECT;
    w.put(uint32_t{1}).put(m->remote);
  } else if (value && size == sizeof(cl_sampler) && live(sampler, ObjectKind::kSampler)) {
    if (sampler->rank != k->rank) return CL_INVALID_SAMPLER;
    w.put(uint32_t{3}).put(sampler->remote);
  } else if (!value) {
    w.put(uint32_t{2}).put(uint64_t{size});  // local memory, or a null buffer
  } else {
    w.put(uint32_t{0}).bytes(value, size);
  }
  return rpc(k->rank, Op::kSetKernelArg, w);
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel k, cl_kernel_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(k, ObjectKind::kKernel)) return CL_INVALID_KERNEL;
  switch (param) {
    case CL_KERNEL_REFERENCE_COUNT: return answer_value(k->refs.load(), size, value, size_ret);
    case CL_KERNEL_PROGRAM: return answer_value(k->program, size, value, size_ret);
    case CL_KERNEL_CONTEXT: return answer_value(k->program->context, size, value, size_ret);
    default: return node_info(k, ObjectKind::kKernel, param, 0, size, value, size_ret);
  }
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id device, cl_kernel_work_group_info param,
                                            size_t size, void *value, size_t *size_ret) {
  if (!live(k, ObjectKind::kKernel)) return CL_INVALID_KERNEL;
  if (device && device != k->program->context->device) return CL_INVALID_DEVICE;
  return node_info(k, ObjectKind::kKernelWorkGroup, param, k->program->context->device->remote, size, value,
                   size_ret);
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k, cl_uint index, cl_kernel_arg_info param, size_t size, void *value,
                                      size_t *size_ret) {
  if (!live(k, ObjectKind::kKernel)) return CL_INVALID_KERNEL;
  return node_info(k, ObjectKind::kKernelArg, param, index, size, value, size_ret);
}

// ---- samplers ----------------------------------------------------------------

cl_sampler CL_API_CALL clCreateSampler(cl_context c, cl_bool normalized, cl_addressing_mode addressing,
                                       cl_filter_mode filter, cl_int *errcode_ret) {
  if (!live(c, ObjectKind::kContext)) return fail<cl_sampler>(errcode_ret, CL_INVALID_CONTEXT);
  Writer w;
  w.put(c->remote).put(normalized).put(addressing).put(filter);
  std::vector<char> reply;
  if (cl_int err = rpc(c->rank, Op::kCreateSampler, w, &reply); err != CL_SUCCESS)
    return fail<cl_sampler>(errcode_ret, err);
  auto *s = make_proxy<_cl_sampler>(ObjectKind::kSampler, c->rank, Reader(reply).get<uint64_t>());
  s->context = c;
  retain(c);
  return fail(errcode_ret, CL_SUCCESS, static_cast<cl_sampler>(s));
}

cl_int CL_API_CALL clRetainSampler(cl_sampler s) { return retain_handle<ObjectKind::kSampler, CL_INVALID_SAMPLER>(s); }
cl_int CL_API_CALL clReleaseSampler(cl_sampler s) { return release_handle<ObjectKind::kSampler, CL_INVALID_SAMPLER>(s); }

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info param, size_t size, void *value, size_t *size_ret) {
  if (!live(s, ObjectKind::kSampler)) return CL_INVALID_SAMPLER;
  switch (param) {
    case CL_SAMPLER_REFERENCE_COUNT: return answer_value(s->refs.load(), size, value, size_ret);
    case CL_SAMPLER_CONTEXT: return answer_value(s->context, size, value, size_ret);
    default: return node_info(s, ObjectKind::kSampler, param, 0, size, value, size_ret);
  }
}

}  // namespace unicl::api
