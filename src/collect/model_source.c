/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model_source.c - the source's record in the model (model.h struct
 * model_source), and the front ends' calls that reach the source through
 * the pipeline: see include/pipeline.h. */
#include <stdio.h>

#include "pipeline.h"
#include "reclaim.h"

void model_source_fill(struct model_source *s, struct cgfs *cg,
		       const struct reclaim *rc)
{
	const char *note = cgfs_take_note(cg);
	const char *text = "";
	int64_t since = 0;

	s->version = cgfs_version(cg);
	s->mode = cgfs_mode(cg);
	s->root = cgfs_root(cg);
	s->collector = cgfs_collector(cg);
	s->live = cgfs_is_live(cg);
	s->readonly = cgfs_readonly(cg);
	s->series = cgfs_is_series(cg);
	s->position = cgfs_position(cg, &s->count);
	s->free_fields = cgfs_free_fields(cg);
	s->version_events = cgfs_version_events(s->version);
	s->event_fields = reclaim_fields(s->version);
	s->event_slots = reclaim_slots(rc);
	s->events = rc != NULL;
	s->events_state = MEV_NONE;
	if (rc) {
		enum reclaim_state st = reclaim_state(rc, &text, &since);

		s->events_state = st == RECLAIM_IDLE ? MEV_IDLE :
			st == RECLAIM_ON ? MEV_ON :
			st == RECLAIM_FAILED ? MEV_FAILED : MEV_NONE;
	}
	s->events_text = text ? text : "";
	s->events_since = since;
	s->bpf_why = cgfs_bpf_why(cg);
	s->paths = cgfs_paths(cg);
	if (note) {
		snprintf(s->note, sizeof(s->note), "%s", note);
		s->note_new = 1;
	}
}

void model_source_files(struct model_source *s, const struct cgfs *cg)
{
	for (int f = 0; f < FLD_NR; f++) {
		struct model_field_files *ff = &s->files[f];
		int lacks;

		ff->n = (unsigned char)cgfs_field_files(cg, (enum field)f, 0,
							 ff->name,
							 MODEL_FIELD_FILES,
							 &lacks);
		ff->root_n = (unsigned char)cgfs_field_files(cg, (enum field)f,
							      1, ff->root_name,
							      MODEL_FIELD_FILES,
							      &lacks);
		ff->root_lacks = (unsigned char)lacks;
		if (!cgfs_field_source(cgfs_version(cg), (enum field)f,
				       &ff->file, &ff->key))
			ff->file = ff->key = NULL;
	}
	s->numa_pane = cgfs_numa_view(cgfs_version(cg), CGFS_NUMA_PANE);
}

void pipeline_seek(struct pipeline *p, size_t index)
{
	cgfs_seek(p->cg, index);
}

void pipeline_for_screen(struct pipeline *p)
{
	cgfs_for_screen(p->cg);
}
