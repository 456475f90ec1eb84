// SPDX-License-Identifier: GPL-2.0
/*
 * The hand-written RPC-over-RDMA version 1 headers the wire codec suites
 * share, in one place (declared in wire_test.h).
 */
#include "wire_test.h"

/* RDMA_MSG call, no chunks: a Short Message (RFC 8166 section 3.5.1). */
const __be32 wt_msg_plain[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),					/* Read list: empty */
	XW(0),					/* Write list: empty */
	XW(0),					/* no Reply chunk */
	/* RPC call: xid, CALL, rpcvers 2, NFS, v3, GETATTR */
	XW(WT_XID), XW(0), XW(2), XW(100003), XW(3), XW(1),
};

/* RDMA_MSG call with one Read chunk of two segments at position 24. */
const __be32 wt_msg_read[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(1), XW(24), XW(0x1001), XW(4096), XW(0), XW(0x20000000),
	XW(1), XW(24), XW(0x1002), XW(904), XW(0), XW(0x20001000),
	XW(0),
	XW(0),
	XW(0),
	XW(WT_XID), XW(0), XW(2), XW(100003), XW(3), XW(7),
};

/* RDMA_MSG call with two Read chunks: position 8 (5 bytes), 20 (10). */
const __be32 wt_msg_read2[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(1), XW(8), XW(0x6001), XW(5), XW(0), XW(0x1000),
	XW(1), XW(20), XW(0x6002), XW(10), XW(0), XW(0x2000),
	XW(0),
	XW(0),
	XW(0),
	XW(WT_XID), XW(0), XW(2),
};

/* RDMA_MSG call with a Write list of two Write chunks (2 + 1 segs). */
const __be32 wt_msg_write2[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),
	XW(1), XW(2), XW(0x2001), XW(8192), XW(0), XW(0x30000000),
		      XW(0x2002), XW(8192), XW(0), XW(0x30002000),
	XW(1), XW(1), XW(0x2003), XW(4096), XW(0xffff8000), XW(0x00001000),
	XW(0),
	XW(0),
	XW(WT_XID), XW(0), XW(2), XW(100003), XW(3), XW(6),
};

/* RDMA_MSG call offering a Reply chunk of two segments. */
const __be32 wt_msg_reply_chunk[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),
	XW(0),
	XW(1), XW(2), XW(0x3001), XW(4096), XW(0), XW(0x40000000),
		      XW(0x3002), XW(4096), XW(0), XW(0x40001000),
	XW(WT_XID), XW(0), XW(2), XW(100003), XW(3), XW(16),
};

/* RDMA_MSG call with all three lists. */
const __be32 wt_msg_all[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(1), XW(8), XW(0x5001), XW(100), XW(0), XW(0x60000000),
	XW(0),
	XW(1), XW(1), XW(0x5002), XW(4096), XW(0), XW(0x61000000),
	XW(0),
	XW(1), XW(1), XW(0x5003), XW(1024), XW(0), XW(0x62000000),
	XW(WT_XID), XW(0),
};

/* RDMA_MSG call with one empty Write chunk (segment count zero). */
const __be32 wt_msg_empty_write[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),
	XW(1), XW(0),
	XW(0),
	XW(0),
	XW(WT_XID), XW(0),
};

/* RDMA_NOMSG Long Call: position-zero Read chunk of two segments. */
const __be32 wt_nomsg_long_call[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_NOMSG),
	XW(1), XW(0), XW(0x4001), XW(2048), XW(0), XW(0x50000000),
	XW(1), XW(0), XW(0x4002), XW(1000), XW(0), XW(0x50000800),
	XW(0),
	XW(0),
	XW(0),
};

/* RDMA_NOMSG Long Reply: the Reply chunk holds 3000 bytes. */
const __be32 wt_nomsg_long_reply[] = {
	XW(WT_XID), XW(1), XW(16), XW(RPCRDMA_NOMSG),
	XW(0),
	XW(0),
	XW(1), XW(2), XW(0x3001), XW(3000), XW(0), XW(0x40000000),
		      XW(0x3002), XW(0), XW(0), XW(0x40001000),
};

/* RDMA_MSG reply returning the two Write chunks of wt_msg_write2. */
const __be32 wt_reply_write[] = {
	XW(WT_XID), XW(1), XW(16), XW(RPCRDMA_MSG),
	XW(0),
	XW(1), XW(2), XW(0x2001), XW(8192), XW(0), XW(0x30000000),
		      XW(0x2002), XW(1808), XW(0), XW(0x30002000),
	XW(1), XW(1), XW(0x2003), XW(0), XW(0xffff8000), XW(0x00001000),
	XW(0),
	XW(0),
	/* RPC reply: xid, REPLY, MSG_ACCEPTED, AUTH_NONE verifier */
	XW(WT_XID), XW(1), XW(0), XW(0), XW(0), XW(0),
};

