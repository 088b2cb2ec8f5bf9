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

void pipeline_seek(struct pipeline *p, size_t index)
{
	cgfs_seek(p->cg, index);
}

void pipeline_for_screen(struct pipeline *p)
{
	cgfs_for_screen(p->cg);
}
