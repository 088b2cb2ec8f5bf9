/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config.c - reading and writing memcgtoprc. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "atomicfile.h"
#include "fmt.h"
#include "parse.h"
#include "rightsize.h"
#include "trust.h"
#include "xalloc.h"

#define CONFIG_MAX (64 * 1024)

void config_free(struct config *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nfolded; i++)
		free(c->folded[i]);
	free(c->folded);
	c->folded = NULL;
	c->nfolded = 0;
}

static int set_str(char *dst, size_t cap, const char *v, size_t vl)
{
	if (vl >= cap)
		return -E2BIG;
	memcpy(dst, v, vl);
	dst[vl] = '\0';
	return 0;
}

static int add_folded(struct config *c, const char *v, size_t vl)
{
	c->folded = xreallocarray(c->folded, c->nfolded + 1,
				  sizeof(*c->folded));
	c->folded[c->nfolded++] = xstrndup(v, vl);
	return 0;
}

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r';
}

int config_parse(const char *buf, size_t len, struct config *ret, char *err,
		 size_t errlen)
{
	struct config c = { 0 };
	const char *p = buf, *end = buf + len;
	unsigned lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *k, *ke, *v, *eq;
		char safe[96];
		size_t kl, vl;
		int r = 0;

		lineno++;
		if (memchr(p, '\0', (size_t)(le - p))) {
			snprintf(err, errlen, "line %u: NUL byte", lineno);
			config_free(&c);
			return -EINVAL;
		}
		k = p;
		p = nl ? nl + 1 : end;
		while (k < le && is_blank(*k))
			k++;
		if (k == le || *k == '#')
			continue;
		eq = memchr(k, '=', (size_t)(le - k));
		if (!eq) {
			fmt_escape(safe, sizeof(safe), k, (size_t)(le - k));
			snprintf(err, errlen, "line %u: expected 'key = value', "
				 "got '%s'", lineno, safe);
			config_free(&c);
			return -EINVAL;
		}
		ke = eq;
		while (ke > k && is_blank(ke[-1]))
			ke--;
		v = eq + 1;
		while (v < le && is_blank(*v))
			v++;
		while (le > v && is_blank(le[-1]))
			le--;
		kl = (size_t)(ke - k);
		vl = (size_t)(le - v);
#define KEY(name) (kl == sizeof(name) - 1 && memcmp(k, name, kl) == 0)
		if (KEY("interval")) {
			char num[32];
			double d;

			if (vl == 0 || vl >= sizeof(num))
				r = -EINVAL;
			else {
				memcpy(num, v, vl);
				num[vl] = '\0';
				r = parse_interval(num, &d);
				if (r == 0)
					c.delay = d;
			}
			if (r < 0) {
				fmt_escape(safe, sizeof(safe), v, vl);
				snprintf(err, errlen, "line %u: interval '%s' is "
					 "not " INTERVAL_RANGE, lineno, safe);
				config_free(&c);
				return r;
			}
			c.has |= CONFIG_HAS_DELAY;
		} else if (KEY("rec_margin")) {
			char num[32];
			uint64_t pct;

			r = -EINVAL;
			if (vl > 0 && vl < sizeof(num)) {
				memcpy(num, v, vl);
				num[vl] = '\0';
				r = parse_count(num, 0, RS_MARGIN_MAX, &pct);
			}
			if (r < 0) {
				fmt_escape(safe, sizeof(safe), v, vl);
				snprintf(err, errlen, "line %u: rec_margin '%s' "
					 "is not a percent from 0 to %d",
					 lineno, safe, RS_MARGIN_MAX);
				config_free(&c);
				return -EINVAL;
			}
			c.rec_margin = (int)pct;
			c.has |= CONFIG_HAS_REC_MARGIN;
		} else if (KEY("sort")) {
			r = set_str(c.sort, sizeof(c.sort), v, vl);
			c.sort_line = lineno;
			c.has |= CONFIG_HAS_SORT;
		} else if (KEY("columns")) {
			r = set_str(c.set, sizeof(c.set), v, vl);
			c.set_line = lineno;
			c.has |= CONFIG_HAS_SET;
		} else if (KEY("custom")) {
			r = set_str(c.custom, sizeof(c.custom), v, vl);
			c.custom_line = lineno;
			c.has |= CONFIG_HAS_CUSTOM;
		} else if (KEY("theme")) {
			r = set_str(c.theme, sizeof(c.theme), v, vl);
			c.theme_line = lineno;
			c.has |= CONFIG_HAS_THEME;
		} else if (KEY("collector")) {
			if ((vl == 4 && memcmp(v, "auto", 4) == 0) ||
			    (vl == 3 && memcmp(v, "bpf", 3) == 0) ||
			    (vl == 5 && memcmp(v, "files", 5) == 0)) {
				memcpy(c.collector, v, vl);
				c.collector[vl] = '\0';
				c.has |= CONFIG_HAS_COLLECTOR;
			} else {
				fmt_escape(safe, sizeof(safe), v, vl);
				snprintf(err, errlen, "line %u: collector '%s' is "
					 "not auto, bpf or files", lineno, safe);
				config_free(&c);
				return -EINVAL;
			}
		} else if (KEY("folded")) {
			r = vl && v[0] == '/' ? add_folded(&c, v, vl) : -EINVAL;
			if (r == -EINVAL) {
				snprintf(err, errlen, "line %u: folded needs a "
					 "group path starting with '/'", lineno);
				config_free(&c);
				return r;
			}
		} else {
			fmt_escape(safe, sizeof(safe), k, kl);
			snprintf(err, errlen, "line %u: unknown setting '%s' "
				 "(interval, sort, columns, custom, theme, "
				 "collector, folded)", lineno, safe);
			config_free(&c);
			return -EINVAL;
		}
#undef KEY
		if (r < 0) {
			snprintf(err, errlen, "line %u: %s", lineno,
				 r == -E2BIG ? "value too long" : strerror(-r));
			config_free(&c);
			return r;
		}
	}
	*ret = c;
	return 0;
}

