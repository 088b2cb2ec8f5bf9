/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline.h - one refresh, the same for every front end (batch, --output,
 * --record, --listen, the screen): what the views need, asked of the
 * collector layer's providers in order (src/collect/provider.h: the system
 * figures, the tree, the reclaim events, the OOM kills), then the model.
 * A front end says what it shows (struct pipeline_want) and reads the
 * model; it assembles none of the steps itself.
 */
#ifndef MEMCGTOP_PIPELINE_H
#define MEMCGTOP_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "cgfs.h"
#include "columns.h"
#include "model.h"

struct reclaim;
struct bpfoom;
struct provider;

#define PIPELINE_MAX_PROVIDERS 8

/* What the views need of the next refresh. */
struct pipeline_want {
	const struct column *const *cols;	/* shown or exported */
	size_t ncols;
	const struct column *sort;		/* or NULL */
	/* The fields wanted only if the tree gives them without opening a
	 * file (the screen's colours: cgfs_free_fields). */
	fieldset if_free;
	/* The reclaim events even if no column needs them (the detail
	 * pane, which shows their state and a group's flushes). */
	int events;
	/* The OOM kills (model.oom) even if no column needs the groups'
	 * OOM kill counters (JSON's system.oom_kills). */
	int oom;
	/* The model derives only what the columns and the sort show (the
	 * printers; model.want); else every value (the screen). */
	int only_shown;
};

struct pipeline {
	struct cgfs *cg;	/* NULL: pipeline_init_tree */
	struct reclaim *rc;	/* the reclaim events (reclaim.h) */
	/* The OOM killer's victims (bpfoom.h), where the BPF collector
	 * runs; NULL: the counters tell of the kills (oomlog.h), and
	 * oom_why says why. */
	struct bpfoom *oom;
	char oom_why[256];
	int maxdepth;
	struct provider *prov[PIPELINE_MAX_PROVIDERS];	/* in fill order */
	struct provider *tree;	/* of them, the one that begins and ends
				 * the sample (provider.h) */
	size_t nprov;
	struct snapshot snap;
	struct model m;
	fieldset fields;	/* what the last refresh was asked for */
};

/* recording: --record is on (the events are then not loaded: a replay
 * must print what the live run printed; nor is the OOM tracepoint's
 * program, for the same reason). */
void pipeline_init(struct pipeline *p, struct cgfs *cg, int maxdepth,
		   int recording);
/* A source that is not a host's hierarchy (--prometheus): its tree
 * provider alone, which the pipeline owns from now on; cg is NULL, no
 * reclaim events, no OOM tracepoint. */
void pipeline_init_tree(struct pipeline *p, struct provider *tree,
			int version, int maxdepth);
void pipeline_free(struct pipeline *p);

/* The fields a refresh for w reads. */
fieldset pipeline_fields(const struct pipeline *p,
			 const struct pipeline_want *w);

/*
 * One refresh for w: each provider asked (the events loaded or unloaded
 * as w needs them), the sample read (the system figures, the tree, the
 * events' counts put into it), the model updated, the OOM kills noted
 * and, for each field read, why it is blank (model.blank).  Returns
 * 0, -ENODATA at the end of a recorded series, or another negative errno
 * with a reason in err.
 */
int pipeline_refresh(struct pipeline *p, const struct pipeline_want *w,
		     char *err, size_t errlen);

/* A series: the sample just read again, for fields w asks for since; the
 * model keeps its previous sample and interval (model_replace). */
int pipeline_reread(struct pipeline *p, const struct pipeline_want *w,
		    char *err, size_t errlen);

/* The source's record in the model (model.src), filled at pipeline_init
 * and after each read of the tree (model_source.c). */
void model_source_fill(struct model_source *s, struct cgfs *cg,
		       const struct reclaim *rc);

/* Each field's files and the detail pane's NUMA view (model.src.files,
 * numa_pane), once, at pipeline_init (model_source.c). */
void model_source_files(struct model_source *s, const struct cgfs *cg);

/*
 * The group a pane of the screen shows (path as shown; root: it is the
 * hierarchy's root) and what the pane needs of it (model.focus): read
 * now, unless model.focus already holds it for this group, pane and
 * refresh.  Returns 1 when read, 0 when kept, or the negative errno of a
 * group that cannot be read (focus.c).
 */
int pipeline_focus(struct pipeline *p, const char *path, int root,
		   enum model_focus_what what);

/* A series: the next refresh reads sample index (model.src.position). */
void pipeline_seek(struct pipeline *p, size_t index);

/* The refreshes are for the screen (cgfs_for_screen). */
void pipeline_for_screen(struct pipeline *p);

#endif
