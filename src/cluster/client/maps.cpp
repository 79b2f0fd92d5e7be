// The node client's maps: the mapped bytes live in rank 0's memory, filled
// by a read of the node's object at the map and written back at the unmap
// (the write sent once the map's read has ended: enqueue.hpp).
#include "cluster/client/enqueue.hpp"
#include "cluster/client/refusal.hpp"

namespace unicl::api {
using namespace unicl::cluster;

void *CL_API_CALL clEnqueueMapImage(cl_command_queue q_handle, cl_mem image_handle, cl_bool blocking,
                                    cl_map_flags flags,
                                    const size_t *origin, const size_t *region, size_t *row_pitch,
                                    size_t *slice_pitch, cl_uint num_wait, const cl_event *wait, cl_event *event,
                                    cl_int *errcode_ret) {
  auto *q = remote(q_handle);
  auto *image = remote(image_handle);
  auto fail = [&](cl_int err) -> void * {
    if (errcode_ret) *errcode_ret = err;
    return nullptr;
  };
  if (cl_int err = object_error(image, q, true); err != CL_SUCCESS) return fail(err);
  const bool layered = image->type == CL_MEM_OBJECT_IMAGE3D || image->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                       image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  if (!valid_region(origin, region) || !row_pitch || (layered && !slice_pitch)) return fail(CL_INVALID_VALUE);
  if (cl_int err = map_flags_error(image, flags); err != CL_SUCCESS) return fail(err);
  // The mapped pixels live in rank 0's memory, packed.
  RemoteMemory::Mapping m{0, region[0] * image->element * region[1] * region[2], flags, {}};
  for (int i = 0; i < 3; ++i) m.origin[i] = origin[i], m.region[i] = region[i];
  m.storage = std::make_shared<std::vector<char>>(m.size);
  char *ptr = m.storage->data();
  *row_pitch = region[0] * image->element;
  if (slice_pitch)
    *slice_pitch = image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? *row_pitch : layered ? *row_pitch * region[1] : 0;
  cl_int err = CL_SUCCESS;
  if (flags & CL_MAP_WRITE_INVALIDATE_REGION) {
    err = enqueue(q, Op::kMarker, CL_COMMAND_MAP_IMAGE, num_wait, wait, event, blocking,
                  [](Writer &) { return CL_SUCCESS; });
  } else {
    err = enqueue(
        q, Op::kReadImage, CL_COMMAND_MAP_IMAGE, num_wait, wait, event, blocking,
        [&](Writer &w) {
          w.put(image->id);
          write(w, Box{size3(origin), size3(region)});
          return CL_SUCCESS;
        },
        {.read_into = ptr, .read_size = m.size});
  }
  if (err != CL_SUCCESS && err != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) return fail(err);
  {
    std::lock_guard lock(image->maps_mutex);
    image->maps.emplace_back(ptr, std::move(m));
  }
  if (errcode_ret) *errcode_ret = err;
  return ptr;
}

// ---- maps: host memory of rank 0, filled by a read, written back at unmap ----

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q_handle, cl_mem buffer_handle, cl_bool blocking,
                                     cl_map_flags flags,
                                     size_t offset, size_t size, cl_uint num_wait, const cl_event *wait,
                                     cl_event *event, cl_int *errcode_ret) {
  auto *q = remote(q_handle);
  auto *buffer = remote(buffer_handle);
  auto fail = [&](cl_int err) -> void * {
    if (errcode_ret) *errcode_ret = err;
    return nullptr;
  };
  if (cl_int err = object_error(buffer, q); err != CL_SUCCESS) return fail(err);
  if (cl_int err = range_error(buffer, offset, size); err != CL_SUCCESS) return fail(err);
  if (cl_int err = map_flags_error(buffer, flags); err != CL_SUCCESS) return fail(err);
  RemoteMemory::Mapping m{offset, size, flags, {}};
  char *ptr = nullptr;
  if (buffer->flags & CL_MEM_USE_HOST_PTR) {
    ptr = static_cast<char *>(buffer->host_ptr) + offset;
  } else {
    m.storage = std::make_shared<std::vector<char>>(size);
    ptr = m.storage->data();
  }
  cl_int err = CL_SUCCESS;
  if (flags & CL_MAP_WRITE_INVALIDATE_REGION) {
    err = enqueue(q, Op::kMarker, CL_COMMAND_MAP_BUFFER, num_wait, wait, event, blocking,
                  [](Writer &) { return CL_SUCCESS; });
  } else {
    err = enqueue(
        q, Op::kReadBuffer, CL_COMMAND_MAP_BUFFER, num_wait, wait, event, blocking,
        [&](Writer &w) {
          w.put(buffer->id);
          write(w, ByteSpan{offset, size});
          return CL_SUCCESS;
        },
        {.read_into = ptr, .read_size = size});
  }
  if (err != CL_SUCCESS && err != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) return fail(err);
  {
    std::lock_guard lock(buffer->maps_mutex);
    buffer->maps.emplace_back(ptr, std::move(m));  // a vector's heap block does not move with it
  }
  if (errcode_ret) *errcode_ret = err;
  return ptr;
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q_handle, cl_mem memobj_handle, void *ptr, cl_uint num_wait,
                                           const cl_event *wait, cl_event *event) {
  auto *q = remote(q_handle);
  auto *memobj = remote(memobj_handle);
  if (!live(q, ObjectKind::kQueue)) return cluster::refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live queue of the node client");
  if (!ours(memobj, q)) return cluster::refuse(CL_INVALID_MEM_OBJECT, "memobj is not a live memory object of command_queue's node");
  RemoteMemory::Mapping m;
  {
    std::lock_guard lock(memobj->maps_mutex);
    auto it = std::find_if(memobj->maps.begin(), memobj->maps.end(), [&](auto &p) { return p.first == ptr; });
    if (it == memobj->maps.end()) return cluster::refuse(CL_INVALID_VALUE, "mapped_ptr is not a pointer a map of this memory object returned");
    m = std::move(it->second);
    memobj->maps.erase(it);
  }
  if (!(m.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)))
    return enqueue(q, Op::kMarker, CL_COMMAND_UNMAP_MEM_OBJECT, num_wait, wait, event, false,
                   [](Writer &) { return CL_SUCCESS; });
  // The mapped bytes go from the map's storage, kept until sent (a
  // USE_HOST_PTR buffer's are in the application's memory).
  const HostBytes bytes{.size = m.size, .direct = ptr, .keep = m.storage};
  if (memobj->type != CL_MEM_OBJECT_BUFFER)
    return enqueue(
        q, Op::kWriteImage, CL_COMMAND_UNMAP_MEM_OBJECT, num_wait, wait, event, false,
        [&](Writer &w) {
          w.put(memobj->id);
          write(w, Box{size3(m.origin), size3(m.region)});
          return CL_SUCCESS;
        },
        {.write = bytes});
  return enqueue(
      q, Op::kWriteBuffer, CL_COMMAND_UNMAP_MEM_OBJECT, num_wait, wait, event, false,
      [&](Writer &w) {
        write(w, BufferWrite{memobj->id, m.offset});
        return CL_SUCCESS;
      },
      {.write = bytes});
}
}  // namespace unicl::api