int config_path(char *buf, size_t len)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");

	/* The XDG base directory spec: a relative value is ignored. */
	if (x && x[0] == '/')
		snprintf(buf, len, "%s/memcgtop/memcgtoprc", x);
	else if (h && h[0] == '/')
		snprintf(buf, len, "%s/.config/memcgtop/memcgtoprc", h);
	else
		return -ENOENT;
	return 0;
}

/*
 * The settings are the effective user's: the file belongs to that user and
 * only that user may write it, and so may the folder it is in (whoever
 * may write there may put any file in its place, a link to one of root's
 * too).  Under sudo, which keeps HOME, root's memcgtop would otherwise be
 * steered by the user's file, and quote a file the user cannot read in
 * its errors.  Returns 0, or -EINVAL (not a regular file) or -EPERM with
 * the reason in err.
 */
static int check_trusted(char *path, int fd, char *err, size_t errlen)
{
	char why[96], *slash = strrchr(path, '/');
	struct stat st;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return -EINVAL;
	}
	if (trust_stat(&st, 0, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s %s: not reading it", path, why);
		return -EPERM;
	}
	if (!slash || slash == path)
		return 0;
	*slash = '\0';
	if (stat(path, &st) == 0 && trust_stat(&st, 1, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s (the settings file's folder) %s: not "
			 "reading %s/%s", path, why, path, slash + 1);
		*slash = '/';
		return -EPERM;
	}
	*slash = '/';
	return 0;
}

int config_load(struct config *ret, char *err, size_t errlen)
{
	char path[PATH_MAX], *buf;
	ssize_t n, len = 0;
	int fd, r;

	memset(ret, 0, sizeof(*ret));
	if (config_path(path, sizeof(path)) < 0)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	r = check_trusted(path, fd, err, errlen);
	if (r < 0) {
		close(fd);
		return r;
	}
	buf = xmalloc(CONFIG_MAX + 1);
	while (len <= CONFIG_MAX &&
	       (n = read(fd, buf + len, CONFIG_MAX + 1 - (size_t)len)) > 0)
		len += n;
	close(fd);
	if (len > CONFIG_MAX) {
		snprintf(err, errlen, "%s: larger than 64 KiB", path);
		free(buf);
		return -EFBIG;
	}
	r = config_parse(buf, (size_t)len, ret, err, errlen);
	free(buf);
	if (r < 0) {
		char tmp[512];

		snprintf(tmp, sizeof(tmp), "%s", err);
		snprintf(err, errlen, "%s: %s", path, tmp);
	}
	return r;
}

/*
 * The folder the settings go below: XDG_CONFIG_HOME, else HOME.  It is
 * never created, and it must belong to the user memcgtop runs as, real and
 * effective: sudo keeps HOME, and root's ~/.config (0700) in a user's HOME
 * would lock the user out of it.  Returns 0, or a negative errno with the
 * reason in err.
 */
static int check_base(size_t *ret_len, char *err, size_t errlen)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");
	const char *base = x && x[0] == '/' ? x : h,
		*name = x && x[0] == '/' ? "XDG_CONFIG_HOME" : "HOME";
	struct stat st;

	if (stat(base, &st) < 0) {
		int e = errno;

		snprintf(err, errlen, "%s %s: %s (not creating it)", name,
			 base, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s %s: not a directory", name, base);
		return -ENOTDIR;
	}
	if (st.st_uid != getuid() || st.st_uid != geteuid()) {
		snprintf(err, errlen, "%s %s belongs to uid %u, memcgtop runs "
			 "as uid %u (effective %u): not writing there", name,
			 base, (unsigned)st.st_uid, (unsigned)getuid(),
			 (unsigned)geteuid());
		return -EPERM;
	}
	*ret_len = strlen(base);
	return 0;
}

/* mkdir -p for the file's folder below the first `skip` bytes (the base
 * folder, which exists), private to the user. */
static int make_dirs(char *path, size_t skip)
{
	for (char *s = strchr(path + skip + 1, '/'); s;
	     s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			int e = errno;

			*s = '/';
			return -e;
		}
		*s = '/';
	}
	return 0;
}

