// SPDX-License-Identifier: GPL-2.0
/*
 * RPC-over-RDMA version 1: RDMA-CM private data (RFC 8797 section 4).
 *
 *	octets 0-3	Format Identifier 0xf6ab0e18, network byte order
 *	octet 4		Version (1)
 *	octet 5		7 reserved bits, then R (0x01): remote invalidation
 *	octet 6		Send Size:    bytes / 1024 - 1
 *	octet 7		Receive Size: bytes / 1024 - 1
 *
 * This is not XDR: it is a fixed byte layout, so it is coded on plain
 * byte buffers.
 */

#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "rpcrdma/wire.h"

/**
 * rpcrdma_cm_size_encode - encode an inline size for the Size fields
 * @bytes: buffer size in bytes
 *
 * The field holds the number of kilo-octets beyond the first: bytes /
 * 1024 - 1.  Sizes are rounded down to a multiple of 1024 and clamped to
 * what the field can express, 1024 to 262144 bytes, so that the peer
 * never believes in a larger buffer than @bytes (except below 1024,
 * which RFC 8166 requires every receiver to support anyway).
 *
 * Return: the encoded octet.
 */
u8 rpcrdma_cm_size_encode(unsigned int bytes)
{
	bytes = clamp_t(unsigned int, bytes, RPCRDMA_CM_SIZE_MIN,
			RPCRDMA_CM_SIZE_MAX);
	return bytes / 1024 - 1;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_cm_size_encode);

/**
 * rpcrdma_cm_size_decode - decode a Send Size or Receive Size octet
 * @val: the octet
 *
 * Return: (@val + 1) * 1024 bytes.
 */
unsigned int rpcrdma_cm_size_decode(u8 val)
{
	return ((unsigned int)val + 1) * 1024;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_cm_size_decode);

/**
 * rpcrdma_cm_pdata_default - the settings assumed without private data
 * @pd: set to version 1, no remote invalidation, 1024-byte sizes
 *
 * RFC 8797 section 5.1: a peer that sent no valid private data is
 * treated as if it had sent R clear and both sizes zero (1024 bytes).
 */
void rpcrdma_cm_pdata_default(struct rpcrdma_cm_pdata *pd)
{
	pd->version = RPCRDMA_CM_PDATA_VERSION;
	pd->remote_inv = false;
	pd->send_size = RPCRDMA_V1_DEFAULT_INLINE;
	pd->recv_size = RPCRDMA_V1_DEFAULT_INLINE;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_cm_pdata_default);

/* The size a peer decodes from the Size octet that encodes @bytes. */
static unsigned int rpcrdma_cm_size_grid(unsigned int bytes)
{
	return rpcrdma_cm_size_decode(rpcrdma_cm_size_encode(bytes));
}

/**
 * rpcrdma_cm_pdata_init - the private data one side advertises
 * @pd: set to version 1, @remote_inv and the two sizes as the peer will
 *	decode them
 * @remote_inv: this side accepts Send With Invalidate
 * @send_size: largest Send this side is configured to post, in bytes
 * @recv_size: largest Receive this side is configured to accept, in bytes
 *
 * The Size fields carry whole kilo-octets, so the peer sees a size off
 * that grid rounded down (rpcrdma_cm_size_encode()).  Each side must
 * then use the rounded sizes too: a server that sent 4500-byte replies
 * after advertising 4096 would overflow a client's 4096-byte Receives,
 * and a client that expected 5000-byte inline replies after advertising
 * 4096 would offer no Reply chunk for replies the server cannot Send.
 * So @pd holds exactly what the peer decodes, and both sides compute
 * their thresholds and buffer sizes from it.
 */
void rpcrdma_cm_pdata_init(struct rpcrdma_cm_pdata *pd, bool remote_inv,
			   unsigned int send_size, unsigned int recv_size)
{
	pd->version = RPCRDMA_CM_PDATA_VERSION;
	pd->remote_inv = remote_inv;
	pd->send_size = rpcrdma_cm_size_grid(send_size);
	pd->recv_size = rpcrdma_cm_size_grid(recv_size);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_cm_pdata_init);

/**
 * rpcrdma_cm_pdata_encode - build version 1 private data
 * @buf: output buffer
 * @len: size of @buf; RPCRDMA_CM_PDATA_SIZE bytes are written
 * @pd: settings to advertise (pd->version is ignored: always 1)
 *
 * Reserved bits are sent as zero.
 *
 * Return: RPCRDMA_CM_PDATA_SIZE, or -EMSGSIZE if @len is too small.
 */
