// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the RFC 8797 RDMA-CM private data codec.
 */

#include "wire_test.h"

/* Format Identifier, version 1, R set, Send 4 KiB, Receive 32 KiB. */
static const u8 pd_r_4k_32k[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x03, 0x1f,
};

/* R clear, both sizes at the 1024-byte default. */
static const u8 pd_default[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x00, 0x00,
};

/* Largest sizes (256 KiB), all reserved bits set besides R. */
static const u8 pd_max_flags[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0xff, 0xff, 0xff,
};

/* Reserved bits set, R clear. */
static const u8 pd_reserved_only[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0xfe, 0x07, 0x0f,
};

/* Another layer's private data first, ours at byte offset 3. */
static const u8 pd_offset3[] = {
	0x11, 0x22, 0x33, 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x0f, 0x01,
	0x44,
};

/* A lone magic with a bad version, then a good message. */
static const u8 pd_second[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x02, 0x01, 0x03, 0x03,
	0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, 0x07, 0x01,
};

static const u8 pd_bad_magic[] = {
	0xf6, 0xab, 0x0e, 0x19, 0x01, 0x01, 0x03, 0x1f,
};

static const u8 pd_byteswapped_magic[] = {
	0x18, 0x0e, 0xab, 0xf6, 0x01, 0x01, 0x03, 0x1f,
};

static const u8 pd_version0[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x00, 0x01, 0x03, 0x1f,
};

static const u8 pd_version2[] = {
	0xf6, 0xab, 0x0e, 0x18, 0x02, 0x01, 0x03, 0x1f,
};

/* Magic near the end: the rest of the message is missing. */
static const u8 pd_cut_after_magic[] = {
	0x00, 0x00, 0x00, 0x00, 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01,
};

struct pd_vec {
	const char *desc;
	const u8 *bytes;
	size_t len;
	bool found;
	bool remote_inv;
	unsigned int send_size;
	unsigned int recv_size;
};

#define PD(d, b, f, r, s, rc)	{ d, b, sizeof(b), f, r, s, rc }

static const struct pd_vec pd_vecs[] = {
	PD("R, send 4 KiB, receive 32 KiB", pd_r_4k_32k, true, true, 4096,
	   32768),
	PD("defaults announced explicitly", pd_default, true, false, 1024,
	   1024),
	PD("all flag bits, 256 KiB", pd_max_flags, true, true, 262144,
	   262144),
	PD("reserved bits ignored", pd_reserved_only, true, false, 8192,
	   16384),
	PD("identifier at byte offset 3", pd_offset3, true, true, 16384,
	   2048),
	PD("second occurrence is the valid one", pd_second, true, true, 8192,
	   2048),
	PD("wrong magic", pd_bad_magic, false, false, 1024, 1024),
	PD("byte-swapped magic", pd_byteswapped_magic, false, false, 1024,
	   1024),
	PD("version 0", pd_version0, false, false, 1024, 1024),
	PD("version 2", pd_version2, false, false, 1024, 1024),
	PD("message cut after the identifier", pd_cut_after_magic, false,
	   false, 1024, 1024),
};