/* RDMA_ERROR / ERR_VERS, supported versions 1 to 1. */
const __be32 wt_err_vers[] = {
	XW(WT_XID), XW(1), XW(1), XW(RPCRDMA_ERROR),
	XW(RPCRDMA_ERR_VERS), XW(1), XW(1),
};

/* RDMA_ERROR / ERR_CHUNK. */
const __be32 wt_err_chunk[] = {
	XW(WT_XID), XW(1), XW(1), XW(RPCRDMA_ERROR),
	XW(RPCRDMA_ERR_CHUNK),
};

const struct wt_vec wt_valid_vecs[] = {
	{ .desc = "RDMA_MSG no chunks", WT_WORDS(wt_msg_plain),
	  .dir = RPCRDMA_DIR_CALL, .proc = RPCRDMA_MSG, .credits = 32,
	  .hdr_len = 28 },
	{ .desc = "RDMA_MSG Read chunk of 2 segments", WT_WORDS(wt_msg_read),
	  .dir = RPCRDMA_DIR_CALL, .proc = RPCRDMA_MSG, .credits = 32,
	  .hdr_len = 76, .nr_read_chunks = 1, .nr_read_segs = 2 },
	{ .desc = "RDMA_MSG two Read chunks", WT_WORDS(wt_msg_read2),
	  .dir = RPCRDMA_DIR_CALL, .proc = RPCRDMA_MSG, .credits = 32,
	  .hdr_len = 76, .nr_read_chunks = 2, .nr_read_segs = 2 },
	{ .desc = "RDMA_MSG Write list of two chunks",
	  WT_WORDS(wt_msg_write2),
	  .dir = RPCRDMA_DIR_CALL, .proc = RPCRDMA_MSG, .credits = 32,
	  .hdr_len = 92, .nr_write_chunks = 2, .nr_write_segs = 3 },
	{ .desc = "RDMA_MSG Reply chunk", WT_WORDS(wt_msg_reply_chunk),
	  .dir = RPCRDMA_DIR_CALL, .proc = RPCRDMA_MSG, .credits = 32,
	  .hdr_len = 64, .has_reply = true, .reply_len = 8192 },
	{ .desc = "RDMA_MSG all three lists", WT_WORDS(wt_msg_all),
	  .dir = RPCRDMA_DIR_CALL, .proc = RPCRDMA_MSG, .credits = 32,
	  .hdr_len = 96, .nr_read_chunks = 1, .nr_read_segs = 1,
	  .nr_write_chunks = 1, .nr_write_segs = 1, .has_reply = true,
	  .reply_len = 1024 },
	{ .desc = "RDMA_MSG empty Write chunk", WT_WORDS(wt_msg_empty_write),
	  .dir = RPCRDMA_DIR_CALL, .proc = RPCRDMA_MSG, .credits = 32,
	  .hdr_len = 36, .nr_write_chunks = 1 },
	{ .desc = "RDMA_NOMSG Long Call", WT_WORDS(wt_nomsg_long_call),
	  .dir = RPCRDMA_DIR_CALL, .proc = RPCRDMA_NOMSG, .credits = 32,
	  .hdr_len = 76, .nr_read_chunks = 1, .nr_read_segs = 2 },
	{ .desc = "RDMA_NOMSG Long Reply", WT_WORDS(wt_nomsg_long_reply),
	  .dir = RPCRDMA_DIR_REPLY, .proc = RPCRDMA_NOMSG, .credits = 16,
	  .hdr_len = 64, .has_reply = true, .reply_len = 3000 },
	{ .desc = "RDMA_MSG reply with Write list", WT_WORDS(wt_reply_write),
	  .dir = RPCRDMA_DIR_REPLY, .proc = RPCRDMA_MSG, .credits = 16,
	  .hdr_len = 92, .nr_write_chunks = 2, .nr_write_segs = 3 },
	{ .desc = "RDMA_ERROR ERR_VERS 1..1", WT_WORDS(wt_err_vers),
	  .dir = RPCRDMA_DIR_REPLY, .proc = RPCRDMA_ERROR, .credits = 1,
	  .hdr_len = 28 },
	{ .desc = "RDMA_ERROR ERR_CHUNK", WT_WORDS(wt_err_chunk),
	  .dir = RPCRDMA_DIR_REPLY, .proc = RPCRDMA_ERROR, .credits = 1,
	  .hdr_len = 20 },
};