int rpcrdma_cm_pdata_encode(void *buf, size_t len,
			    const struct rpcrdma_cm_pdata *pd)
{
	u8 *p = buf;

	if (len < RPCRDMA_CM_PDATA_SIZE)
		return -EMSGSIZE;
	put_unaligned_be32(RPCRDMA_CM_PDATA_MAGIC, p);
	p[4] = RPCRDMA_CM_PDATA_VERSION;
	p[5] = pd->remote_inv ? RPCRDMA_CM_PDATA_F_REMOTE_INV : 0;
	p[6] = rpcrdma_cm_size_encode(pd->send_size);
	p[7] = rpcrdma_cm_size_encode(pd->recv_size);
	return RPCRDMA_CM_PDATA_SIZE;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_cm_pdata_encode);

/**
 * rpcrdma_cm_pdata_decode - parse received private data
 * @buf: received private data (may be NULL if @len is zero)
 * @len: number of bytes received
 * @pd: the peer's settings, or the defaults if none were found
 *
 * RFC 8797 section 5.2: the Format Identifier may sit at any byte offset
 * (other layers may put their own private data first), so every offset
 * is tried in turn.  An occurrence counts only if a whole 8-octet
 * version 1 message fits in @buf from there; otherwise the search goes
 * on.  Reserved flag bits are ignored.  Nothing is read outside @buf.
 *
 * Return: true if version 1 private data was found; false (and @pd set
 * to the defaults) for wrong magic, wrong version or short data.
 */
bool rpcrdma_cm_pdata_decode(const void *buf, size_t len,
			     struct rpcrdma_cm_pdata *pd)
{
	const u8 *p = buf;
	size_t off;

	rpcrdma_cm_pdata_default(pd);
	if (len < RPCRDMA_CM_PDATA_SIZE)
		return false;
	for (off = 0; off <= len - RPCRDMA_CM_PDATA_SIZE; off++) {
		if (get_unaligned_be32(p + off) != RPCRDMA_CM_PDATA_MAGIC)
			continue;
		if (p[off + 4] != RPCRDMA_CM_PDATA_VERSION)
			continue;
		pd->version = p[off + 4];
		pd->remote_inv = p[off + 5] & RPCRDMA_CM_PDATA_F_REMOTE_INV;
		pd->send_size = rpcrdma_cm_size_decode(p[off + 6]);
		pd->recv_size = rpcrdma_cm_size_decode(p[off + 7]);
		return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_cm_pdata_decode);

/**
 * rpcrdma_inline_threshold - inline threshold for one direction
 * @own_send: largest Send this side posts, in bytes
 * @peer_recv: largest Receive the peer accepts (from its private data,
 *	or RPCRDMA_V1_DEFAULT_INLINE)
 *
 * RFC 8797 section 4.2: each side uses the smaller of its own send size
 * and the peer's receive size.
 *
 * Return: the threshold in bytes.
 */
unsigned int rpcrdma_inline_threshold(unsigned int own_send,
				      unsigned int peer_recv)
{
	return min(own_send, peer_recv);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_inline_threshold);

/**
 * rpcrdma_cm_recv_size - Receive size one side posts for its peer
 * @own_max: the largest Receive this side is configured for
 * @peer: the peer's settings
 * @peer_sent: @peer came from the peer's private data; false if the
 *	peer sent none and RFC 8797's defaults stand in for it
 *
 * RFC 8797 section 4: a peer's Send Size is the most it transmits in one
 * RDMA Send on the connection, so a Receive larger than that only holds
 * memory.  A peer without private data predates RFC 8797 and may well
 * send more than RFC 8166's 1024-byte default (4 KiB messages were
 * common): it gets @own_max.  A server also advertises the result; a
 * client learns the server's size only from the connect reply, after
 * advertising its own.
 *
 * Return: the Receive size.
 */
unsigned int rpcrdma_cm_recv_size(unsigned int own_max,
				  const struct rpcrdma_cm_pdata *peer,
				  bool peer_sent)
{
	return peer_sent ? min(own_max, peer->send_size) : own_max;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_cm_recv_size);

/**
 * rpcrdma_cm_remote_inv_ok - may the responder use Send With Invalidate
 * @local: settings this side advertised
 * @peer: settings the peer advertised (or the defaults)
 *
 * RFC 8797 section 4.1: only when both peers set the R bit.
 *
 * Return: true if remote invalidation may be used on the connection.
 */
bool rpcrdma_cm_remote_inv_ok(const struct rpcrdma_cm_pdata *local,
			      const struct rpcrdma_cm_pdata *peer)
{
	return local->remote_inv && peer->remote_inv;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_cm_remote_inv_ok);