static void pd_vec_desc(const struct pd_vec *v, char *desc)
{
	strscpy(desc, v->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pd_vec, pd_vecs, pd_vec_desc);

static void *pd_copy(struct kunit *test, const void *bytes, size_t len)
{
	void *buf = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	if (len)
		memcpy(buf, bytes, len);
	return buf;
}

static void decode_vec_case(struct kunit *test)
{
	const struct pd_vec *v = test->param_value;
	struct rpcrdma_cm_pdata pd;
	void *buf = pd_copy(test, v->bytes, v->len);

	memset(&pd, 0xa5, sizeof(pd));
	KUNIT_EXPECT_EQ(test, rpcrdma_cm_pdata_decode(buf, v->len, &pd),
			v->found);
	KUNIT_EXPECT_EQ(test, pd.version, RPCRDMA_CM_PDATA_VERSION);
	KUNIT_EXPECT_EQ(test, pd.remote_inv, v->remote_inv);
	KUNIT_EXPECT_EQ(test, pd.send_size, v->send_size);
	KUNIT_EXPECT_EQ(test, pd.recv_size, v->recv_size);
}

static void encode_case(struct kunit *test)
{
	const struct rpcrdma_cm_pdata pd = {
		.remote_inv = true, .send_size = 4096, .recv_size = 32768,
	};
	u8 buf[RPCRDMA_CM_PDATA_SIZE];

	KUNIT_ASSERT_EQ(test, rpcrdma_cm_pdata_encode(buf, sizeof(buf), &pd),
			RPCRDMA_CM_PDATA_SIZE);
	KUNIT_EXPECT_MEMEQ(test, buf, pd_r_4k_32k, sizeof(buf));
}

/* The version field always says 1; R clear leaves the octet zero. */
static void encode_version_flags_case(struct kunit *test)
{
	const struct rpcrdma_cm_pdata pd = {
		.version = 9, .remote_inv = false, .send_size = 1024,
		.recv_size = 1024,
	};
	u8 buf[12];

	memset(buf, 0xee, sizeof(buf));
	KUNIT_ASSERT_EQ(test, rpcrdma_cm_pdata_encode(buf, sizeof(buf), &pd),
			8);
	KUNIT_EXPECT_MEMEQ(test, buf, pd_default, sizeof(pd_default));
	/* Nothing written past the eight octets. */
	KUNIT_EXPECT_EQ(test, buf[8], 0xee);
}

static void encode_short_buffer_case(struct kunit *test)
{
	const struct rpcrdma_cm_pdata pd = { .send_size = 1024 };
	u8 buf[RPCRDMA_CM_PDATA_SIZE];

	memset(buf, 0, sizeof(buf));
	KUNIT_EXPECT_EQ(test, rpcrdma_cm_pdata_encode(buf, 7, &pd), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, buf[0], 0);
}

/* Every proper prefix of a valid message means "no private data". */
static void short_data_case(struct kunit *test)
{
	struct rpcrdma_cm_pdata pd;
	unsigned int len;
	void *buf;

	for (len = 0; len < sizeof(pd_r_4k_32k); len++) {
		buf = pd_copy(test, pd_r_4k_32k, len);
		KUNIT_EXPECT_FALSE_MSG(test,
				       rpcrdma_cm_pdata_decode(buf, len, &pd),
				       "length %u", len);
		KUNIT_EXPECT_FALSE(test, pd.remote_inv);
		KUNIT_EXPECT_EQ(test, pd.send_size, 1024U);
		KUNIT_EXPECT_EQ(test, pd.recv_size, 1024U);
	}
	KUNIT_EXPECT_FALSE(test, rpcrdma_cm_pdata_decode(NULL, 0, &pd));
}

/* Trailing octets after a valid message (a later format) are ignored. */
static void trailing_data_case(struct kunit *test)
{
	static const u8 longer[] = {
		0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x01, 0x02,
		0xde, 0xad, 0xbe, 0xef,
	};
	struct rpcrdma_cm_pdata pd;
	void *buf = pd_copy(test, longer, sizeof(longer));

	KUNIT_EXPECT_TRUE(test, rpcrdma_cm_pdata_decode(buf, sizeof(longer),
							&pd));
	KUNIT_EXPECT_EQ(test, pd.send_size, 2048U);
	KUNIT_EXPECT_EQ(test, pd.recv_size, 3072U);
}

static void defaults_case(struct kunit *test)
{
	struct rpcrdma_cm_pdata pd;

	memset(&pd, 0xff, sizeof(pd));
	rpcrdma_cm_pdata_default(&pd);
	KUNIT_EXPECT_EQ(test, pd.version, 1);
	KUNIT_EXPECT_FALSE(test, pd.remote_inv);
	KUNIT_EXPECT_EQ(test, pd.send_size, RPCRDMA_V1_DEFAULT_INLINE);
	KUNIT_EXPECT_EQ(test, pd.recv_size, RPCRDMA_V1_DEFAULT_INLINE);
	KUNIT_EXPECT_EQ(test, RPCRDMA_V1_DEFAULT_INLINE, 1024);
}

struct size_vec {
	unsigned int bytes;
	u8 encoded;
};

static const struct size_vec size_vecs[] = {
	{ 0, 0 }, { 1023, 0 }, { 1024, 0 }, { 2047, 0 }, { 2048, 1 },
	{ 4096, 3 }, { 5000, 3 }, { 32768, 31 }, { 65536, 63 },
	{ 262143, 254 }, { 262144, 255 }, { 262145, 255 },
	{ 1048576, 255 }, { UINT_MAX, 255 },
};

static void size_vec_desc(const struct size_vec *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u bytes", v->bytes);
}

KUNIT_ARRAY_PARAM(size_vec, size_vecs, size_vec_desc);

static void size_encode_case(struct kunit *test)
{
	const struct size_vec *v = test->param_value;

	KUNIT_EXPECT_EQ(test, rpcrdma_cm_size_encode(v->bytes), v->encoded);
	/* Never announces more than the real buffer (from 1024 up). */
	if (v->bytes >= 1024)
		KUNIT_EXPECT_LE(test, rpcrdma_cm_size_decode(v->encoded),
				v->bytes);
}

/* decode(v) = (v + 1) * 1024, and encode inverts it for all 256 codes. */
static void size_decode_all_case(struct kunit *test)
{
	unsigned int v;

	KUNIT_EXPECT_EQ(test, rpcrdma_cm_size_decode(0), 1024U);
	KUNIT_EXPECT_EQ(test, rpcrdma_cm_size_decode(3), 4096U);
	KUNIT_EXPECT_EQ(test, rpcrdma_cm_size_decode(255), 262144U);
	for (v = 0; v < 256; v++) {
		KUNIT_EXPECT_EQ(test, rpcrdma_cm_size_decode(v), (v + 1) * 1024);
		KUNIT_EXPECT_EQ(test,
				rpcrdma_cm_size_encode(rpcrdma_cm_size_decode(v)),
				(u8)v);
	}
}

/* Encode then decode returns what was advertised, for many settings. */
static void roundtrip_case(struct kunit *test)
{
	struct rpcrdma_cm_pdata in, out;
	unsigned int i;
	u8 buf[RPCRDMA_CM_PDATA_SIZE];

	for (i = 0; i < 256; i++) {
		in.version = 1;
		in.remote_inv = i & 1;
		in.send_size = (i + 1) * 1024;
		in.recv_size = (256 - i) * 1024;
		KUNIT_ASSERT_EQ(test, rpcrdma_cm_pdata_encode(buf, sizeof(buf),
							      &in), 8);
		KUNIT_ASSERT_TRUE(test, rpcrdma_cm_pdata_decode(buf,
								sizeof(buf),
								&out));
		KUNIT_EXPECT_EQ(test, out.remote_inv, in.remote_inv);
		KUNIT_EXPECT_EQ(test, out.send_size, in.send_size);
		KUNIT_EXPECT_EQ(test, out.recv_size, in.recv_size);
	}
}

/* RFC 8797 section 4.2: the smaller of own send and peer receive. */
static void inline_threshold_case(struct kunit *test)
{
	struct rpcrdma_cm_pdata client, server;

	KUNIT_EXPECT_EQ(test, rpcrdma_inline_threshold(4096, 1024), 1024U);
	KUNIT_EXPECT_EQ(test, rpcrdma_inline_threshold(4096, 32768), 4096U);
	KUNIT_EXPECT_EQ(test, rpcrdma_inline_threshold(8192, 8192), 8192U);

	/* Client 4 KiB/4 KiB, server announced send 16 KiB, receive 8 KiB. */
	rpcrdma_cm_pdata_default(&client);
	client.send_size = 4096;
	client.recv_size = 4096;
	KUNIT_ASSERT_TRUE(test, rpcrdma_cm_pdata_decode((const u8[]){
		0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x0f, 0x07 }, 8, &server));
	KUNIT_EXPECT_EQ(test, rpcrdma_inline_threshold(client.send_size,
						       server.recv_size),
			4096U);
	KUNIT_EXPECT_EQ(test, rpcrdma_inline_threshold(server.send_size,
						       client.recv_size),
			4096U);
	/* Without private data from the server: 1024 bytes. */
	KUNIT_EXPECT_FALSE(test, rpcrdma_cm_pdata_decode(NULL, 0, &server));
	KUNIT_EXPECT_EQ(test, rpcrdma_inline_threshold(client.send_size,
						       server.recv_size),
			1024U);
}

/*
 * The Receive size a server posts for a client: its own maximum, down to
 * what the client's private data says it sends; the maximum when the
 * client sent none that decodes.
 */
struct recv_size_vec {
	const char *desc;
	u8 pdata[RPCRDMA_CM_PDATA_SIZE];
	size_t len;
	unsigned int own_max;
	unsigned int want;
};

#define RS_PDATA(send, recv) \
	{ 0xf6, 0xab, 0x0e, 0x18, 0x01, 0x01, (send), (recv) }

static const struct recv_size_vec recv_size_vecs[] = {
	{ "client sends 4 KiB (stock)", RS_PDATA(0x03, 0x03), 8, 8192, 4096 },
	{ "client sends 8 KiB", RS_PDATA(0x07, 0x07), 8, 8192, 8192 },
	{ "client sends 64 KiB, we take 8", RS_PDATA(0x3f, 0x03), 8, 8192,
	  8192 },
	{ "client sends 1 KiB", RS_PDATA(0x00, 0x3f), 8, 8192, 1024 },
	{ "client sends 8 KiB, we take 4", RS_PDATA(0x07, 0x07), 8, 4096,
	  4096 },
	{ "client sends 256 KiB, we take 64", RS_PDATA(0xff, 0xff), 8, 65536,
	  65536 },
	{ "no private data", { 0 }, 0, 8192, 8192 },
	{ "short private data", RS_PDATA(0x00, 0x00), 7, 8192, 8192 },
	{ "wrong magic", { 0xf6, 0xab, 0x0e, 0x19, 0x01, 0x00, 0x00, 0x00 }, 8,
	  8192, 8192 },
	{ "version 2", { 0xf6, 0xab, 0x0e, 0x18, 0x02, 0x00, 0x00, 0x00 }, 8,
	  8192, 8192 },
};

static void recv_size_vec_desc(const struct recv_size_vec *v, char *desc)
{
	strscpy(desc, v->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(recv_size_vec, recv_size_vecs, recv_size_vec_desc);

static void recv_size_case(struct kunit *test)
{
	const struct recv_size_vec *v = test->param_value;
	struct rpcrdma_cm_pdata peer;
	bool sent;

	sent = rpcrdma_cm_pdata_decode(v->len ? v->pdata : NULL, v->len,
				       &peer);
	KUNIT_EXPECT_EQ(test, rpcrdma_cm_recv_size(v->own_max, &peer, sent),
			v->want);
}

/* RFC 8797 section 4.1: remote invalidation only if both set R. */
static void remote_inv_case(struct kunit *test)
{
	struct rpcrdma_cm_pdata a, b;

	rpcrdma_cm_pdata_default(&a);
	rpcrdma_cm_pdata_default(&b);
	KUNIT_EXPECT_FALSE(test, rpcrdma_cm_remote_inv_ok(&a, &b));
	a.remote_inv = true;
	KUNIT_EXPECT_FALSE(test, rpcrdma_cm_remote_inv_ok(&a, &b));
	KUNIT_EXPECT_FALSE(test, rpcrdma_cm_remote_inv_ok(&b, &a));
	b.remote_inv = true;
	KUNIT_EXPECT_TRUE(test, rpcrdma_cm_remote_inv_ok(&a, &b));
}

/*
 * Both ends of a handshake as the client and the server compute it from
 * their tunables (xprtrdma/connect.c, svcrdma/connect.c): each builds its
 * private data with rpcrdma_cm_pdata_init(), the other decodes it.
 */
struct handshake {
	unsigned int srv_recv;		/* the server's Receive buffers */
	unsigned int srv_inline_send;	/* largest reply it Sends */
	unsigned int cli_rep_size;	/* the client's Receive buffers */
	unsigned int cli_inline_send;	/* largest call it Sends */
	unsigned int cli_inline_recv;	/* above this it offers a Reply chunk */
};

static void handshake_run(struct kunit *test, unsigned int cli_read,
			  unsigned int cli_write, unsigned int srv_size,
			  struct handshake *h)
{
	struct rpcrdma_cm_pdata cli, srv, cli_seen, srv_seen;
	u8 buf[RPCRDMA_CM_PDATA_SIZE];

	rpcrdma_cm_pdata_init(&cli, true, cli_write, cli_read);
	KUNIT_ASSERT_EQ(test, rpcrdma_cm_pdata_encode(buf, sizeof(buf), &cli),
			RPCRDMA_CM_PDATA_SIZE);
	KUNIT_ASSERT_TRUE(test, rpcrdma_cm_pdata_decode(buf, sizeof(buf),
							&cli_seen));

	rpcrdma_cm_pdata_init(&srv, true, srv_size, srv_size);
	h->srv_recv = rpcrdma_cm_recv_size(srv.recv_size, &cli_seen, true);
	srv.recv_size = h->srv_recv;
	h->srv_inline_send = rpcrdma_inline_threshold(srv.send_size,
						      cli_seen.recv_size);
	KUNIT_ASSERT_EQ(test, rpcrdma_cm_pdata_encode(buf, sizeof(buf), &srv),
			RPCRDMA_CM_PDATA_SIZE);
	KUNIT_ASSERT_TRUE(test, rpcrdma_cm_pdata_decode(buf, sizeof(buf),
							&srv_seen));

	h->cli_inline_send = rpcrdma_inline_threshold(cli.send_size,
						      srv_seen.recv_size);
	h->cli_inline_recv = rpcrdma_inline_threshold(srv_seen.send_size,
						      cli.recv_size);
	h->cli_rep_size = rpcrdma_cm_recv_size(cli.recv_size, &srv_seen, true);
}

/*
 * Every tunable value either side accepts gives a working connection:
 * no reply larger than the client's Receives, no call larger than the
 * server's, and a client that offers a Reply chunk for exactly the
 * replies the server cannot Send inline.  Sizes off the 1 KiB grid
 * (4500, 5000) are where the two sides used to disagree.
 */
static void handshake_any_size_case(struct kunit *test)
{
	static const unsigned int sizes[] = {
		1024, 1025, 2047, 2048, 4095, 4096, 4097, 4500, 5000, 8191,
		8192, 8193, 9000, 16384, 33000, 65535, 65536,
	};
	unsigned int r, w, s, bad = 0, first[3] = {};
	struct handshake h;

	for (r = 0; r < ARRAY_SIZE(sizes); r++)
		for (w = 0; w < ARRAY_SIZE(sizes); w++)
			for (s = 0; s < ARRAY_SIZE(sizes); s++) {
				handshake_run(test, sizes[r], sizes[w],
					      sizes[s], &h);
				if (h.srv_inline_send <= h.cli_rep_size &&
				    h.cli_inline_send <= h.srv_recv &&
				    h.cli_inline_recv == h.srv_inline_send)
					continue;
				if (!bad++) {
					first[0] = sizes[r];
					first[1] = sizes[w];
					first[2] = sizes[s];
				}
			}
	/* One line for all of them, naming the first. */
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U,
			    "first: client read %u write %u, server %u",
			    first[0], first[1], first[2]);
}

/* The two cases issue #33 reported, with the sizes each side uses. */
static void handshake_off_grid_case(struct kunit *test)
{
	struct handshake h;

	/* Server 4500, client reads 8192: replies up to 4096 inline. */
	handshake_run(test, 8192, 8192, 4500, &h);
	KUNIT_EXPECT_EQ(test, h.srv_inline_send, 4096U);
	KUNIT_EXPECT_EQ(test, h.cli_rep_size, 4096U);
	KUNIT_EXPECT_EQ(test, h.srv_recv, 4096U);
	/* Client reads 5000, server 8192: a Reply chunk above 4096. */
	handshake_run(test, 5000, 8192, 8192, &h);
	KUNIT_EXPECT_EQ(test, h.cli_inline_recv, 4096U);
	KUNIT_EXPECT_EQ(test, h.srv_inline_send, 4096U);
	KUNIT_EXPECT_EQ(test, h.cli_rep_size, 4096U);
	/* Client writes 5000: its calls above 4096 go as Long Calls. */
	handshake_run(test, 8192, 5000, 8192, &h);
	KUNIT_EXPECT_EQ(test, h.cli_inline_send, 4096U);
	KUNIT_EXPECT_EQ(test, h.srv_recv, 4096U);
}

static void constants_case(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, RPCRDMA_CM_PDATA_MAGIC, 0xf6ab0e18);
	KUNIT_EXPECT_EQ(test, RPCRDMA_CM_PDATA_VERSION, 1);
	KUNIT_EXPECT_EQ(test, RPCRDMA_CM_PDATA_SIZE, 8);
	KUNIT_EXPECT_EQ(test, RPCRDMA_CM_PDATA_F_REMOTE_INV, 0x01);
	KUNIT_EXPECT_EQ(test, RPCRDMA_CM_SIZE_MAX, 262144);
}

static struct kunit_case rpcrdma_wire_private_data_cases[] = {
	KUNIT_CASE_PARAM(decode_vec_case, pd_vec_gen_params),
	KUNIT_CASE(encode_case),
	KUNIT_CASE(encode_version_flags_case),
	KUNIT_CASE(encode_short_buffer_case),
	KUNIT_CASE(short_data_case),
	KUNIT_CASE(trailing_data_case),
	KUNIT_CASE(defaults_case),
	KUNIT_CASE_PARAM(size_encode_case, size_vec_gen_params),
	KUNIT_CASE(size_decode_all_case),
	KUNIT_CASE(roundtrip_case),
	KUNIT_CASE(inline_threshold_case),
	KUNIT_CASE_PARAM(recv_size_case, recv_size_vec_gen_params),
	KUNIT_CASE(remote_inv_case),
	KUNIT_CASE(handshake_any_size_case),
	KUNIT_CASE(handshake_off_grid_case),
	KUNIT_CASE(constants_case),
	{}
};

static struct kunit_suite rpcrdma_wire_private_data_suite = {
	.name		= "rpcrdma_wire_private_data",
	.test_cases	= rpcrdma_wire_private_data_cases,
};

kunit_test_suites(&rpcrdma_wire_private_data_suite);
