// SPDX-License-Identifier: GPL-2.0
/*
 * Instantiates the server tracepoints declared in trace.h.
 */
#include <linux/module.h>

#define CREATE_TRACE_POINTS
#include "trace.h"
