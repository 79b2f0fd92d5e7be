#include "sample_common.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace sample {

namespace {

const char *mode_name(QueueMode mode) { return mode == QueueMode::per_device ? "per-device" : "device-less"; }

void print_usage(const Description &d) {
  std::printf(
      "usage: %s [--platform SUBSTRING] [--size N] [--blocks B] [--queue per-device|device-less] "
      "[--scheduler NAME]\n"
      "  --platform   the first platform whose name contains SUBSTRING (default: the first platform)\n"
      "  --size       %s (default %zu)\n"
      "  --blocks     %s (default %zu)\n"
      "  --queue      per-device: one in-order queue per device, launches dealt round-robin;\n"
      "               device-less: one out-of-order queue without a device, the platform places\n"
      "               each command (a UniCL extension; default on the \"" CL_UNICL_PLATFORM_NAME
      "\" platform)\n"
      "  --scheduler  UniCL placement policy for device-less queues: heft, eager, ws, random, round-robin\n",
      d.name, d.size_meaning, d.default_size, d.blocks_meaning, d.default_blocks);
}

size_t parse_count(const std::string &option, const std::string &value) {
  // std::stoul alone accepts "12abc" and "-1"; a count is digits only.
  if (value.empty() || value.size() > 9 || !std::all_of(value.begin(), value.end(), [](char c) {
        return c >= '0' && c <= '9';
      }))
    throw UsageError(option + " needs a positive integer below 10^9, not '" + value + "'");
  const size_t n = std::stoul(value);
  if (n == 0) throw UsageError(option + " must be positive");
  return n;
}

cl::Platform choose_platform(const std::string &substring) {
  std::vector<cl::Platform> platforms;
  cl::Platform::get(&platforms);
  for (auto &p : platforms)
    if (p.getInfo<CL_PLATFORM_NAME>().find(substring) != std::string::npos) return p;
  throw UsageError("no OpenCL platform name contains '" + substring + "'");
}

// Where the command of `event` ran: UniCL says so directly (and it is the
// only way for device-less queues); elsewhere the queue's device is the
// answer. nullptr when neither query answers.
cl_device_id device_of(const cl::Event &event) {
  cl_device_id device = nullptr;
  if (clGetEventInfo(event(), CL_EVENT_DEVICE_UNICL, sizeof device, &device, nullptr) == CL_SUCCESS && device)
    return device;
  cl_command_queue queue = nullptr;
  if (clGetEventInfo(event(), CL_EVENT_COMMAND_QUEUE, sizeof queue, &queue, nullptr) != CL_SUCCESS || !queue)
    return nullptr;
  device = nullptr;
  if (clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) != CL_SUCCESS) return nullptr;
  return device;
}

}  // namespace

Options parse_options(int argc, char **argv, const Description &description) {
  Options o;
  o.size = description.default_size;
  o.blocks = description.default_blocks;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      print_usage(description);
      std::exit(0);
    }
    if (i + 1 >= argc) throw UsageError("missing value after " + arg);
    const std::string value = argv[++i];
    if (arg == "--platform") {
      o.platform = value;
    } else if (arg == "--size") {
      o.size = parse_count(arg, value);
    } else if (arg == "--blocks") {
      o.blocks = parse_count(arg, value);
    } else if (arg == "--queue") {
      if (value == "per-device") o.queue = QueueMode::per_device;
      else if (value == "device-less") o.queue = QueueMode::device_less;
      else throw UsageError("--queue is per-device or device-less, not '" + value + "'");
    } else if (arg == "--scheduler") {
      if (value.empty()) throw UsageError("--scheduler needs a policy name");
      o.scheduler = value;
    } else {
      throw UsageError("unknown option " + arg);
    }
  }
  return o;
}

std::vector<Range> split(size_t total, size_t parts) {
  std::vector<Range> ranges;
  for (size_t p = 0; p < parts; ++p) {
    const size_t begin = total * p / parts, end = total * (p + 1) / parts;
    ranges.push_back({begin, end - begin});
  }
  return ranges;
}

Session::Session(const Options &options) {
  platform_ = choose_platform(options.platform);
  platform_name_ = platform_.getInfo<CL_PLATFORM_NAME>();
  platform_.getDevices(CL_DEVICE_TYPE_ALL, &devices_);
  mode_ = options.queue.value_or(platform_name_ == CL_UNICL_PLATFORM_NAME ? QueueMode::device_less
                                                                          : QueueMode::per_device);

  // Naming the platform keeps the context on it even if the devices'
  // platform were ambiguous; the scheduler property is UniCL's own.
  std::vector<cl_context_properties> properties = {CL_CONTEXT_PLATFORM,
                                                   reinterpret_cast<cl_context_properties>(platform_())};
  if (!options.scheduler.empty()) {
    properties.push_back(CL_CONTEXT_SCHEDULER_UNICL);
    properties.push_back(reinterpret_cast<cl_context_properties>(options.scheduler.c_str()));
  }
  properties.push_back(0);
  try {
    context_ = cl::Context(devices_, properties.data());
  } catch (const cl::Error &e) {
    if (e.err() != CL_INVALID_PROPERTY || options.scheduler.empty()) throw;
    throw std::runtime_error("platform '" + platform_name_ + "' refused --scheduler " + options.scheduler +
                             " (CL_INVALID_PROPERTY)");
  }
  host_waits_ = mode_ == QueueMode::per_device && platform_name_ == "Portable Computing Language";

  std::printf("platform: %s, %zu device(s), queue mode: %s%s%s\n", platform_name_.c_str(), devices_.size(),
              mode_name(mode_), options.scheduler.empty() ? "" : ", scheduler: ", options.scheduler.c_str());
  for (size_t d = 0; d < devices_.size(); ++d)
    std::printf("  [%zu] %s\n", d, devices_[d].getInfo<CL_DEVICE_NAME>().c_str());
  if (host_waits_) std::printf("cross-queue dependencies: waited for on the host (PoCL hangs on them otherwise)\n");

  if (mode_ == QueueMode::per_device) {
    for (const auto &device : devices_) queues_.emplace_back(context_, device, 0);
  } else {
    // The bindings have no constructor for a NULL device (theirs would pick
    // the context's first device), hence the C call.
    cl_int err = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueue(context_(), nullptr, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS)
      throw std::runtime_error("platform '" + platform_name_ + "' refused a device-less queue (OpenCL error " +
                               std::to_string(err) + "); use --queue per-device");
    queues_.emplace_back(queue);  // adopts the reference
  }
}

