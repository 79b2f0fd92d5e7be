// The node's objects: rank 0's posted creations (each kept under the id rank
// 0 named it with, or its failure kept there), its releases and its queries.
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "backend/vendor_status.hpp"
#include "cluster/node/server.hpp"

namespace unicl::cluster {
namespace {

// An info answer of any size: asked for its size, then read.
template <class Query>
cl_int answer_of(Query &&query, Writer &out) {
  size_t n = 0;
  if (cl_int err = query(0, nullptr, &n); err != CL_SUCCESS) return err;
  std::vector<char> value(n);
  if (n)
    if (cl_int err = query(n, value.data(), nullptr); err != CL_SUCCESS) return err;
  out.bytes(value.data(), value.size());
  return CL_SUCCESS;
}

// What `ask(handle, size, value, size_ret)` answers about object `id` of
// `table` (`unknown`: the error when rank 0 never made it here).
template <class H, class Ask>
cl_int answer_about(const NamedObjects &objects, const NamedObjects::Table<H> &table, uint64_t id, cl_int unknown,
                    Writer &out, Ask &&ask) {
  cl_int err = CL_SUCCESS;
  H handle = objects.find(table, id, err, unknown);
  if (!handle) return err;
  return answer_of([&](size_t n, void *v, size_t *r) { return ask(handle, n, v, r); }, out);
}

// CL_PROGRAM_BINARIES: an array of pointers to the caller's memory, so the
// node answers the one device's binary itself.
cl_int program_binary(cl_program program, Writer &out) {
  size_t size = 0;
  if (cl_int e = vendor_info(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr); e != CL_SUCCESS) return e;
  std::vector<char> binary(size);
  unsigned char *where = reinterpret_cast<unsigned char *>(binary.data());
  if (cl_int e = vendor_info(program, CL_PROGRAM_BINARIES, sizeof where, &where, nullptr); e != CL_SUCCESS) return e;
  out.bytes(binary.data(), binary.size());
  return CL_SUCCESS;
}

}  // namespace

// Every creation names its object first; what it is made in (a context, a
// buffer, a program) may have failed to be made itself: then so does it,
// with that error (NamedObjects keeps the failure).
cl_int NodeServer::create_context(Reader &args) {
  cl_int err = CL_SUCCESS;
  const auto m = read_message<CreateContext>(args);
  auto device = as<cl_device_id>(m.device);
  const cl_context_properties props[] = {
      CL_CONTEXT_PLATFORM,
      reinterpret_cast<cl_context_properties>(vendor_value<cl_platform_id>(device, CL_DEVICE_PLATFORM)), 0};
  auto c = vendor_context(props, device, nullptr, nullptr, err);
  objects_.keep(objects_.contexts, m.id, std::move(c), err);
  return CL_SUCCESS;
}

cl_int NodeServer::create_queue(Reader &args) {
  cl_int err = CL_SUCCESS;
  const auto m = read_message<CreateQueue>(args);
  cl_context context = objects_.find(objects_.contexts, m.context, err, CL_INVALID_CONTEXT);
  auto device = as<cl_device_id>(m.device);
  VendorRef<cl_command_queue> q;
  if (context) q = vendor_queue(context, device, m.properties, err);
  if (q && vendor_value<cl_bool>(device, CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_TRUE) unified_.insert(q.get());
  if (q) queue_devices_[m.id] = device;
  if (q) queue_order_.emplace(q.get(), QueueOrder(!(m.properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)));
  objects_.keep(objects_.queues, m.id, std::move(q), err);
  return CL_SUCCESS;
}

cl_int NodeServer::create_buffer(Reader &args) {
  cl_int err = CL_SUCCESS;
  const auto c = read_message<CreateBuffer>(args);
  cl_context context = objects_.find(objects_.contexts, c.context, err, CL_INVALID_CONTEXT);
  const Payload initial = read_payload(args);
  // Taken off the wire whatever becomes of the buffer.
  std::vector<char> bytes(initial.size);
  receive_payload(initial, bytes.data());
  VendorRef<cl_mem> m;
  if (context)
    m = vendor_buffer(context, c.flags | (bytes.empty() ? 0 : CL_MEM_COPY_HOST_PTR), size_t{c.size},
                      bytes.empty() ? nullptr : bytes.data(), err);
  objects_.keep(objects_.memory, c.id, std::move(m), err);
  return CL_SUCCESS;
}

cl_int NodeServer::create_sub_buffer(Reader &args) {
  cl_int err = CL_SUCCESS;
  const auto c = read_message<CreateSubBuffer>(args);
  cl_mem parent = objects_.find(objects_.memory, c.parent, err, CL_INVALID_MEM_OBJECT);
  cl_buffer_region region{size_t{c.origin}, size_t{c.size}};
  VendorRef<cl_mem> m;
  if (parent) {
    m = vendor_sub_buffer(parent, c.flags, CL_BUFFER_CREATE_TYPE_REGION, &region, err);
    staged_bytes_.shares_storage(parent);
  }
  objects_.keep(objects_.memory, c.id, std::move(m), err);
  return CL_SUCCESS;
}

cl_int NodeServer::create_image(Reader &args) {
  cl_int err = CL_SUCCESS;
  const auto c = read_message<CreateImage>(args);
  cl_context context = objects_.find(objects_.contexts, c.context, err, CL_INVALID_CONTEXT);
  cl_image_desc desc{};
  desc.image_type = c.type;
  desc.image_width = c.width, desc.image_height = c.height, desc.image_depth = c.depth;
  desc.image_array_size = c.array_size;
  if (c.buffer && context) desc.buffer = objects_.find(objects_.memory, c.buffer, err, CL_INVALID_IMAGE_DESCRIPTOR);
  const Payload initial = read_payload(args);  // packed: the default pitches
  std::vector<char> bytes(initial.size);
  receive_payload(initial, bytes.data());
  VendorRef<cl_mem> image;
  if (context && err == CL_SUCCESS)
    image = vendor_image(context, c.flags | (bytes.empty() ? 0 : CL_MEM_COPY_HOST_PTR), c.format, desc,
                         bytes.empty() ? nullptr : bytes.data(), err);
  objects_.keep(objects_.memory, c.id, std::move(image), err);
  return CL_SUCCESS;
}

cl_int NodeServer::create_sampler(Reader &args) {
  cl_int err = CL_SUCCESS;
  const auto c = read_message<CreateSampler>(args);
  cl_context context = objects_.find(objects_.contexts, c.context, err, CL_INVALID_CONTEXT);
  VendorRef<cl_sampler> sampler;
  if (context) sampler = vendor_sampler(context, c.normalized, c.addressing, c.filter, err);
  objects_.keep(objects_.samplers, c.id, std::move(sampler), err);
  return CL_SUCCESS;
}

cl_int NodeServer::create_program(Reader &args) {
  cl_int err = CL_SUCCESS;
  const auto c = read_message<CreateProgram>(args);
  cl_context context = objects_.find(objects_.contexts, c.context, err, CL_INVALID_CONTEXT);
  const char *text = c.source.c_str();
  size_t length = c.source.size();
  VendorRef<cl_program> p;
  if (context) p = vendor_program_with_source(context, 1, &text, &length, err);
  objects_.keep(objects_.programs, c.id, std::move(p), err);
  return CL_SUCCESS;
}

cl_int NodeServer::create_kernel(Reader &args) {
  cl_int err = CL_SUCCESS;
  const auto c = read_message<CreateKernel>(args);
  cl_program program = objects_.find(objects_.programs, c.program, err, CL_INVALID_PROGRAM);
  VendorRef<cl_kernel> k;
  if (program) k = vendor_kernel(program, c.name.c_str(), err);
  objects_.keep(objects_.kernels, c.id, std::move(k), err);
  return CL_SUCCESS;
}

cl_int NodeServer::create_user_event(Reader &args) {
  cl_int err = CL_SUCCESS;
  const auto c = read_message<CreateUserEvent>(args);
  cl_context context = objects_.find(objects_.contexts, c.context, err, CL_INVALID_CONTEXT);
  VendorRef<cl_event> e;
  if (context) e = vendor_user_event(context, err);
  objects_.keep(objects_.events, c.id, std::move(e), err);
  return CL_SUCCESS;
}

cl_int NodeServer::set_user_event_status(Reader &args) {
  cl_int err = CL_SUCCESS;
  const auto m = read_message<SetUserEventStatus>(args);
  cl_event e = objects_.find(objects_.events, m.id, err, CL_INVALID_EVENT);
  return e ? vendor_set_user_event_status(e, m.status) : err;
}

cl_int NodeServer::set_kernel_args(Reader &args) {
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = objects_.find(objects_.kernels, args.get<uint64_t>(), err, CL_INVALID_KERNEL);
  auto changed = read_args(args);
  return kernel ? set_args(kernel, changed) : err;
}

cl_int NodeServer::image_formats(Reader &args, Writer &result) {
  cl_int err = CL_SUCCESS;
  const auto m = read_message<ImageFormats>(args);
  cl_context context = objects_.find(objects_.contexts, m.context, err, CL_INVALID_CONTEXT);
  if (!context) return err;
  std::vector<cl_image_format> formats;
  if (cl_int e = vendor_image_formats(context, m.flags, m.type, formats); e != CL_SUCCESS) return e;
  result.bytes(formats.data(), formats.size() * sizeof(cl_image_format));
  return CL_SUCCESS;
}

void NodeServer::release(ObjectKind kind, uint64_t id) {
  objects_.forget(id);
  switch (kind) {
    case ObjectKind::kContext: objects_.contexts.erase(id); break;
    case ObjectKind::kQueue:
      if (auto it = objects_.queues.find(id); it != objects_.queues.end()) {
        cl_command_queue q = it->second.get();
        // The spec's implicit flush: commands left in the vendor queue run.
        vendor_flush(q);
        unified_.erase(q), last_on_queue_.erase(q), to_flush_.erase(q), untracked_on_.erase(q);
        queue_order_.erase(q);
        objects_.queues.erase(it);
        queue_devices_.erase(id);
      }
      break;
    case ObjectKind::kMemory:
      if (auto it = objects_.memory.find(id); it != objects_.memory.end()) {
        staged_bytes_.released(it->second.get());
        objects_.memory.erase(it);
      }
      break;
    case ObjectKind::kProgram: objects_.programs.erase(id); break;
    case ObjectKind::kKernel: objects_.kernels.erase(id); break;
    case ObjectKind::kEvent: objects_.events.erase(id); break;
    case ObjectKind::kSampler: objects_.samplers.erase(id); break;
    default: break;
  }
}

cl_int NodeServer::info(Reader &args, Writer &result) {
  const auto [kind, id, param, second] = read_message<InfoQuery>(args);
  auto device = as<cl_device_id>(second);
  const NamedObjects &o = objects_;
  switch (kind) {
    case ObjectKind::kContext:
      return answer_about(o, o.contexts, id, CL_INVALID_CONTEXT, result,
                          [&](cl_context c, size_t n, void *v, size_t *r) { return vendor_info(c, param, n, v, r); });
    case ObjectKind::kQueue:
      return answer_about(o, o.queues, id, CL_INVALID_COMMAND_QUEUE, result,
                          [&](cl_command_queue q, size_t n, void *v, size_t *r) { return vendor_info(q, param, n, v, r); });
    case ObjectKind::kMemory:
      return answer_about(o, o.memory, id, CL_INVALID_MEM_OBJECT, result,
                          [&](cl_mem m, size_t n, void *v, size_t *r) { return vendor_info(m, param, n, v, r); });
    case ObjectKind::kImage:
      return answer_about(o, o.memory, id, CL_INVALID_MEM_OBJECT, result,
                          [&](cl_mem m, size_t n, void *v, size_t *r) { return vendor_image_info(m, param, n, v, r); });
    case ObjectKind::kProgram:
      if (param == CL_PROGRAM_BINARIES) {
        cl_int err = CL_SUCCESS;
        cl_program program = o.find(o.programs, id, err, CL_INVALID_PROGRAM);
        return program ? program_binary(program, result) : err;
      }
      return answer_about(o, o.programs, id, CL_INVALID_PROGRAM, result,
                          [&](cl_program p, size_t n, void *v, size_t *r) { return vendor_info(p, param, n, v, r); });
    case ObjectKind::kProgramBuild:
      return answer_about(o, o.programs, id, CL_INVALID_PROGRAM, result, [&](cl_program p, size_t n, void *v, size_t *r) {
        return vendor_build_info(p, device, param, n, v, r);
      });
    case ObjectKind::kKernel:
      return answer_about(o, o.kernels, id, CL_INVALID_KERNEL, result,
                          [&](cl_kernel k, size_t n, void *v, size_t *r) { return vendor_info(k, param, n, v, r); });
    case ObjectKind::kKernelWorkGroup:
      return answer_about(o, o.kernels, id, CL_INVALID_KERNEL, result, [&](cl_kernel k, size_t n, void *v, size_t *r) {
        return vendor_work_group_info(k, device, param, n, v, r);
      });
    case ObjectKind::kKernelArg:
      return answer_about(o, o.kernels, id, CL_INVALID_KERNEL, result, [&](cl_kernel k, size_t n, void *v, size_t *r) {
        return vendor_arg_info(k, static_cast<cl_uint>(second), param, n, v, r);
      });
    case ObjectKind::kSampler:
      return answer_about(o, o.samplers, id, CL_INVALID_SAMPLER, result,
                          [&](cl_sampler s, size_t n, void *v, size_t *r) { return vendor_info(s, param, n, v, r); });
    case ObjectKind::kEvent:
      return answer_about(o, o.events, id, CL_INVALID_EVENT, result,
                          [&](cl_event e, size_t n, void *v, size_t *r) { return vendor_info(e, param, n, v, r); });
    case ObjectKind::kEventProfiling:
      return answer_about(o, o.events, id, CL_INVALID_EVENT, result, [&](cl_event e, size_t n, void *v, size_t *r) {
        return vendor_profiling_info(e, param, n, v, r);
      });
  }
  return CL_INVALID_VALUE;
}

}  // namespace unicl::cluster
