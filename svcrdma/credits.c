// SPDX-License-Identifier: GPL-2.0
/*
 * A connection's credit grant, and the server-wide budget it grows from.
 *
 * A connection starts with a grant of SRDMA_GRANT_FLOOR and grows it by a
 * Receive batch while the client keeps its credits in use (recv.c); the
 * credits above every connection's floor come from one budget
 * (srdma_credit_budget, a sysctl), so memory for Receives stays bounded
 * however many clients connect.  RFC 8166 section 3.3.1: the Receives
 * for a larger grant are posted before any reply carries it.  The grant
 * never falls while the connection lives.
 */
#include "server.h"

/* Credits above their connections' floors, over every connection. */
static atomic_t srdma_credits_lent = ATOMIC_INIT(0);

/**
 * srdma_grant_init - a new connection's grant
 * @sx: the connection
 * @max: the largest grant its queues are sized for
 */
void srdma_grant_init(struct srdma_xprt *sx, unsigned int max)
{
	sx->max_requests = max;
	sx->grant = min_t(unsigned int, max, SRDMA_GRANT_FLOOR);
	sx->calls_in = 0;
	atomic_set(&sx->calls_done, 0);
}

/**
 * srdma_grant_take - take credits above a floor from the server's budget
 * @n: credits
 *
 * Return: true if the budget (srdma_credit_budget) had room for them.
 */
bool srdma_grant_take(unsigned int n)
{
	if (atomic_add_return(n, &srdma_credits_lent) <=
	    READ_ONCE(srdma_credit_budget))
		return true;
	atomic_sub(n, &srdma_credits_lent);
	return false;
}

/**
 * srdma_grant_give - give credits taken by srdma_grant_take() back
 * @n: credits
 */
void srdma_grant_give(unsigned int n)
{
	atomic_sub(n, &srdma_credits_lent);
}

/**
 * srdma_grant_release - a connection is freed: its credits above the
 *	floor go back to the budget
 * @sx: the connection
 */
void srdma_grant_release(struct srdma_xprt *sx)
{
	unsigned int floor = min_t(unsigned int, sx->max_requests,
				   SRDMA_GRANT_FLOOR);

	srdma_grant_give(sx->grant - floor);
	sx->grant = floor;
}
