/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kubepath.h - what a group's path says of Kubernetes and systemd. */
#ifndef MEMCGTOP_KUBEPATH_H
#define MEMCGTOP_KUBEPATH_H

#include <stddef.h>

/* Each part NULL (or length 0) where the path does not say it. */
struct kubepath {
	const char *qos;		/* "guaranteed", "burstable", "besteffort" */
	char pod_uid[37];		/* the pod's UID, with dashes; "" */
	const char *cid;		/* the container's id (hex), in the path */
	size_t cid_len;
	const char *unit;		/* the last part, a systemd unit's name */
	size_t unit_len;
};

/* Fills k from PATH (len bytes, "/a/b"). */
void kubepath_parse(const char *path, size_t len, struct kubepath *k);

#endif
