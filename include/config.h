/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config.h - the interactive screen's start-up settings file.
 *
 * $XDG_CONFIG_HOME/memcgtop/memcgtoprc (default ~/.config/...): lines of
 * "key = value"; written only when the user asks (w in the setup screen).
 */
#ifndef MEMCGTOP_CONFIG_H
#define MEMCGTOP_CONFIG_H

#include <stddef.h>

struct config {
	double delay;
	char sort[72];		/* [+|-]KEY */
	char set[16];		/* column set name */
	char custom[1024];	/* KEY,KEY,... */
	char theme[256];
	char collector[8];	/* auto, bpf or files (checked) */
	int rec_margin;		/* percent, 0 to RS_MARGIN_MAX */
	char **folded;		/* group paths shown folded */
	size_t nfolded;
	unsigned has;		/* CONFIG_HAS_* */
	/* The line each of sort, columns, custom and theme came from (the
	 * last one given), for errors found when the value is used. */
	unsigned sort_line, set_line, custom_line, theme_line;
};

#define CONFIG_HAS_DELAY 1u
#define CONFIG_HAS_SORT 2u
#define CONFIG_HAS_SET 4u
#define CONFIG_HAS_CUSTOM 8u
#define CONFIG_HAS_THEME 16u
#define CONFIG_HAS_COLLECTOR 32u
#define CONFIG_HAS_REC_MARGIN 64u

/* Parses a whole file; errors name the line ("line 3: ..."). */
int config_parse(const char *buf, size_t len, struct config *ret, char *err,
		 size_t errlen);
/* The file's path; returns 0 or -ENOENT when no home can be found. */
int config_path(char *buf, size_t len);
/* Loads the file; a missing file is an empty configuration. */
int config_load(struct config *ret, char *err, size_t errlen);
/* Writes the file atomically (temporary file + rename), mode 0600. */
int config_save(const struct config *c, char *err, size_t errlen);
void config_free(struct config *c);

#endif
