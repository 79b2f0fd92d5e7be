// Shared virtual memory entry points (core/svm.hpp says whose memory it is).
// Each one: checks what UniCL knows (the context offers SVM, pointers,
// sizes, flags, the wait list), then one vendor call on the device the
// command runs on, which shares the vendor context of every other device
// of the context: the vendor keeps SVM coherent between them.
#include <cstring>
#include <memory>
#include <vector>

#include "api/api_decls.hpp"
#include "api/argument_checks.hpp"
#include "api/handles.hpp"
#include "api/command.hpp"
#include "backend/vendor_info.hpp"
#include "backend/vendor_objects.hpp"
#include "core/program.hpp"
#include "core/svm.hpp"
#include "core/refusal.hpp"

namespace unicl {
namespace {

// SVM commands: the queue's context must offer SVM.
cl_int svm_queue(cl_command_queue q) {
  if (!live(q)) return refuse(CL_INVALID_COMMAND_QUEUE, "command_queue is NULL or not a live command queue");
  return q->context->svm_capabilities ? CL_SUCCESS
                                      : refuse(CL_INVALID_OPERATION, "the context offers no shared virtual memory (its devices do not share one vendor context)");
}

// The application's clEnqueueSVMFree callback gets the UniCL queue, where
// the vendor calls back with its own.
struct SvmFreeCallback {
  Ref<_cl_command_queue> queue;
  void(CL_CALLBACK *fn)(cl_command_queue, cl_uint, void **, void *);
  void *user_data;
  static void CL_CALLBACK forward(cl_command_queue, cl_uint n, void **pointers, void *self) {
    std::unique_ptr<SvmFreeCallback> own(static_cast<SvmFreeCallback *>(self));
    own->fn(own->queue.get(), n, pointers, own->user_data);
  }
};

bool overlap(const void *a, const void *b, size_t size) {
  auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y ? y - x < size : x - y < size;
}

// What clSVMAlloc must refuse with NULL, as the specification lists it.
bool valid_svm_alloc(const _cl_context &context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  constexpr cl_svm_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  constexpr cl_svm_mem_flags known = access | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
  if (flags & ~known) return false;
  if (cl_svm_mem_flags a = flags & access; a & (a - 1)) return false;  // more than one access flag
  if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER)) return false;
  if ((flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) && !(context.svm_capabilities & CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
    return false;
  if ((flags & CL_MEM_SVM_ATOMICS) && !(context.svm_capabilities & CL_DEVICE_SVM_ATOMICS)) return false;
  if (alignment & (alignment - 1)) return false;
  if (size == 0) return false;
  for (const DeviceSlot &slot : context.slots)
    if (size > vendor_value<cl_ulong>(slot.device->vendor, CL_DEVICE_MAX_MEM_ALLOC_SIZE, 0)) return false;
  return true;
}

}  // namespace
}  // namespace unicl

namespace unicl::api {

void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
  if (!live(context) || !context->svm_capabilities) return nullptr;
  if (!valid_svm_alloc(*context, flags, size, alignment)) return nullptr;
  void *pointer = vendor_svm_alloc(context->vendor(0), flags, size, alignment);
  if (pointer) context->svm_allocations.add(pointer, size);
  return pointer;
}

void CL_API_CALL clSVMFree(cl_context context, void *pointer) {
  if (!live(context) || !pointer) return;
  // A pointer this context never handed out is left alone: the vendor's
  // clSVMFree would take it for one of its own.
  if (context->svm_allocations.remove(pointer)) vendor_svm_free(context->vendor(0), pointer);
}

cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue q, cl_uint num_pointers, void *pointers[],
                                    void(CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint, void **, void *),
                                    void *user_data, cl_uint n, const cl_event *events, cl_event *event) {
  if (cl_int err = svm_queue(q); err != CL_SUCCESS) return err;
  if ((num_pointers == 0) != (pointers == nullptr)) return refuse(CL_INVALID_VALUE, "num_svm_pointers and svm_pointers disagree (0 or NULL)");
  std::vector<void *> list(pointers, pointers + num_pointers);
  for (void *p : list)
    if (!p) return refuse(CL_INVALID_VALUE, "a pointer of the list is NULL");
  Command c(q, CL_COMMAND_SVM_FREE);
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  cl_int err = c.run([=, queue = Ref<_cl_command_queue>(q)](VendorCall &l) mutable {
    std::unique_ptr<SvmFreeCallback> callback;
    if (pfn_free_func) callback = std::make_unique<SvmFreeCallback>(queue, pfn_free_func, user_data);
    cl_int status = vendor_enqueue::SVMFree(l.on(), static_cast<cl_uint>(list.size()), list.data(),
                                            callback ? &SvmFreeCallback::forward : nullptr, callback.get());
    if (status == CL_SUCCESS) callback.release();  // the vendor calls it, once
    return status;
  }, event);
  // Without a callback the vendor frees them: no longer this context's to
  // free. With one, the application frees them in it, through clSVMFree.
  if (err == CL_SUCCESS && !pfn_free_func)
    for (void *p : list) q->context->svm_allocations.remove(p);
  return err;
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue q, cl_bool blocking, void *dst, const void *src, size_t size,
                                      cl_uint n, const cl_event *events, cl_event *event) {
  if (cl_int err = svm_queue(q); err != CL_SUCCESS) return err;
  if (!dst || !src) return refuse(CL_INVALID_VALUE, "dst_ptr or src_ptr is NULL");
  if (overlap(dst, src, size)) return refuse(CL_MEM_COPY_OVERLAP, "the source and destination regions overlap");
  Command c(q, CL_COMMAND_SVM_MEMCPY);
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::SVMMemcpy(l.on(), l.blocking(blocking), dst, src, size);
  }, event, blocking);
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue q, void *pointer, const void *pattern, size_t pattern_size,
                                       size_t size, cl_uint n, const cl_event *events, cl_event *event) {
  if (cl_int err = svm_queue(q); err != CL_SUCCESS) return err;
  if (!pointer || !valid_pattern(pattern, pattern_size)) return refuse(CL_INVALID_VALUE, "svm_ptr is NULL, or the pattern is NULL or not of 1, 2, 4, ... 128 bytes");
  if (reinterpret_cast<uintptr_t>(pointer) % pattern_size != 0 || size % pattern_size != 0) return refuse(CL_INVALID_VALUE, "svm_ptr or size is not a multiple of pattern_size");
  Command c(q, CL_COMMAND_SVM_MEMFILL);
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  std::vector<std::byte> bytes(static_cast<const std::byte *>(pattern),
                               static_cast<const std::byte *>(pattern) + pattern_size);
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::SVMMemFill(l.on(), pointer, bytes.data(), pattern_size, size);
  }, event);
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue q, cl_bool blocking, cl_map_flags flags, void *pointer,
                                   size_t size, cl_uint n, const cl_event *events, cl_event *event) {
  if (cl_int err = svm_queue(q); err != CL_SUCCESS) return err;
  if (!pointer || size == 0 || !valid_map_flags(flags)) return refuse(CL_INVALID_VALUE, "svm_ptr is NULL, size 0, or map_flags not valid");
  Command c(q, CL_COMMAND_SVM_MAP);
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  return c.run([=](VendorCall &l) {
    return vendor_enqueue::SVMMap(l.on(), l.blocking(blocking), flags, pointer, size);
  }, event, blocking);
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue q, void *pointer, cl_uint n, const cl_event *events,
                                     cl_event *event) {
  if (cl_int err = svm_queue(q); err != CL_SUCCESS) return err;
  if (!pointer) return refuse(CL_INVALID_VALUE, "svm_ptr is NULL");
  Command c(q, CL_COMMAND_SVM_UNMAP);
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  return c.run([=](VendorCall &l) { return vendor_enqueue::SVMUnmap(l.on(), pointer); }, event);
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue q, cl_uint num_pointers, const void **pointers,
                                          const size_t *sizes, cl_mem_migration_flags flags, cl_uint n,
                                          const cl_event *events, cl_event *event) {
  if (cl_int err = svm_queue(q); err != CL_SUCCESS) return err;
  // An OpenCL 2.1 call: every device the command may run on must have it.
  for (const DeviceSlot &slot : q->context->slots)
    if (slot.device->vendor_version < 210) return refuse(CL_INVALID_OPERATION, "the device's vendor implements OpenCL before 2.1");
  if (num_pointers == 0 || !pointers) return refuse(CL_INVALID_VALUE, "no SVM pointers (num_svm_pointers is 0 or svm_pointers NULL)");
  if (flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return refuse(CL_INVALID_VALUE, "flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)");
  std::vector<const void *> list(pointers, pointers + num_pointers);
  for (const void *p : list)
    if (!p) return refuse(CL_INVALID_VALUE, "a pointer of the list is NULL");
  std::vector<size_t> lengths = sizes ? std::vector<size_t>(sizes, sizes + num_pointers) : std::vector<size_t>();
  Command c(q, CL_COMMAND_SVM_MIGRATE_MEM);
  if (cl_int err = c.wait_for(n, events); err != CL_SUCCESS) return err;
  return c.run([=](VendorCall &l) mutable {
    return vendor_enqueue::SVMMigrateMem(l.on(), static_cast<cl_uint>(list.size()), list.data(),
                                         lengths.empty() ? nullptr : lengths.data(), flags);
  }, event);
}

}  // namespace unicl::api
