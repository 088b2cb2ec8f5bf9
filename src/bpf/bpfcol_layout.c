/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bpfcol_layout.c - the layout of the kernel's statistics the pass
 * found, and its raw words, for the proof (see bpfcol_int.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfcol_int.h"

int bpfcol_layout(const struct bpfcol *col, struct memcg_layout *ret_layout,
		  const int64_t (**ret_raw)[MR_ARR_WORDS])
{
	if (!col->skel || !col->skel->bss)
		return -ENOENT;
	*ret_layout = col->skel->bss->layout;
	if (col->inject_unproven)
		ret_layout->vmstats = 0;
	*ret_raw = (const int64_t (*)[MR_ARR_WORDS])col->skel->bss->raw;
	return 0;
}

int bpfcol_layout_at(struct bpfcol *col, int dirfd,
		     struct memcg_layout *ret_layout,
		     const int64_t (**ret_raw)[MR_ARR_WORDS])
{
	union bpf_iter_link_info linfo;
	LIBBPF_OPTS(bpf_link_create_opts, opts, .iter_info = &linfo,
		    .iter_info_len = sizeof(linfo));
	struct memcg_sum sum;
	struct bpfcol_why w;
	int link, r;

	if (!col->skel || !col->skel->bss || dirfd < 0)
		return -ENOENT;
	memset(&linfo, 0, sizeof(linfo));
	linfo.cgroup.cgroup_fd = (uint32_t)dirfd;
	linfo.cgroup.order = BPF_CGROUP_ITER_SELF_ONLY;
	link = bpf_link_create(bpf_program__fd(col->skel->progs.memcg_iter), 0,
			       BPF_TRACE_ITER, &opts);
	if (link < 0)
		return -errno;
	/* bpfcol_walk sets the chunk afresh before every pass. */
	col->skel->data_chunk->chunk = (struct memcg_chunk){ .self_only = 1 };
	r = bpfcol_walk_chunk(link, &sum);
	close(link);
	/* The records are this group's now: none is the start's. */
	col->nread = 0;
	col->open_s = 0;
	if (r)
		return r;
	if (sum.groups != 1)
		return -ENOENT;
	r = bpfcol_start_memcg(col, &w);
	if (r <= 0)
		return r < 0 ? r : -ENOENT;
	return bpfcol_layout(col, ret_layout, ret_raw);
}
