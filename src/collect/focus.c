// SPDX-License-Identifier: GPL-2.0-or-later
/* focus.c - what the screen's panes show of the group they are for,
 * read into the model (model.focus) when the screen asks: see
 * include/pipeline.h pipeline_focus. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "procs.h"
#include "provider.h"
#include "xalloc.h"

void focus_free(struct model_focus *f)
{
	for (size_t i = 0; i < f->nfiles; i++)
		free(f->file[i].text);
	free(f->procs);
	free(f->path);
	memset(f, 0, sizeof(*f));
}

/* Its records of a read before (the path and what stay). */
static void focus_clear(struct model_focus *f)
{
	for (size_t i = 0; i < f->nfiles; i++)
		free(f->file[i].text);
	f->nfiles = 0;
	f->nknobs = 0;
	free(f->procs);
	f->procs = NULL;
	f->nprocs = 0;
	f->err = 0;
}

/* Each file the fields are read from, once, as a knob. */
static void read_knobs(struct pipeline *p, struct model_focus *f, int root)
{
	for (int i = 0; i < FLD_NR; i++) {
		const struct model_field_files *ff = &p->m.src.files[i];
		const char *const *names = root ? ff->root_name : ff->name;
		size_t n = root ? ff->root_n : ff->n;

		for (size_t j = 0; j < n && f->nknobs < FOCUS_MAX_KNOBS; j++) {
			size_t k = 0;

			while (k < f->nknobs && strcmp(f->knob[k].name, names[j]))
				k++;
			if (k < f->nknobs)
				continue;
			f->knob[k].name = names[j];
			f->knob[k].val[0] = '\0';
			f->knob[k].r = cgfs_read_knob(p->cg, f->path, names[j],
						      f->knob[k].val,
						      sizeof(f->knob[k].val));
			f->nknobs++;
		}
	}
}

_Static_assert(FOCUS_MAX_FILES >= DETAIL_MAX_FILES, "room for the detail");

/* The detail files: theirs now the focus's. */
static void read_detail(struct pipeline *p, struct model_focus *f, int root)
{
	struct cg_detail d;

	f->err = cgfs_detail(p->cg, f->path, &d);
	if (f->err < 0)
		return;
	for (size_t i = 0; i < d.n; i++) {
		f->file[i].name = d.file[i].name;
		f->file[i].text = d.file[i].text;
		f->file[i].err = d.file[i].err;
		f->nfiles++;
	}
	read_knobs(p, f, root);
}

static void read_procs(struct pipeline *p, struct model_focus *f)
{
	int *pids = NULL;
	size_t n = 0;

	/* A copy's or a recording's pids are not this host's. */
	if (!p->m.src.live)
		return;
	f->err = cgfs_pids(p->cg, f->path, &pids, &n);
	if (f->err == 0)
		procs_lookup(pids, n, &f->procs, &f->nprocs);
	free(pids);
}

int pipeline_focus(struct pipeline *p, const char *path, int root,
		   enum model_focus_what what)
{
	struct model_focus *f = &p->m.focus;

	if (f->path && !strcmp(f->path, path) && f->what == what &&
	    f->refresh == p->m.refreshes)
		return 0;
	focus_clear(f);
	if (!f->path || strcmp(f->path, path)) {
		free(f->path);
		f->path = xstrdup(path);
	}
	f->what = what;
	f->refresh = p->m.refreshes;
	if (what == FOCUS_PROCS)
		read_procs(p, f);
	else if (what == FOCUS_DETAIL)
		read_detail(p, f, root);
	return f->err < 0 ? f->err : 1;
}
