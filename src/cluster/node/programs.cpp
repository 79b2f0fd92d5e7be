// The node's program builds, compilations and links (the requests rank 0
// waits for), and what their replies tell rank 0 of the program: enough to
// answer the queries that follow and check kernels and launches itself.
#include <sstream>

#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "cluster/node/server.hpp"

namespace unicl::cluster {
namespace {


// The options a build is made with here: the application's, and argument
// information kept (OpenCL 1.2 on), so that rank 0 learns each kernel's
// arguments (their address spaces and types) and checks clSetKernelArg
// itself. Rank 0 answers CL_PROGRAM_BUILD_OPTIONS with the application's.
std::string with_arg_info(const std::string &options, cl_device_id device) {
  const std::string version = vendor_text(device, CL_DEVICE_VERSION);  // "OpenCL 1.2 ..."
  if (version.rfind("OpenCL 1.0", 0) == 0 || version.rfind("OpenCL 1.1", 0) == 0) return options;
  return options + " -cl-kernel-arg-info";
}

}  // namespace

ProgramFacts NodeServer::facts_of(cl_program program, cl_device_id device, bool with_kernels) const {
  ProgramFacts f;
  f.build = answers(build_params(), [&](cl_uint p, size_t n, void *v, size_t *r) {
    return vendor_build_info(program, device, p, n, v, r);
  });
  if (!with_kernels) return f;
  f.program = answers(program_params(), [&](cl_uint p, size_t n, void *v, size_t *r) {
    return vendor_info(program, p, n, v, r);
  });
  std::stringstream names(vendor_text(program, CL_PROGRAM_KERNEL_NAMES));
  for (std::string name; std::getline(names, name, ';');) {
    if (name.empty()) continue;
    cl_int err = CL_SUCCESS;
    auto kernel = vendor_kernel(program, name.c_str(), err);
    if (err != CL_SUCCESS) continue;
    KernelFacts &k = f.kernels.emplace_back();
    k.name = name;
    k.info = answers(kernel_params(), [&](cl_uint p, size_t n, void *v, size_t *r) {
      return vendor_info(kernel.get(), p, n, v, r);
    });
    k.work_group = answers(work_group_params(), [&](cl_uint p, size_t n, void *v, size_t *r) {
      return vendor_work_group_info(kernel.get(), device, p, n, v, r);
    });
    const auto count = vendor_value<cl_uint>(kernel.get(), CL_KERNEL_NUM_ARGS);
    for (cl_uint i = 0; i < count; ++i)
      k.args.push_back(answers(arg_params(), [&](cl_uint p, size_t n, void *v, size_t *r) {
        return vendor_arg_info(kernel.get(), i, p, n, v, r);
      }));
  }
  return f;
}

NodeServer::BuildTarget NodeServer::build_target(uint64_t program, uint64_t device, const std::string &options,
                                                 cl_int &err) const {
  BuildTarget t;
  t.program = objects_.find(objects_.programs, program, err, CL_INVALID_PROGRAM);
  t.device = as<cl_device_id>(device);
  t.options = with_arg_info(options, t.device);
  return t;
}

cl_int NodeServer::build_program(Reader &args, Writer &result) {
  cl_int err = CL_SUCCESS;
  const auto m = read_message<BuildProgram>(args);
  const auto [program, device, options] = build_target(m.program, m.device, m.options, err);
  if (!program) return err;
  err = vendor_build(program, device, options.c_str());
  write(result, facts_of(program, device, err == CL_SUCCESS));
  return err;
}

cl_int NodeServer::compile_program(Reader &args, Writer &result) {
  cl_int err = CL_SUCCESS;
  const auto m = read_message<CompileProgram>(args);
  const auto [program, device, options] = build_target(m.program, m.device, m.options, err);
  std::vector<cl_program> headers;
  std::vector<const char *> names;
  for (auto &[header, name] : m.headers) {
    headers.push_back(objects_.find(objects_.programs, header, err, CL_INVALID_VALUE));
    names.push_back(name.c_str());
  }
  if (!program || err != CL_SUCCESS) return err;
  err = vendor_compile(program, device, options.c_str(), headers, names.empty() ? nullptr : names.data());
  write(result, facts_of(program, device, false));
  return err;
}

cl_int NodeServer::link_program(Reader &args, Writer &result) {
  cl_int err = CL_SUCCESS;
  const auto m = read_message<LinkProgram>(args);
  cl_context context = objects_.find(objects_.contexts, m.context, err, CL_INVALID_CONTEXT);
  auto device = as<cl_device_id>(m.device);
  std::vector<cl_program> inputs;
  for (uint64_t input : m.inputs) inputs.push_back(objects_.find(objects_.programs, input, err, CL_INVALID_PROGRAM));
  if (!context || err != CL_SUCCESS) {
    result.put<uint8_t>(0);
    return err;
  }
  cl_int status = CL_SUCCESS;
  auto linked = vendor_link(context, device, m.options.c_str(), inputs, status);
  // A failed link may still give a program (its log says why).
  result.put<uint8_t>(linked ? 1 : 0);
  if (linked) {
    write(result, facts_of(linked.get(), device, status == CL_SUCCESS));
    objects_.programs[m.id] = std::move(linked);
  }
  return status;
}

cl_int NodeServer::program_from_binary(Reader &args, Writer &result) {
  const auto m = read_message<CreateProgramBinary>(args);
  cl_int err = CL_SUCCESS;
  cl_context context = objects_.find(objects_.contexts, m.context, err, CL_INVALID_CONTEXT);
  auto device = as<cl_device_id>(m.device);
  cl_int status = CL_SUCCESS;
  if (!context) {
    result.put(err);
    return err;
  }
  auto p = vendor_program_with_binary(context, device, m.binary.size(),
                                      reinterpret_cast<const unsigned char *>(m.binary.data()), status, err);
  result.put(status);
  if (err == CL_SUCCESS) objects_.programs[m.id] = std::move(p);
  return err;
}

}  // namespace unicl::cluster
