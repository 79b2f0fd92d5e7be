// The node client's copies between buffers of two nodes (or two contexts of
// one node), straight between them: clEnqueueCopyBufferToPeerUNICL
// (cl_ext_unicl.h). Rank 0 posts the receiver's half (kPeerReceive) then the
// sender's (kPeerSend) and waits for neither; the receiving node reports the
// copy's end. The nodes' side: node/peer_copies.cpp.
#include "cluster/client/objects.hpp"
#include "cluster/client/api_decls.hpp"
#include "cluster/client/refusal.hpp"

namespace unicl::api {
using namespace unicl::cluster;

cl_int CL_API_CALL clEnqueueCopyBufferToPeerUNICL(cl_command_queue src_queue_handle,
                                                  cl_command_queue dst_queue_handle, cl_mem src_handle,
                                                  cl_mem dst_handle, size_t src_offset, size_t dst_offset, size_t size,
                                                  cl_uint num_wait, const cl_event *wait, cl_event *event) {
  auto *src_queue = remote(src_queue_handle);
  auto *dst_queue = remote(dst_queue_handle);
  auto *src = remote(src_handle);
  auto *dst = remote(dst_handle);
  if (!live(src_queue, ObjectKind::kQueue) || !live(dst_queue, ObjectKind::kQueue)) return cluster::refuse(CL_INVALID_COMMAND_QUEUE, "a queue of the copy is not a live queue of the node client");
  auto ours = [](RemoteMemory *m, RemoteQueue *q) {
    return live(m, ObjectKind::kMemory) && m->rank == q->rank && m->context == q->context;
  };
  if (!ours(src, src_queue) || !ours(dst, dst_queue)) return cluster::refuse(CL_INVALID_MEM_OBJECT, "the source or destination is not a live buffer of its queue's node");
  if (!size || src_offset > src->size || size > src->size - src_offset || dst_offset > dst->size ||
      size > dst->size - dst_offset)
    return cluster::refuse(CL_INVALID_VALUE, "size is 0, or the copy's source or destination range is not inside its buffer");
  if ((num_wait && !wait) || (!num_wait && wait)) return cluster::refuse(CL_INVALID_EVENT_WAIT_LIST, "num_events_in_wait_list and event_wait_list disagree (0 or NULL)");
  // Each side waits for the events of its own context (both sides may be
  // on one node, in two contexts of different vendors).
  CommandHeader at_src, at_dst;
  for (cl_uint i = 0; i < num_wait; ++i) {
    RemoteEvent *e = remote(wait[i]);
    if (!live(e, ObjectKind::kEvent) || (e->context != src_queue->context && e->context != dst_queue->context))
      return cluster::refuse(CL_INVALID_EVENT_WAIT_LIST, "an event of the wait list is not a live event of either queue's context");
    (e->context == src_queue->context ? at_src : at_dst).wait.push_back(e->id);
  }
  if (node_lost(src_queue->rank) || node_lost(dst_queue->rank)) return cluster::refuse(CL_DEVICE_NOT_AVAILABLE, "the node of the source or the destination was lost");
  // The receiver first: its write (and its event) exist before the bytes
  // can come, or they wait for it there.
  RemoteEvent *e = new_command_event(dst_queue, CL_COMMAND_COPY_BUFFER, event ? Promptness::kPrompt : Promptness::kAfterWait);
  e->peer_source = src_queue->rank;
  at_dst.queue = dst_queue->id, at_dst.event = e->id, at_dst.flags = e->prompt ? kPrompt : 0;
  Writer receive;
  write(receive, at_dst);
  // Within one node, the receiver may take the bytes from the source's
  // staged copy (node/staged_bytes.hpp) rather than from a read.
  const bool here = src_queue->rank == dst_queue->rank;
  write(receive, PeerCopyIn{dst->id, dst_offset, size, here, here ? src->id : 0, here ? src_offset : 0});
  if (!post(dst_queue->rank, Op::kPeerReceive, receive)) {
    forget_command_event(e);
    return cluster::refuse(CL_DEVICE_NOT_AVAILABLE, "the node of the source or the destination was lost");
  }
  at_src.queue = src_queue->id, at_src.event = new_id();  // the sender's read: rank 0 never sees it
  Writer send;
  write(send, at_src);
  write(send, PeerCopyOut{src->id, src_offset, size, dst_queue->rank, e->id});
  if (!post(src_queue->rank, Op::kPeerSend, send)) {
    // The receiver's write fails and reports its end; the caller never
    // sees its event.
    Writer cancel;
    write(cancel, PeerCancel{e->id, CL_DEVICE_NOT_AVAILABLE});
    post(dst_queue->rank, Op::kPeerCancel, cancel);
    forget_command_event(e);
    return cluster::refuse(CL_DEVICE_NOT_AVAILABLE, "the node of the source or the destination was lost");
  }
  if (event) *event = handle(e);
  else release(e);
  return CL_SUCCESS;
}

}  // namespace unicl::api
