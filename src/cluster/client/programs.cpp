// The node client's programs and kernels. Builds, compilations and links
// wait for the node (their status is the call's), and their replies bring
// what rank 0 then answers and checks itself (ProgramFacts): build
// information, the kernels and their arguments. Kernel creations are
// posted; kernel arguments stay here until a launch, which carries those
// that changed since the kernel's previous one (changed_args).
#include <algorithm>
#include <cstring>

#include "cluster/client/objects.hpp"
#include "cluster/client/api_decls.hpp"
#include "cluster/client/refusal.hpp"

namespace unicl::cluster {
namespace {

// Bytes of a built-in scalar or vector type named `name` ("float4",
// "uint", "unsigned char"); 0 for any other (a struct, a typedef).
size_t builtin_size(std::string name) {
  if (name.rfind("unsigned ", 0) == 0) name = "u" + name.substr(9);
  static const std::pair<const char *, size_t> kScalars[] = {
      {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"half", 2},  {"int", 4},
      {"uint", 4}, {"float", 4}, {"long", 8},  {"ulong", 8},  {"double", 8}};
  for (auto [scalar, bytes] : kScalars) {
    const size_t n = std::strlen(scalar);
    if (name.compare(0, n, scalar) != 0) continue;
    const std::string width = name.substr(n);
    if (width.empty()) return bytes;
    if (width == "2") return 2 * bytes;
    if (width == "3" || width == "4") return 4 * bytes;  // a 3-vector takes a 4-vector's room
    if (width == "8") return 8 * bytes;
    if (width == "16") return 16 * bytes;
  }
  return 0;
}


std::string info_text(const InfoAnswers &info, cl_uint param) {
  auto it = info.find(param);
  if (it == info.end()) return {};
  return std::string(it->second.data(), strnlen(it->second.data(), it->second.size()));
}

// The reply of a build, compilation or link: what the program is now.
void record(RemoteProgram *p, Reader &reply, const char *options) {
  ProgramFacts facts = read_program_facts(reply);
  std::lock_guard lock(p->mutex);
  p->facts = std::move(facts);
  p->options = options ? options : "";
}

}  // namespace

ArgShape arg_shape(const InfoAnswers &arg) {
  ArgShape s;
  auto address = arg.find(CL_KERNEL_ARG_ADDRESS_QUALIFIER);
  if (address == arg.end()) return s;  // the vendor tells nothing
  const auto space = info_value<cl_kernel_arg_address_qualifier>(arg, CL_KERNEL_ARG_ADDRESS_QUALIFIER);
  const std::string type = info_text(arg, CL_KERNEL_ARG_TYPE_NAME);
  if (type.rfind("image", 0) == 0) s.kind = ArgShape::kImage;
  else if (space == CL_KERNEL_ARG_ADDRESS_LOCAL) s.kind = ArgShape::kLocal;
  else if (space == CL_KERNEL_ARG_ADDRESS_GLOBAL || space == CL_KERNEL_ARG_ADDRESS_CONSTANT) s.kind = ArgShape::kMemory;
  else if (type == "sampler_t") s.kind = ArgShape::kSampler;
  else s.kind = ArgShape::kValue, s.size = builtin_size(type);
  return s;
}

cl_int changed_args(RemoteKernel *k, Writer &w, bool require_all) {
  std::lock_guard lock(k->mutex);
  std::vector<std::pair<cl_uint, const KernelArg *>> changed;
  for (cl_uint i = 0; i < k->args.size(); ++i) {
    const auto &a = k->args[i];
    if (!a) {
      if (require_all) return cluster::refuse(CL_INVALID_KERNEL_ARGS, "require_all");
      continue;
    }
    // An object released since it was set (its id would name nothing, or,
    // were its address reused, something else).
    if (a->kind == ArgKind::kMemory || a->kind == ArgKind::kSampler) {
      const auto kind = a->kind == ArgKind::kMemory ? ObjectKind::kMemory : ObjectKind::kSampler;
      if (!live(k->arg_objects[i], kind) || static_cast<const Proxy *>(k->arg_objects[i])->id != a->id)
        return cluster::refuse(CL_INVALID_KERNEL_ARGS, "a memory object or sampler argument was released since it was set");
    }
    if (k->sent[i] != a) changed.emplace_back(i, &*a);
  }
  write_args(w, changed);
  for (auto &[i, a] : changed) k->sent[i] = *a;
  return CL_SUCCESS;
}

}  // namespace unicl::cluster

