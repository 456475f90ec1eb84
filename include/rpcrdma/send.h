/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building the scatter list of an RDMA Send, and choosing which Sends ask
 * for a completion: shared by the client (calls and backchannel replies)
 * and the server (replies and backchannel calls).
 */
#ifndef _RPCRDMA_SEND_H
#define _RPCRDMA_SEND_H

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
 * @mapped: DMA length mapped for each SGE
 * @pulled_up: payload bytes copied into the header buffer by the last
 *	rpcrdma_send_sges_build() (0 if everything was gathered in place)
 * @maps_pages: some SGE maps a page of the message's page list, which
 *	belongs to the upper layer rather than to the transport
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
};

struct page *rpcrdma_kaddr_page(const void *p);
void rpcrdma_send_sges_init(struct rpcrdma_send_sges *ss,
			    struct ib_device *device, u32 lkey,
			    unsigned int max);
int rpcrdma_send_sges_build(struct rpcrdma_send_sges *ss, void *hdr_buf,
			    unsigned int hdr_len, const struct xdr_buf *xdr,
			    unsigned int split, unsigned int resume);
void rpcrdma_send_sges_unmap(struct rpcrdma_send_sges *ss);
bool rpcrdma_send_signal(unsigned int *unsignaled, unsigned int batch,
			 bool must);

#endif /* _RPCRDMA_SEND_H */