int config_save(const struct config *c, char *err, size_t errlen)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	FILE *f;
	size_t blen = 0;
	int fd, r;

	if (config_path(path, sizeof(path)) < 0) {
		snprintf(err, errlen, "no home directory to write the "
			 "configuration to");
		return -ENOENT;
	}
	r = check_base(&blen, err, errlen);
	if (r < 0)
		return r;
	r = make_dirs(path, blen);
	if (r < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", tmp, strerror(-r));
		return r;
	}
	f = fdopen(fd, "w");
	if (!f) {
		r = -errno;
		close(fd);
		unlink(tmp);
		snprintf(err, errlen, "%s: %s", tmp, strerror(-r));
		return r;
	}
	fprintf(f, "# memcgtop settings, written by the setup screen (w).\n"
		"# Command-line options override them.\n");
	if (c->has & CONFIG_HAS_DELAY)
		fprintf(f, "interval = %g\n", c->delay);
	if (c->has & CONFIG_HAS_REC_MARGIN)
		fprintf(f, "rec_margin = %d\n", c->rec_margin);
	if (c->has & CONFIG_HAS_SORT)
		fprintf(f, "sort = %s\n", c->sort);
	if (c->has & CONFIG_HAS_SET)
		fprintf(f, "columns = %s\n", c->set);
	if (c->has & CONFIG_HAS_CUSTOM)
		fprintf(f, "custom = %s\n", c->custom);
	if (c->has & CONFIG_HAS_THEME)
		fprintf(f, "theme = %s\n", c->theme);
	if (c->has & CONFIG_HAS_COLLECTOR)
		fprintf(f, "collector = %s\n", c->collector);
	for (size_t i = 0; i < c->nfolded; i++)
		if (!strchr(c->folded[i], '\n'))
			fprintf(f, "folded = %s\n", c->folded[i]);
	r = atomic_replace(f, AT_FDCWD, tmp, path);
	if (r < 0)
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
	return r;
}