namespace unicl::api {
using namespace unicl::cluster;

// ---- programs ----------------------------------------------------------------

cl_program CL_API_CALL clCreateProgramWithSource(cl_context c_handle, cl_uint count, const char **strings,
                                                 const size_t *lengths, cl_int *errcode_ret) {
  auto *c = remote(c_handle);
  if (!live(c, ObjectKind::kContext))
    return refused<cl_program>(errcode_ret, CL_INVALID_CONTEXT,
                               "context is NULL or not a live context of the node client");
  if (!count || !strings) return refused<cl_program>(errcode_ret, CL_INVALID_VALUE, "count is 0 or strings is NULL");
  std::string source;
  for (cl_uint i = 0; i < count; ++i) {
    if (!strings[i]) return refused<cl_program>(errcode_ret, CL_INVALID_VALUE, "an entry of strings is NULL");
    source.append(strings[i], lengths && lengths[i] ? lengths[i] : std::strlen(strings[i]));
  }
  if (node_lost(c->rank)) return refused<cl_program>(errcode_ret, CL_DEVICE_NOT_AVAILABLE, "the node was lost");
  auto *p = make_proxy<RemoteProgram>(ObjectKind::kProgram, c->rank);
  p->context = c;
  retain(c);
  Writer w;
  write(w, CreateProgram{p->id, c->id, source});
  p->source = std::move(source);
  post(c->rank, Op::kCreateProgram, w);
  return fail(errcode_ret, CL_SUCCESS, handle(p));
}

// Waited for: only the node's vendor can tell whether the binary is one
// (binary_status).
cl_program CL_API_CALL clCreateProgramWithBinary(cl_context c_handle, cl_uint num_devices, const cl_device_id *devices,
                                                 const size_t *lengths, const unsigned char **binaries,
                                                 cl_int *binary_status, cl_int *errcode_ret) {
  auto *c = remote(c_handle);
  if (!live(c, ObjectKind::kContext))
    return refused<cl_program>(errcode_ret, CL_INVALID_CONTEXT,
                               "context is NULL or not a live context of the node client");
  if (num_devices != 1 || !devices || remote(devices[0]) != c->device)
    return refused<cl_program>(errcode_ret, CL_INVALID_DEVICE, "device_list is not the context's one device");
  if (!lengths || !binaries || !binaries[0] || !lengths[0])
    return refused<cl_program>(errcode_ret, CL_INVALID_VALUE, "lengths or binaries is NULL, or the binary is empty");
  const uint64_t id = new_id();
  Writer w;
  write(w, CreateProgramBinary{id, c->id, c->device->handle,
                                {reinterpret_cast<const char *>(binaries[0]),
                                 reinterpret_cast<const char *>(binaries[0]) + lengths[0]}});
  std::vector<char> reply;
  cl_int err = rpc(c->rank, Op::kCreateProgramBinary, w, &reply);
  Reader r(reply);
  cl_int status = reply.size() >= sizeof(cl_int) ? r.get<cl_int>() : err;
  if (binary_status) binary_status[0] = status;
  if (err != CL_SUCCESS) return fail<cl_program>(errcode_ret, err);
  auto *p = make_proxy<RemoteProgram>(ObjectKind::kProgram, c->rank, id);
  p->context = c;
  retain(c);
  return fail(errcode_ret, CL_SUCCESS, handle(p));
}

namespace {

// The checks clBuildProgram and clCompileProgram share: the device list,
// the callback, and no kernel attached.
cl_int check_build(RemoteProgram *p, cl_uint num_devices, const cl_device_id *devices,
                   void(CL_CALLBACK *notify)(cl_program, void *), void *user_data) {
  if ((num_devices && !devices) || (!num_devices && devices)) return cluster::refuse(CL_INVALID_VALUE, "num_devices and device_list disagree (0 or NULL)");
  if (num_devices && (num_devices != 1 || remote(devices[0]) != p->context->device)) return cluster::refuse(CL_INVALID_DEVICE, "device_list names another device than the program's");
  if (!notify && user_data) return cluster::refuse(CL_INVALID_VALUE, "user_data is given without pfn_notify");
  std::lock_guard lock(p->mutex);
  return p->kernels_attached ? cluster::refuse(CL_INVALID_OPERATION, "kernels made from the program are still alive") : CL_SUCCESS;
}

// A build or compilation on the node (waited for): its status, and what the
// program is now recorded; `notify` once it is over.
cl_int build_on_node(RemoteProgram *p, Op op, const Writer &w, const char *options,
                     void(CL_CALLBACK *notify)(cl_program, void *), void *user_data) {
  std::vector<char> reply;
  const cl_int err = rpc(p->rank, op, w, &reply);
  if (!reply.empty()) {
    Reader r(reply);
    record(p, r, options);
  }
  if (notify) notify(handle(p), user_data);
  return err;
}

}  // namespace

cl_int CL_API_CALL clBuildProgram(cl_program p_handle, cl_uint num_devices, const cl_device_id *devices,
                                  const char *options,
                                  void(CL_CALLBACK *notify)(cl_program, void *), void *user_data) {
  auto *p = remote(p_handle);
  if (!live(p, ObjectKind::kProgram)) return cluster::refuse(CL_INVALID_PROGRAM, "program is NULL or not a live program of the node client");
  if (cl_int err = check_build(p, num_devices, devices, notify, user_data); err != CL_SUCCESS) return err;
  Writer w;
  write(w, BuildProgram{p->id, p->context->device->handle, options ? options : ""});
  return build_on_node(p, Op::kBuildProgram, w, options, notify, user_data);
}

cl_int CL_API_CALL clCompileProgram(cl_program p_handle, cl_uint num_devices, const cl_device_id *devices,
                                    const char *options, cl_uint num_headers, const cl_program *headers,
                                    const char **header_names, void(CL_CALLBACK *notify)(cl_program, void *),
                                    void *user_data) {
  auto *p = remote(p_handle);
  if (!live(p, ObjectKind::kProgram)) return cluster::refuse(CL_INVALID_PROGRAM, "program is NULL or not a live program of the node client");
  if (cl_int err = check_build(p, num_devices, devices, notify, user_data); err != CL_SUCCESS) return err;
  if ((num_headers && (!headers || !header_names)) || (!num_headers && (headers || header_names)))
    return cluster::refuse(CL_INVALID_VALUE, "num_input_headers, input_headers and header_include_names disagree (0 or NULL)");
  CompileProgram m{p->id, p->context->device->handle, options ? options : "", {}};
  for (cl_uint i = 0; i < num_headers; ++i) {
    // Headers are programs of the same node's context.
    const RemoteProgram *header = remote(headers[i]);
    if (!live(header, ObjectKind::kProgram) || header->context != p->context || !header_names[i])
      return cluster::refuse(CL_INVALID_VALUE, "an input header is not a live program of the context, or its include name is NULL");
    m.headers.emplace_back(header->id, header_names[i]);
  }
  Writer w;
  write(w, m);
  return build_on_node(p, Op::kCompileProgram, w, options, notify, user_data);
}

cl_program CL_API_CALL clLinkProgram(cl_context c_handle, cl_uint num_devices, const cl_device_id *devices,
                                     const char *options, cl_uint num_inputs, const cl_program *inputs,
                                     void(CL_CALLBACK *notify)(cl_program, void *), void *user_data,
                                     cl_int *errcode_ret) {
  auto *c = remote(c_handle);
  if (!live(c, ObjectKind::kContext))
    return refused<cl_program>(errcode_ret, CL_INVALID_CONTEXT,
                               "context is NULL or not a live context of the node client");
  if ((num_devices && !devices) || (!num_devices && devices))
    return refused<cl_program>(errcode_ret, CL_INVALID_VALUE, "num_devices and device_list disagree (0 or NULL)");
  if (num_devices && (num_devices != 1 || remote(devices[0]) != c->device))
    return refused<cl_program>(errcode_ret, CL_INVALID_DEVICE, "device_list is not the context's one device");
  if (!num_inputs || !inputs || (!notify && user_data))
    return refused<cl_program>(errcode_ret, CL_INVALID_VALUE,
                               "no input programs (num_input_programs is 0 or input_programs NULL), or user_data without pfn_notify");
  const uint64_t id = new_id();
  LinkProgram m{id, c->id, c->device->handle, options ? options : "", {}};
  for (cl_uint i = 0; i < num_inputs; ++i) {
    const RemoteProgram *input = remote(inputs[i]);
    if (!live(input, ObjectKind::kProgram) || input->context != c)
      return refused<cl_program>(errcode_ret, CL_INVALID_PROGRAM,
                                 "an input program is not a live program of the context");
    m.inputs.push_back(input->id);
  }
  Writer w;
  write(w, m);
  std::vector<char> reply;
  const cl_int status = rpc(c->rank, Op::kLinkProgram, w, &reply);
  RemoteProgram *out = nullptr;
  if (reply.size() > 0) {
    Reader r(reply);
    if (r.get<uint8_t>()) {
      auto *p = make_proxy<RemoteProgram>(ObjectKind::kProgram, c->rank, id);
      p->context = c;
      retain(c);
      record(p, r, options);
      out = p;
    }
  }
  if (notify && out) notify(handle(out), user_data);
  return fail(errcode_ret, status, handle(out));
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
  return retain_handle<ObjectKind::kProgram, CL_INVALID_PROGRAM>(program);
}
cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  return release_handle<ObjectKind::kProgram, CL_INVALID_PROGRAM>(program);
}

