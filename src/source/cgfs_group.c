/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_group.c - one shown group of whatever source: its directory in the
 * sample last read (the source's tree op), its detail files and its pids,
 * asked for the screen's panes (src/collect/focus.c) when they open, when
 * the selection changes and at each refresh (never while drawing). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgfs_int.h"
#include "parse.h"
#include "xalloc.h"

/* Opens the directory of a shown path in the current sample. */
int cgfs_open_group(struct cgfs *cg, const char *path)
{
	char dir[PATH_MAX];
	int rootfd, fd;

	cg->src->tree(cg, dir, sizeof(dir));
	rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;
	while (*path == '/')
		path++;
	/* Shown paths never hold "." or ".." components: they come from
	 * directory entries, which cgfs_refresh has walked. */
	fd = cgfs_open_rel(rootfd, path);
	close(rootfd);
	return fd;
}

int cgfs_detail(struct cgfs *cg, const char *path, struct cg_detail *ret)
{
	const char *const *names = cgfs_detail_files(cg->ver);
	int fd = cgfs_open_group(cg, path);

	memset(ret, 0, sizeof(*ret));
	if (fd < 0)
		return fd;
	for (size_t i = 0; names[i] && ret->n < DETAIL_MAX_FILES; i++) {
		ssize_t n = cgfs_read_small(&cg->io, fd, names[i]);

		if (n == -ENOENT)
			continue;	/* this kernel or group lacks it */
		ret->file[ret->n].name = names[i];
		if (n < 0) {
			ret->file[ret->n].err = (int)-n;
		} else {
			ret->file[ret->n].text = xstrndup(cg->io.buf, (size_t)n);
		}
		ret->n++;
	}
	close(fd);
	return 0;
}

void cgfs_detail_free(struct cg_detail *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		free(d->file[i].text);
	d->n = 0;
}

int cgfs_pids(struct cgfs *cg, const char *path, int **ret_pids, size_t *ret_n)
{
	int fd = cgfs_open_group(cg, path), *pids = NULL;
	size_t n = 0, cap = 0;
	ssize_t len;
	const char *p, *end;

	if (fd < 0)
		return fd;
	len = cgfs_read_small(&cg->io, fd, cgfs_file_name(cg->ver, CF_PROCS));
	close(fd);
	if (len < 0)
		return (int)len;
	p = cg->io.buf;
	end = cg->io.buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		uint64_t v;

		if (!nl)
			break;
		if (parse_u64(p, (size_t)(nl - p), &v) == 0 && v <= INT_MAX) {
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				pids = xreallocarray(pids, cap, sizeof(int));
			}
			pids[n++] = (int)v;
		}
		p = nl + 1;
	}
	*ret_pids = pids;
	*ret_n = n;
	return 0;
}

