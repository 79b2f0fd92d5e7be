// An MPI application that also uses OpenCL, for the cluster tests: it
// initializes MPI itself (MPI_THREAD_MULTIPLE), lists the UniCL platform's
// devices as unicl-probe does ("device <platform>|<device>|1"), then
// finalizes MPI; UniCL must say goodbye to its nodes inside that
// MPI_Finalize, or the job never ends.
#include <CL/cl.h>
#include <CL/cl_ext_unicl.h>
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  std::printf("mpi thread level %s\n", provided == MPI_THREAD_MULTIPLE ? "multiple" : "lower");
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  if (count) clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_platform_id p : platforms) {
    char name[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    cl_uint n = 0;
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n);
    std::vector<cl_device_id> devices(n);
    if (n) clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, devices.data(), nullptr);
    for (cl_device_id d : devices) {
      char dev[256] = {}, host[256] = {};
      cl_uint node = 99;
      clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof dev, dev, nullptr);
      clGetDeviceInfo(d, CL_DEVICE_NODE_UNICL, sizeof node, &node, nullptr);
      clGetDeviceInfo(d, CL_DEVICE_NODE_HOST_UNICL, sizeof host, host, nullptr);
      std::printf("device %s|%s|1\n", name, dev);
      std::printf("node %s|%u|%s\n", dev, node, host);
      cl_double network[2] = {-1, -1};
      clGetDeviceInfo(d, CL_DEVICE_NODE_LINK_UNICL, sizeof network, network, nullptr);
      std::printf("network %s|%s\n", dev, network[0] > 0 && network[1] > 0 ? "measured" : network[0] == 0 && network[1] == 0 ? "none" : "?");
      // CL_DEVICE_NODE_LINKS_UNICL: to every other rank measured, to its own
      // node none; nothing for this machine's devices.
      size_t bytes = 0;
      clGetDeviceInfo(d, CL_DEVICE_NODE_LINKS_UNICL, 0, nullptr, &bytes);
      std::vector<cl_double> links(bytes / sizeof(cl_double));
      if (bytes) clGetDeviceInfo(d, CL_DEVICE_NODE_LINKS_UNICL, bytes, links.data(), nullptr);
      bool measured = !links.empty();
      for (size_t r = 0; r < links.size() / 2; ++r)
        measured = measured && (r == node ? links[2 * r] == 0 && links[2 * r + 1] == 0 : links[2 * r] > 0 && links[2 * r + 1] > 0);
      std::printf("links %s|%zu|%s\n", dev, links.size() / 2, measured ? "measured" : links.empty() ? "none" : "?");
    }
  }
  std::fflush(stdout);
  MPI_Finalize();
  std::printf("finalized\n");
  return 0;
}