cl_int CL_API_CALL clGetProgramInfo(cl_program p_handle, cl_program_info param, size_t size, void *value,
                                    size_t *size_ret) {
  auto *p = remote(p_handle);
  if (!live(p, ObjectKind::kProgram)) return cluster::refuse(CL_INVALID_PROGRAM, "program is NULL or not a live program of the node client");
  switch (param) {
    case CL_PROGRAM_REFERENCE_COUNT: return answer_value(p->refs.load(), size, value, size_ret);
    case CL_PROGRAM_CONTEXT: return answer_value(handle(p->context), size, value, size_ret);
    case CL_PROGRAM_NUM_DEVICES: return answer_value(cl_uint{1}, size, value, size_ret);
    case CL_PROGRAM_DEVICES: return answer_value(handle(p->context->device), size, value, size_ret);
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES: {
      std::lock_guard lock(p->mutex);
      if (p->facts && p->facts->program.count(param)) return answer_from(p->facts->program, param, size, value, size_ret);
      break;
    }
    case CL_PROGRAM_BINARIES: {
      // An array of one pointer to the caller's memory, sized by
      // CL_PROGRAM_BINARY_SIZES: the node sends the bytes.
      if (!value) return answer(nullptr, sizeof(unsigned char *), 0, nullptr, size_ret);
      if (size < sizeof(unsigned char *)) return cluster::refuse(CL_INVALID_VALUE, "size < sizeof(unsigned char *)");
      Writer w;
      write(w, InfoQuery{ObjectKind::kProgram, p->id, param, 0});
      std::vector<char> reply;
      if (cl_int err = rpc(p->rank, Op::kInfo, w, &reply); err != CL_SUCCESS) return err;
      auto binary = Reader(reply).bytes();
      unsigned char *out = *static_cast<unsigned char **>(value);
      if (out) std::memcpy(out, binary.data(), binary.size());
      if (size_ret) *size_ret = sizeof(unsigned char *);
      return CL_SUCCESS;
    }
    default: break;
  }
  return node_info(p, ObjectKind::kProgram, param, 0, size, value, size_ret);
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p_handle, cl_device_id device_handle,
                                         cl_program_build_info param, size_t size,
                                         void *value, size_t *size_ret) {
  auto *p = remote(p_handle);
  auto *device = remote(device_handle);
  if (!live(p, ObjectKind::kProgram)) return cluster::refuse(CL_INVALID_PROGRAM, "program is NULL or not a live program of the node client");
  if (device != p->context->device) return cluster::refuse(CL_INVALID_DEVICE, "device is not the program's device");
  {
    std::lock_guard lock(p->mutex);
    // The options the application gave (the node adds its own).
    if (param == CL_PROGRAM_BUILD_OPTIONS && p->facts)
      return answer(p->options.c_str(), p->options.size() + 1, size, value, size_ret);
    if (p->facts && p->facts->build.count(param)) return answer_from(p->facts->build, param, size, value, size_ret);
  }
  return node_info(p, ObjectKind::kProgramBuild, param, device->handle, size, value, size_ret);
}

