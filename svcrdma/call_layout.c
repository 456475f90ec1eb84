// SPDX-License-Identifier: GPL-2.0
/*
 * Where each byte of a Call that came with Read chunks goes, decided
 * before any RDMA Read is posted: a pure function of the decoded header,
 * kept apart from the verbs so that it can be tested on its own.
 *
 * Two forms.  An RDMA_MSG with one Read chunk (an NFS WRITE's data item)
 * leaves the head and tail of the Call in the Receive buffer and reads
 * the chunk, with its XDR pad, to the start of rq_pages, page aligned.
 * Any other Call (a Long Call, whose reduced Payload stream is the
 * position-zero Read chunk, or a Call with several Read chunks) is
 * rebuilt in rq_pages: the reduced stream, copied from the inline part or
 * read from the position-zero chunk, with each other chunk read in at its
 * position (RFC 8166 section 3.4.5: positions count the unreduced stream)
 * and followed by zero XDR pad when its length is not a multiple of four
 * (the pad travels neither inline nor in the chunk).
 */
#include <kunit/visibility.h>
#include <linux/sunrpc/xdr.h>

#include "server.h"

static int srdma_layout_add(struct srdma_call_layout *lo,
			    enum srdma_piece_src src, unsigned int pos,
			    unsigned int from, unsigned int len,
			    unsigned int chunk)
{
	struct srdma_piece *p;

	if (!len)
		return 0;
	if (lo->nr_pieces >= ARRAY_SIZE(lo->pieces))
		return -EINVAL;
	p = &lo->pieces[lo->nr_pieces++];
	p->src = src;
	p->pos = pos;
	p->from = from;
	p->len = len;
	p->chunk = chunk;
	return 0;
}

/* Any other Call: the reduced stream and the chunks, rebuilt in pages. */
static int srdma_layout_assemble(const struct rpcrdma_chunk_lists *cl,
				 u32 proc, unsigned int inline_len,
				 unsigned int max_mesg,
				 struct srdma_call_layout *lo)
{
	enum srdma_piece_src stream = SRDMA_PIECE_INLINE;
	unsigned int reduced_len = inline_len;
	unsigned int i, first = 0, pos = 0, used = 0;
	u64 total;
	int err;

	if (proc == RPCRDMA_NOMSG) {
		/* The codec checked that the position-zero chunk is there. */
		stream = SRDMA_PIECE_CALL;
		reduced_len = cl->read[0].length;
		first = 1;
	}
	total = reduced_len;
	for (i = first; i < cl->nr_read_chunks; i++)
		total += xdr_align_size((u64)cl->read[i].length);
	if (total > max_mesg)
		return -EMSGSIZE;

	lo->form = SRDMA_CALL_ASSEMBLED;
	for (i = first; i < cl->nr_read_chunks; i++) {
		const struct rpcrdma_chunk *c = &cl->read[i];
		unsigned int gap = c->position - pos;

		if (c->position < pos || gap > reduced_len - used)
			return -EINVAL;
		err = srdma_layout_add(lo, stream, pos, used, gap, 0);
		err = err ?: srdma_layout_add(lo, SRDMA_PIECE_CHUNK, pos + gap,
					      0, c->length, i);
		err = err ?: srdma_layout_add(lo, SRDMA_PIECE_PAD,
					      pos + gap + c->length, 0,
					      xdr_pad_size(c->length), i);
		if (err)
			return err;
		pos += gap + xdr_align_size(c->length);
		used += gap;
	}
	err = srdma_layout_add(lo, stream, pos, used, reduced_len - used, 0);
	if (err)
		return err;
	lo->len = pos + reduced_len - used;
	lo->head_len = min_t(unsigned int, lo->len, PAGE_SIZE);
	lo->npages = DIV_ROUND_UP(lo->len, PAGE_SIZE);
	return 0;
}

/**
 * srdma_call_layout - plan where a Call with Read chunks goes in rq_arg
 * @cl: the Call's decoded chunk lists, with at least one Read chunk; the
 *	codec has checked their positions (rpcrdma_check_read_positions())
 * @proc: RPCRDMA_MSG or RPCRDMA_NOMSG
 * @inline_len: bytes of Payload stream received inline
 * @max_mesg: the largest Call the service takes (sv_max_mesg)
 * @lo: the plan: its form, pieces in destination order, length and pages
 *	(pieces past @lo->nr_pieces are left as they were)
 *
 * Return: 0; -EINVAL if a chunk's position lies outside the reduced
 * stream; -EMSGSIZE if the Call would be larger than @max_mesg.
 */
int srdma_call_layout(const struct rpcrdma_chunk_lists *cl, u32 proc,
		      unsigned int inline_len, unsigned int max_mesg,
		      struct srdma_call_layout *lo)
{
	int npages;

	if (proc == RPCRDMA_MSG && cl->nr_read_chunks == 1) {
		npages = srdma_data_item_pages(&cl->read[0], inline_len,
					       max_mesg);
		if (npages < 0)
			return npages;
		srdma_layout_data_item(lo, &cl->read[0], inline_len, npages);
		return 0;
	}
	/* Only the pieces in use are written: the array is most of @lo. */
	lo->nr_pieces = 0;
	lo->len = 0;
	lo->head_len = 0;
	lo->npages = 0;
	return srdma_layout_assemble(cl, proc, inline_len, max_mesg, lo);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_call_layout);

/**
 * srdma_call_layout_copy - copy a plan and the pieces it uses
 * @dst: where the plan goes
 * @src: a plan srdma_call_layout() made
 */
void srdma_call_layout_copy(struct srdma_call_layout *dst,
			    const struct srdma_call_layout *src)
{
	memcpy(dst, src, offsetof(struct srdma_call_layout, pieces) +
	       src->nr_pieces * sizeof(src->pieces[0]));
}
EXPORT_SYMBOL_IF_KUNIT(srdma_call_layout_copy);
