#include "platform_report.hpp"

#include <CL/cl_ext_unicl.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "opencl_cpp.hpp"
#include "vendor_platforms.hpp"

namespace unicl_tool {
namespace {

std::string type_text(cl_device_type type) {
  std::string s;
  auto add = [&](cl_device_type bit, const char *name) {
    if (type & bit) s += (s.empty() ? "" : "|") + std::string(name);
  };
  add(CL_DEVICE_TYPE_CPU, "CPU");
  add(CL_DEVICE_TYPE_GPU, "GPU");
  add(CL_DEVICE_TYPE_ACCELERATOR, "ACCELERATOR");
  add(CL_DEVICE_TYPE_CUSTOM, "CUSTOM");
  add(CL_DEVICE_TYPE_DEFAULT, "DEFAULT");
  return s.empty() ? "?" : s;
}

std::string bytes_text(cl_ulong bytes) {
  char buf[32];
  if (bytes >= (cl_ulong{1} << 30))
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1 << 30));
  else
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return buf;
}

// Claims the first vendor device not claimed yet with this name and vendor
// id: UniCL lists devices in vendor order, so equal names pair up in order.
std::string vendor_platform_of(const cl::Device &d, std::vector<VendorDevice> &vendor_devices) {
  const std::string name = d.getInfo<CL_DEVICE_NAME>();
  const cl_uint id = d.getInfo<CL_DEVICE_VENDOR_ID>();
  for (auto it = vendor_devices.begin(); it != vendor_devices.end(); ++it) {
    if (it->name == name && it->vendor_id == id) {
      std::string text = it->platform + " (" + it->library + ")";
      vendor_devices.erase(it);
      return text;
    }
  }
  return "? (vendor " + d.getInfo<CL_DEVICE_VENDOR>() + ")";
}

cl_uint node_of(const cl::Device &d) {
  cl_uint node = 0;
  return clGetDeviceInfo(d(), CL_DEVICE_NODE_UNICL, sizeof node, &node, nullptr) == CL_SUCCESS ? node : 0;
}

std::string text_info(const cl::Device &d, cl_device_info param) {
  size_t n = 0;
  if (clGetDeviceInfo(d(), param, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string text(n, '\0');
  if (clGetDeviceInfo(d(), param, n, text.data(), nullptr) != CL_SUCCESS) return {};
  text.resize(text.find('\0'));
  return text;
}

// The network from a node's device's node to every other rank of the job,
// as measured when the nodes joined (CL_DEVICE_NODE_LINKS_UNICL): one line.
std::string network_line(const cl::Device &d, cl_uint node) {
  size_t n = 0;
  if (clGetDeviceInfo(d(), CL_DEVICE_NODE_LINKS_UNICL, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::vector<cl_double> links(n / sizeof(cl_double));
  if (clGetDeviceInfo(d(), CL_DEVICE_NODE_LINKS_UNICL, n, links.data(), nullptr) != CL_SUCCESS) return {};
  std::string line;
  for (size_t rank = 0; rank < links.size() / 2; ++rank) {
    if (rank == node) continue;
    char one[96];
    if (links[2 * rank + 1] > 0)
      std::snprintf(one, sizeof one, "%srank %zu %.1f us, %.1f GB/s", line.empty() ? "" : "; ", rank,
                    links[2 * rank] * 1e6, links[2 * rank + 1] / 1e9);
    else
      std::snprintf(one, sizeof one, "%srank %zu not measured", line.empty() ? "" : "; ", rank);
    line += one;
  }
  return line.empty() ? line : "  network (one way, measured at start): " + line + "\n";
}

void print_device(std::ostream &out, size_t index, const cl::Device &d, const std::string &vendor_platform) {
  out << "  [" << index << "] " << d.getInfo<CL_DEVICE_NAME>() << "\n"
      << "      vendor platform : " << vendor_platform << "\n"
      << "      type            : " << type_text(d.getInfo<CL_DEVICE_TYPE>()) << "\n"
      << "      version         : " << d.getInfo<CL_DEVICE_VERSION>() << "\n"
      << "      global memory   : " << bytes_text(d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>()) << "\n"
      << "      compute units   : " << d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>() << "\n"
      << "      max clock       : " << d.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>() << " MHz\n";
}

}  // namespace

bool print_platforms(std::ostream &out) {
  std::vector<cl::Platform> platforms;
  // The C++ wrapper throws on CL_PLATFORM_NOT_FOUND_KHR; no platform is a
  // report, not an error.
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error &) {
    platforms.clear();
  }
  const char *vendors = std::getenv("UNICL_VENDORS");
  std::vector<VendorDevice> vendor_devices = list_vendor_devices(vendors ? vendors : "");
  bool unicl_seen = false;
  out << "OpenCL platforms seen through the ICD loader: " << platforms.size() << "\n";
  for (const auto &p : platforms) {
    const std::string name = p.getInfo<CL_PLATFORM_NAME>();
    const bool is_unicl = name == CL_UNICL_PLATFORM_NAME;
    unicl_seen |= is_unicl;
    out << "Platform \"" << name << "\"\n"
        << "  version     : " << p.getInfo<CL_PLATFORM_VERSION>() << "\n"
        << "  extensions  : " << p.getInfo<CL_PLATFORM_EXTENSIONS>() << "\n";
    if (is_unicl) out << "  vendors     : " << (vendors ? vendors : "(UniCL's defaults)") << "\n";
    std::vector<cl::Device> devices;
    try {
      p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error &) {
      devices.clear();  // CL_DEVICE_NOT_FOUND: a platform without devices
    }
    out << "  devices     : " << devices.size() << "\n";
    // Devices of other nodes: each node's machine once, after the list.
    std::map<cl_uint, std::string> nodes;
    for (size_t i = 0; i < devices.size(); ++i) {
      const cl_uint node = is_unicl ? node_of(devices[i]) : 0;
      if (node == 0) {
        print_device(out, i, devices[i], is_unicl ? vendor_platform_of(devices[i], vendor_devices) : name);
        continue;
      }
      const std::string where = text_info(devices[i], CL_DEVICE_NODE_HOST_UNICL) + ":" + std::to_string(node);
      print_device(out, i, devices[i], "a platform of node " + where + " (served by its unicl-node)");
      nodes.try_emplace(node, "Node " + where + " " + text_info(devices[i], CL_DEVICE_NODE_TOPOLOGY_UNICL) +
                                  network_line(devices[i], node));
    }
    for (auto &[rank, text] : nodes) out << text;
  }
  return unicl_seen;
}

}  // namespace unicl_tool