// ---- kernels -----------------------------------------------------------------

cl_kernel CL_API_CALL clCreateKernel(cl_program p_handle, const char *name, cl_int *errcode_ret) {
  auto *p = remote(p_handle);
  if (!live(p, ObjectKind::kProgram))
    return refused<cl_kernel>(errcode_ret, CL_INVALID_PROGRAM,
                              "program is NULL or not a live program of the node client");
  if (!name) return refused<cl_kernel>(errcode_ret, CL_INVALID_VALUE, "kernel_name is NULL");
  KernelFacts facts;
  {
    std::lock_guard lock(p->mutex);
    const bool built =
        p->facts && info_value<cl_build_status>(p->facts->build, CL_PROGRAM_BUILD_STATUS, CL_BUILD_NONE) ==
                        CL_BUILD_SUCCESS &&
        info_value<cl_program_binary_type>(p->facts->build, CL_PROGRAM_BINARY_TYPE,
                                           CL_PROGRAM_BINARY_TYPE_EXECUTABLE) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    if (!built)
      return refused<cl_kernel>(errcode_ret, CL_INVALID_PROGRAM_EXECUTABLE,
                                "the program has no executable built for its device");
    auto it = std::find_if(p->facts->kernels.begin(), p->facts->kernels.end(),
                           [&](const KernelFacts &k) { return k.name == name; });
    if (it == p->facts->kernels.end())
      return refused<cl_kernel>(errcode_ret, CL_INVALID_KERNEL_NAME, "the program has no kernel of that name");
    facts = *it;
    ++p->kernels_attached;
  }
  if (node_lost(p->rank)) {
    std::lock_guard lock(p->mutex);
    --p->kernels_attached;
    return refused<cl_kernel>(errcode_ret, CL_DEVICE_NOT_AVAILABLE, "the node was lost");
  }
  auto *k = make_proxy<RemoteKernel>(ObjectKind::kKernel, p->rank);
  k->program = p;
  const auto count = info_value<cl_uint>(facts.info, CL_KERNEL_NUM_ARGS, static_cast<cl_uint>(facts.args.size()));
  for (cl_uint i = 0; i < count; ++i) k->shapes.push_back(i < facts.args.size() ? arg_shape(facts.args[i]) : ArgShape{});
  k->args.resize(count), k->sent.resize(count), k->arg_objects.resize(count);
  k->facts = std::move(facts);
  retain(p);
  Writer w;
  write(w, CreateKernel{k->id, p->id, name});
  post(p->rank, Op::kCreateKernel, w);
  return fail(errcode_ret, CL_SUCCESS, handle(k));
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  return retain_handle<ObjectKind::kKernel, CL_INVALID_KERNEL>(kernel);
}
cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  return release_handle<ObjectKind::kKernel, CL_INVALID_KERNEL>(kernel);
}

