/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building the scatter list of an RDMA Send, choosing which Sends ask for
 * a completion, and retiring the Sends a completion finishes: shared by
 * the client (calls and backchannel replies) and the server (replies and
 * backchannel calls).
 */
#ifndef _RPCRDMA_SEND_H
#define _RPCRDMA_SEND_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/sunrpc/xdr.h>
#include <rdma/ib_verbs.h>

/* Most SGEs one Send uses: header, head, a few pages, tail. */
#define RPCRDMA_MAX_SEND_SGES	8

/**
 * struct rpcrdma_send_sges - the SGEs of one Send and their DMA mappings
 * @device: device the SGEs are mapped for
 * @lkey: local key of the PD (its local_dma_lkey)
 * @max: SGEs the device accepts per Send (at most RPCRDMA_MAX_SEND_SGES)
 * @nr: SGEs in use
 * @sge: the SGEs, for ib_send_wr::sg_list
 * @mapped: DMA length this list mapped for each SGE; 0 for an SGE in a
 *	buffer that its owner keeps mapped (rpcrdma_send_sges_unmap()
 *	leaves those alone)
 * @pulled_up: payload bytes copied into the header buffer by the last
 *	rpcrdma_send_sges_build() (0 if everything was gathered in place)
 * @maps_pages: some SGE maps a page of the message's page list, which
 *	belongs to the upper layer rather than to the transport
 * @hdr_premapped: the header buffer stays DMA-mapped at @hdr_dma for as
 *	long as the connection: SGE 0 uses that mapping
 * @hdr_dma: DMA address of the header buffer when @hdr_premapped
 * @buf: a message buffer that stays DMA-mapped, or NULL: inline bytes
 *	that lie within it are sent from that mapping
 * @buf_len: bytes of @buf mapped
 * @buf_dma: DMA address of @buf
 */
struct rpcrdma_send_sges {
	struct ib_device *device;
	u32 lkey;
	unsigned int max;
	unsigned int nr;
	struct ib_sge sge[RPCRDMA_MAX_SEND_SGES];
	unsigned int mapped[RPCRDMA_MAX_SEND_SGES];
	unsigned int pulled_up;
	bool maps_pages;
	bool hdr_premapped;
	u64 hdr_dma;
	const void *buf;
	size_t buf_len;
	u64 buf_dma;
};

struct page *rpcrdma_kaddr_page(const void *p);
unsigned int rpcrdma_xdr_count_runs(const struct xdr_buf *xdr,
				    unsigned int offset, unsigned int len,
				    unsigned int per);
void rpcrdma_send_sges_init(struct rpcrdma_send_sges *ss,
			    struct ib_device *device, u32 lkey,
			    unsigned int max);
void rpcrdma_send_sges_premapped_hdr(struct rpcrdma_send_sges *ss,
				     u64 hdr_dma);
void rpcrdma_send_sges_premapped_buf(struct rpcrdma_send_sges *ss,
				     const void *buf, size_t len, u64 dma);
int rpcrdma_send_sges_build(struct rpcrdma_send_sges *ss, void *hdr_buf,
			    unsigned int hdr_len, const struct xdr_buf *xdr,
			    unsigned int split, unsigned int resume);
void rpcrdma_send_sges_unmap(struct rpcrdma_send_sges *ss);

/**
 * struct rpcrdma_sendq_entry - a posted Send, until a completion retires it
 * @node: entry in rpcrdma_sendq::fifo, then in the list that
 *	rpcrdma_sendq_retire() fills
 * @queued: on the FIFO: posted and not yet retired
 */
struct rpcrdma_sendq_entry {
	struct list_head node;
	bool queued;
};

/**
 * struct rpcrdma_sendq - the Sends of a Send Queue not yet known complete
 * @lock: keeps @fifo in posting order; protects @fifo, @unsignaled,
 *	@undo and the @queued flag of every entry
 * @fifo: Sends posted and not yet retired, oldest first
 * @batch: one Send in this many is signaled (0 or 1: every one)
 * @unsignaled: Sends posted unsignaled since the last signaled one
 * @undo: @unsignaled before the last rpcrdma_sendq_add()
 *
 * Work Requests on a Send Queue complete in the order they were posted,
 * so the completion of a signaled Send, or the flush of any Send, tells
 * that every Send posted before it is done as well.  Each role embeds
 * one per connection and an entry in each of its Send contexts.
 */
struct rpcrdma_sendq {
	spinlock_t lock;	/* posting order of @fifo */
	struct list_head fifo;
	unsigned int batch;
	unsigned int unsignaled;
	unsigned int undo;
};

void rpcrdma_sendq_init(struct rpcrdma_sendq *q);
bool rpcrdma_sendq_add(struct rpcrdma_sendq *q, struct rpcrdma_sendq_entry *e,
		       bool must_signal);
void rpcrdma_sendq_unadd(struct rpcrdma_sendq *q,
			 struct rpcrdma_sendq_entry *e);
bool rpcrdma_sendq_retire(struct rpcrdma_sendq *q,
			  struct rpcrdma_sendq_entry *last,
			  struct list_head *done);

#endif /* _RPCRDMA_SEND_H */
