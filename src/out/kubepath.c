/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kubepath.c - a group's path read as the kubelet lays pods out.
 *
 * The kubelet's systemd driver names the pod's slice by its QoS class and
 * UID, the UID's dashes made underscores (a dash nests slices):
 *   /kubepods.slice/kubepods-burstable.slice/
 *	kubepods-burstable-pod<UID>.slice/cri-containerd-<ID>.scope
 * (guaranteed pods: kubepods-pod<UID>.slice right under kubepods.slice;
 * CRI-O's scopes crio-<ID>.scope, beside its crio-conmon-<ID>.scope, which
 * holds the monitor, not the container; docker's docker-<ID>.scope).  Its
 * cgroupfs driver: /kubepods[/burstable|/besteffort]/pod<UID>/<ID> (CRI-O:
 * crio-<ID>).  kubepods may sit below other parts (a v1 hierarchy's, a
 * node's slice).  A last part ending in a systemd unit type is the unit's
 * name, kept as the path has it (escapes such as \x2d too).
 */
#include <string.h>

#include "kubepath.h"

struct part {
	const char *s;
	size_t n;
};

static int is(struct part p, const char *s)
{
	return p.n == strlen(s) && !memcmp(p.s, s, p.n);
}

/* Strips prefix from p: whether it was there. */
static int strip(struct part *p, const char *prefix)
{
	size_t n = strlen(prefix);

	if (p->n < n || memcmp(p->s, prefix, n))
		return 0;
	p->s += n;
	p->n -= n;
	return 1;
}

static int strip_end(struct part *p, const char *suffix)
{
	size_t n = strlen(suffix);

	if (p->n < n || memcmp(p->s + p->n - n, suffix, n))
		return 0;
	p->n -= n;
	return 1;
}

static int all_hex(struct part p)
{
	for (size_t i = 0; i < p.n; i++)
		if (!strchr("0123456789abcdef", p.s[i]))
			return 0;
	return p.n >= 12 && p.n <= 64;
}

/* A pod UID (36 characters, dashes at 8, 13, 18, 23; the systemd
 * driver's underscores read as dashes) into out. */
static int take_uid(struct part p, char out[37])
{
	if (p.n != 36)
		return 0;
	for (size_t i = 0; i < 36; i++) {
		char c = p.s[i];

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (c != '-' && c != '_')
				return 0;
			c = '-';
		} else if (!strchr("0123456789abcdef", c)) {
			return 0;
		}
		out[i] = c;
	}
	out[36] = '\0';
	return 1;
}

static const char *qos_of(struct part *p)
{
	if (strip(p, "burstable"))
		return "burstable";
	if (strip(p, "besteffort"))
		return "besteffort";
	return NULL;
}

/* The container's id from what is left of its part. */
static void take_cid(struct part p, struct kubepath *k)
{
	if (all_hex(p)) {
		k->cid = p.s;
		k->cid_len = p.n;
	}
}

/* The parts from kubepods.slice's child on (sd: the systemd driver's
 * names) or kubepods' (cgroupfs'): the QoS class's level if there is
 * one, the pod's, the container's. */
static void parse_pod(const struct part *v, size_t n, struct kubepath *k,
		      int sd)
{
	struct part p;
	const char *qos;
	size_t i = 0;

	if (!n)
		return;
	p = v[0];
	if ((!sd || strip(&p, "kubepods-")) && (qos = qos_of(&p)) &&
	    (sd ? is(p, ".slice") : !p.n)) {
		k->qos = qos;
		i++;
	}
	if (i >= n)
		return;
	p = v[i];
	if (sd && (!strip(&p, "kubepods-") ||
		   (k->qos && (qos_of(&p) != k->qos || !strip(&p, "-"))) ||
		   !strip_end(&p, ".slice")))
		return;
	if (!strip(&p, "pod") || !take_uid(p, k->pod_uid))
		return;
	if (!k->qos)
		k->qos = "guaranteed";
	if (++i >= n)
		return;
	p = v[i];
	if (sd && (!strip_end(&p, ".scope") || strip(&p, "crio-conmon-")))
		return;
	if (strip(&p, "cri-containerd-") || strip(&p, "crio-") ||
	    strip(&p, "docker-") || !sd)
		take_cid(p, k);
}

#define KUBEPATH_PARTS 16

void kubepath_parse(const char *path, size_t len, struct kubepath *k)
{
	static const char *const units[] = {
		".service", ".scope", ".slice", ".socket", ".mount", ".swap",
	};
	struct part v[KUBEPATH_PARTS], last = { NULL, 0 };
	size_t n = 0, i = 0;

	memset(k, 0, sizeof(*k));
	while (i < len) {
		size_t j = i;

		while (j < len && path[j] != '/')
			j++;
		if (j > i) {
			last = (struct part){ path + i, j - i };
			if (n < KUBEPATH_PARTS)
				v[n++] = last;
		}
		i = j + 1;
	}
	for (size_t u = 0; last.n && u < sizeof(units) / sizeof(units[0]); u++) {
		struct part p = last;

		if (strip_end(&p, units[u]) && p.n) {
			k->unit = last.s;
			k->unit_len = last.n;
		}
	}
	for (i = 0; i < n; i++) {
		if (is(v[i], "kubepods.slice") || is(v[i], "kubepods")) {
			parse_pod(v + i + 1, n - i - 1, k,
				  is(v[i], "kubepods.slice"));
			return;
		}
	}
}