// Checked here from what the build told of the argument (ArgShape), and
// kept until a launch: nothing is sent.
cl_int CL_API_CALL clSetKernelArg(cl_kernel k_handle, cl_uint index, size_t size, const void *value) {
  auto *k = remote(k_handle);
  if (!live(k, ObjectKind::kKernel)) return cluster::refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel of the node client");
  if (index >= k->shapes.size()) return cluster::refuse(CL_INVALID_ARG_INDEX, "arg_index is not below the kernel's number of arguments");
  const RemoteContext *context = k->program->context;
  const void *given = value && size == sizeof(void *) ? *static_cast<void *const *>(value) : nullptr;
  KernelArg a;
  const void *object = nullptr;
  auto memory = [&](bool image) {
    if (size != sizeof(cl_mem)) return cluster::refuse(CL_INVALID_ARG_SIZE, "arg_size is not sizeof(cl_mem) for a memory object argument");
    const auto *m = static_cast<const RemoteMemory *>(given);
    if (!m) {
      if (image) return cluster::refuse(CL_INVALID_MEM_OBJECT, "image");
      a.kind = ArgKind::kNullMemory;
      return CL_SUCCESS;
    }
    if (!live(m, ObjectKind::kMemory) || m->context != context) return cluster::refuse(CL_INVALID_MEM_OBJECT, "a memory object is not a live one of the context");
    if (image != (m->type != CL_MEM_OBJECT_BUFFER)) return cluster::refuse(CL_INVALID_MEM_OBJECT, "a buffer where an image is expected, or the reverse");
    a.kind = ArgKind::kMemory, a.id = m->id, object = m;
    return CL_SUCCESS;
  };
  auto sampler = [&] {
    if (size != sizeof(cl_sampler)) return cluster::refuse(CL_INVALID_ARG_SIZE, "arg_size is not sizeof(cl_sampler) for a sampler argument");
    const auto *s = static_cast<const RemoteSampler *>(given);
    if (!live(s, ObjectKind::kSampler) || s->context != context) return cluster::refuse(CL_INVALID_SAMPLER, "sampler is not a live sampler of the context");
    a.kind = ArgKind::kSampler, a.id = s->id, object = s;
    return CL_SUCCESS;
  };
  auto bytes = [&] {
    a.kind = ArgKind::kBytes;
    a.bytes.assign(static_cast<const char *>(value), static_cast<const char *>(value) + size);
    return CL_SUCCESS;
  };
  const ArgShape shape = k->shapes[index];
  cl_int err = CL_SUCCESS;
  switch (shape.kind) {
    case ArgShape::kLocal:
      if (value) return cluster::refuse(CL_INVALID_ARG_VALUE, "value");
      if (size == 0) return cluster::refuse(CL_INVALID_ARG_SIZE, "size is 0");
      a.kind = ArgKind::kLocal, a.size = size;
      break;
    case ArgShape::kMemory: err = memory(false); break;
    case ArgShape::kImage: err = memory(true); break;
    case ArgShape::kSampler: err = sampler(); break;
    case ArgShape::kValue:
      if (!value) return cluster::refuse(CL_INVALID_ARG_VALUE, "arg_value is NULL");
      if (size == 0 || (shape.size && size != shape.size)) return cluster::refuse(CL_INVALID_ARG_SIZE, "arg_size is 0 or not the argument's size");
      err = bytes();
      break;
    case ArgShape::kUnknown:
      // The vendor told nothing of the argument: a value that is a memory
      // object or sampler of ours is taken as one, no value as local memory.
      if (given && live(given, ObjectKind::kMemory)) err = memory(static_cast<const RemoteMemory *>(given)->type != CL_MEM_OBJECT_BUFFER);
      else if (given && live(given, ObjectKind::kSampler)) err = sampler();
      else if (!value) a.kind = ArgKind::kLocal, a.size = size;
      else err = bytes();
      break;
  }
  if (err != CL_SUCCESS) return err;
  std::lock_guard lock(k->mutex);
  k->args[index] = std::move(a);
  k->arg_objects[index] = object;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel k_handle, cl_kernel_info param, size_t size, void *value,
                                   size_t *size_ret) {
  auto *k = remote(k_handle);
  if (!live(k, ObjectKind::kKernel)) return cluster::refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel of the node client");
  switch (param) {
    case CL_KERNEL_REFERENCE_COUNT: return answer_value(k->refs.load(), size, value, size_ret);
    case CL_KERNEL_PROGRAM: return answer_value(handle(k->program), size, value, size_ret);
    case CL_KERNEL_CONTEXT: return answer_value(handle(k->program->context), size, value, size_ret);
    default:
      if (k->facts.info.count(param)) return answer_from(k->facts.info, param, size, value, size_ret);
      return node_info(k, ObjectKind::kKernel, param, 0, size, value, size_ret);
  }
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel k_handle, cl_device_id device_handle,
                                            cl_kernel_work_group_info param,
                                            size_t size, void *value, size_t *size_ret) {
  auto *k = remote(k_handle);
  auto *device = remote(device_handle);
  if (!live(k, ObjectKind::kKernel)) return cluster::refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel of the node client");
  if (device && device != k->program->context->device) return cluster::refuse(CL_INVALID_DEVICE, "device is not the kernel's device");
  if (k->facts.work_group.count(param)) return answer_from(k->facts.work_group, param, size, value, size_ret);
  // The local memory of a kernel counts its local arguments: the node's
  // kernel gets them first.
  if (param == CL_KERNEL_LOCAL_MEM_SIZE) {
    Writer w;
    w.put(k->id);
    if (cl_int err = changed_args(k, w, false); err != CL_SUCCESS) return err;
    post(k->rank, Op::kSetKernelArgs, w);
  }
  return node_info(k, ObjectKind::kKernelWorkGroup, param, k->program->context->device->handle, size, value,
                   size_ret);
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k_handle, cl_uint index, cl_kernel_arg_info param, size_t size,
                                      void *value,
                                      size_t *size_ret) {
  auto *k = remote(k_handle);
  if (!live(k, ObjectKind::kKernel)) return cluster::refuse(CL_INVALID_KERNEL, "kernel is NULL or not a live kernel of the node client");
  if (index >= k->shapes.size()) return cluster::refuse(CL_INVALID_ARG_INDEX, "arg_index is not below the kernel's number of arguments");
  if (index < k->facts.args.size() && k->facts.args[index].count(param))
    return answer_from(k->facts.args[index], param, size, value, size_ret);
  if (index < k->facts.args.size() && k->facts.args[index].empty()) return cluster::refuse(CL_KERNEL_ARG_INFO_NOT_AVAILABLE, "the program was built without argument information (-cl-kernel-arg-info)");
  return node_info(k, ObjectKind::kKernelArg, param, index, size, value, size_ret);
}

}  // namespace unicl::api