cl::Program Session::build(const char *source, const char *options) const {
  cl::Program program(context_, source);
  try {
    program.build(devices_, options);
  } catch (const cl::BuildError &e) {
    for (const auto &[device, log] : e.getBuildLog())
      std::fprintf(stderr, "build log (%s):\n%s\n", device.getInfo<CL_DEVICE_NAME>().c_str(), log.c_str());
    throw;
  }
  return program;
}

size_t Session::max_work_group(const cl::Kernel &kernel) const {
  size_t smallest = SIZE_MAX;
  for (const auto &device : devices_) {
    smallest = std::min(smallest, kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device));
    smallest = std::min(smallest, device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>().at(0));
  }
  return smallest;
}

std::vector<cl::Event> Session::wait_list_for(const cl::CommandQueue &queue, const std::vector<cl::Event> &wait) const {
  if (!host_waits_) return wait;
  std::vector<cl::Event> same_queue, other_queues;
  for (const auto &event : wait)
    (event.getInfo<CL_EVENT_COMMAND_QUEUE>()() == queue() ? same_queue : other_queues).push_back(event);
  wait_all(other_queues);
  return same_queue;
}

cl::Event Session::launch(const cl::Kernel &kernel, const cl::NDRange &global, const cl::NDRange &local,
                          const std::vector<cl::Event> &wait) {
  cl::CommandQueue &queue = queues_[next_queue_++ % queues_.size()];
  const std::vector<cl::Event> wait_list = wait_list_for(queue, wait);
  cl::Event event;
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, &wait_list, &event);
  queue.flush();
  launches_.push_back(event);
  return event;
}

cl::CommandQueue &Session::queue_of(const cl::Event &event) {
  const cl_command_queue handle = event.getInfo<CL_EVENT_COMMAND_QUEUE>()();
  for (auto &queue : queues_)
    if (queue() == handle) return queue;
  throw std::logic_error("event of a queue this session does not own");
}

cl::Event Session::read(const cl::Buffer &buffer, size_t offset, size_t bytes, void *dst, const cl::Event &producer) {
  cl::CommandQueue &queue = queue_of(producer);
  const std::vector<cl::Event> wait = {producer};
  cl::Event event;
  queue.enqueueReadBuffer(buffer, CL_FALSE, offset, bytes, dst, &wait, &event);
  queue.flush();
  return event;
}

cl::Event Session::copy(const cl::Buffer &src, const cl::Buffer &dst, size_t src_offset, size_t dst_offset,
                        size_t bytes, const std::vector<cl::Event> &wait) {
  cl::CommandQueue &queue = wait.empty() ? queues_.front() : queue_of(wait.front());
  const std::vector<cl::Event> wait_list = wait_list_for(queue, wait);
  cl::Event event;
  queue.enqueueCopyBuffer(src, dst, src_offset, dst_offset, bytes, &wait_list, &event);
  queue.flush();
  return event;
}

void Session::wait_all(const std::vector<cl::Event> &events) {
  if (!events.empty()) cl::Event::waitForEvents(events);
}

void Session::report(bool correct) const {
  std::vector<size_t> counts(devices_.size(), 0);
  size_t unknown = 0;
  for (const auto &event : launches_) {
    const cl_device_id device = device_of(event);
    const auto it = std::find_if(devices_.begin(), devices_.end(), [&](const cl::Device &d) { return d() == device; });
    if (it == devices_.end()) ++unknown;
    else ++counts[static_cast<size_t>(it - devices_.begin())];
  }
  for (size_t d = 0; d < devices_.size(); ++d)
    std::printf("device %s: %zu launches\n", devices_[d].getInfo<CL_DEVICE_NAME>().c_str(), counts[d]);
  if (unknown) std::printf("device (unknown): %zu launches\n", unknown);
  std::printf("elapsed: %.1f ms\n", std::chrono::duration<double, std::milli>(stop_ - start_).count());
  std::printf("result: %s\n", correct ? "OK" : "WRONG");
}

int main(int argc, char **argv, const Description &description,
         const std::function<bool(Session &, const Options &)> &body) {
  try {
    const Options options = parse_options(argc, argv, description);
    Session session(options);
    const bool correct = body(session, options);
    session.report(correct);
    return correct ? 0 : 1;
  } catch (const UsageError &e) {
    std::fprintf(stderr, "%s: %s (see --help)\n", description.name, e.what());
  } catch (const cl::Error &e) {
    std::fprintf(stderr, "%s: OpenCL error %d in %s\n", description.name, e.err(), e.what());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s: %s\n", description.name, e.what());
  }
  return 2;
}

}  // namespace sample
