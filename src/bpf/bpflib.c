/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bpflib.c - see bpflib.h. */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bpflib.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static char first[160];
static char verifier[160];
static char error[400];

bool bpflib_permitted(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };
	uint64_t eff;

	if (syscall(SYS_capget, &hdr, data) != 0)
		return false;
	eff = (uint64_t)data[1].effective << 32 | data[0].effective;
#define HAS(c) ((eff >> (c)) & 1)
	return HAS(CAP_SYS_ADMIN) || (HAS(CAP_BPF) && HAS(CAP_PERFMON));
#undef HAS
}

/*
 * The verifier's own words: the last line of its log that is not an
 * instruction ("12: (79) r1 = ..."), a source comment or a statistic.
 */
static void keep_verifier_line(const char *log)
{
	const char *p, *e;

	for (p = log; *p; p = *e ? e + 1 : e) {
		e = p + strcspn(p, "\n");
		if (e == p || (*p >= '0' && *p <= '9') || *p == ';' ||
		    strncmp(p, "--", 2) == 0 || strncmp(p, "processed ", 10) == 0 ||
		    strncmp(p, "libbpf:", 7) == 0 || strncmp(p, "func#", 5) == 0 ||
		    strncmp(p, "reg type unsupported", 20) == 0)
			continue;
		snprintf(verifier, sizeof(verifier), "%.*s", (int)(e - p), p);
	}
}

__attribute__((format(printf, 2, 0)))
static int keep(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *msg;

	if (level == LIBBPF_DEBUG || vasprintf(&msg, fmt, ap) < 0)
		return 0;
	if (strstr(msg, "BEGIN PROG LOAD LOG"))
		keep_verifier_line(msg);
	else if (!first[0])
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(msg, "\n"),
			 msg);
	free(msg);
	return 0;
}

void bpflib_keep_messages(void)
{
	first[0] = '\0';
	verifier[0] = '\0';
	libbpf_set_print(keep);
}

const char *bpflib_open_error(int r)
{
	snprintf(error, sizeof(error), "cannot open the BPF object: %s",
		 first[0] ? first : strerror(-r));
	return error;
}

const char *bpflib_load_error(int r)
{
	/* The verifier says EACCES or EINVAL; EPERM is privilege. */
	if (r == -EPERM)
		snprintf(error, sizeof(error), "the kernel refused bpf(): %s",
			 strerror(-r));
	else
		snprintf(error, sizeof(error),
			 "the kernel refused the program (%s)%s%s",
			 strerror(-r), verifier[0] ? ": " : "", verifier);
	return error;
}

const char *bpflib_btf_error(int r)
{
	struct stat st;

	/* libbpf tries the file, then vmlinux images in /boot, and says
	 * ESRCH when none would do: the file's own state tells why. */
	if (r == -ESRCH) {
		if (stat(BPFLIB_VMLINUX, &st) < 0)
			r = -errno;
		else if (access(BPFLIB_VMLINUX, R_OK) < 0)
			r = -errno;
		else
			r = -EINVAL;
	}
	if (stat(BPFLIB_VMLINUX, &st) == 0 && st.st_size == 0)
		snprintf(error, sizeof(error), "the kernel's BTF (%s) is empty",
			 BPFLIB_VMLINUX);
	else if (r == -EINVAL || r == -EPROTO || r == -EIO || r == -E2BIG ||
		 r == -ENODATA)
		/* libbpf's answers for a header, a type or a string section
		 * that does not hold together */
		snprintf(error, sizeof(error), "the kernel's BTF (%s) is not "
			 "valid BTF (cut short or corrupt)", BPFLIB_VMLINUX);
	else
		snprintf(error, sizeof(error), "cannot read the kernel's BTF "
			 "(%s): %s", BPFLIB_VMLINUX, strerror(-r));
	return error;
}

bool bpflib_fds_short(int need, char *why, size_t len)
{
	struct rlimit rl;
	int fds[64], n = 0;

	if (need > 64)
		need = 64;
	fds[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fds[0] >= 0)
		for (n = 1; n < need; n++) {
			fds[n] = fcntl(fds[0], F_DUPFD_CLOEXEC, 0);
			if (fds[n] < 0)
				break;
		}
	for (int i = 0; i < n; i++)
		close(fds[i]);
	if (n >= need)
		return false;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
		snprintf(why, len, "too few file descriptors left to load the "
			 "program (it needs about %d; RLIMIT_NOFILE is %llu)",
			 need, (unsigned long long)rl.rlim_cur);
	else
		snprintf(why, len, "too few file descriptors left to load the "
			 "program (it needs about %d)", need);
	return true;
}

uint64_t bpflib_load_bytes(uint64_t maps)
{
	struct stat st;
	uint64_t btf = stat(BPFLIB_VMLINUX, &st) == 0 ? (uint64_t)st.st_size :
		(8U << 20);

	return 2 * btf + maps + (5U << 20);
}

/* The first number of file name in dir, or UINT64_MAX ("max", none). */
static uint64_t read_num(const char *dir, const char *name)
{
	char path[4096 + 64], buf[64];
	unsigned long long v;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return UINT64_MAX;
	ok = fgets(buf, sizeof(buf), f) && sscanf(buf, "%llu", &v) == 1;
	fclose(f);
	return ok ? (uint64_t)v : UINT64_MAX;
}

/* The sum of keys a and b of dir's memory.stat (0 where absent). */
static uint64_t read_stat2(const char *dir, const char *a, const char *b)
{
	char path[4096 + 64], line[256], key[128];
	unsigned long long v;
	uint64_t sum = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %llu", key, &v) == 2 &&
		    (strcmp(key, a) == 0 || strcmp(key, b) == 0))
			sum += v;
	fclose(f);
	return sum;
}

/*
 * This process's memory cgroup directory: the v1 memory hierarchy's line
 * of /proc/self/cgroup ("N:memory,...:/path"), else the v2 one
 * ("0::/path"), below the mount that shows it (mountinfo's ROOT is the
 * part of the hierarchy mounted).  0 on success.
 */
static int own_memcg(char *dir, size_t len, bool *ret_v2)
{
	char line[4096], rel[4096] = "", root[4096], point[4096], type[64];
	bool v1 = false, found = false;
	FILE *f = fopen("/proc/self/cgroup", "re");

	if (!f)
		return -1;
	while (!v1 && fgets(line, sizeof(line), f)) {
		char *ctls = strchr(line, ':'), *path, *c;

		if (!ctls || !(path = strchr(ctls + 1, ':')))
			continue;
		*ctls++ = '\0';
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		for (c = strtok(ctls, ","); c; c = strtok(NULL, ","))
			v1 |= strcmp(c, "memory") == 0;
		if (v1 || (strcmp(line, "0") == 0 && !*ctls)) {
			snprintf(rel, sizeof(rel), "%s", path);
			found = true;
		}
	}
	fclose(f);
	if (!found || !(f = fopen("/proc/self/mountinfo", "re")))
		return -1;
	dir[0] = '\0';
	/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - TYPE SRC SUPER */
	while (!dir[0] && fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - "), *under = rel;
		size_t rl;

		if (!sep || sscanf(line, "%*s %*s %*s %4095s %4095s", root,
				   point) != 2 ||
		    sscanf(sep + 3, "%63s", type) != 1)
			continue;
		if (v1 ? strcmp(type, "cgroup") != 0 ||
			 !strstr(sep + 3 + strlen(type), "memory") :
			 strcmp(type, "cgroup2") != 0)
			continue;
		rl = strlen(root);
		if (strcmp(root, "/") != 0) {
			if (strncmp(rel, root, rl) != 0 ||
			    (rel[rl] != '/' && rel[rl] != '\0'))
				continue;
			under = rel + rl;
		}
		snprintf(dir, len, "%s%s", point, under);
	}
	fclose(f);
	/* mountinfo writes a blank as \040: such a mount is not followed */
	if (!dir[0] || strchr(dir, '\\'))
		return -1;
	*ret_v2 = !v1;
	return 0;
}

bool bpflib_memcg_short(uint64_t need, char *why, size_t len)
{
	char dir[4096], tight[4096] = "";
	uint64_t room = UINT64_MAX;
	bool v2;

	if (own_memcg(dir, sizeof(dir), &v2) != 0)
		return false;
	/* Up the path until a directory without the files (above the
	 * hierarchy); the root's limit is no limit. */
	for (;;) {
		uint64_t lim, use, file, r;
		char *slash;

		if (v2) {
			uint64_t high = read_num(dir, "memory.high");

			lim = read_num(dir, "memory.max");
			if (high < lim)
				lim = high;
			use = read_num(dir, "memory.current");
			file = read_stat2(dir, "active_file", "inactive_file");
		} else {
			lim = read_num(dir, "memory.limit_in_bytes");
			use = read_num(dir, "memory.usage_in_bytes");
			file = read_stat2(dir, "total_active_file",
					  "total_inactive_file");
		}
		if (use == UINT64_MAX)
			break;
		/* v1 says "no limit" as PAGE_COUNTER_MAX pages in bytes */
		if (lim < (1ULL << 62)) {
			r = (lim > use ? lim - use : 0) + file;
			if (r < room) {
				room = r;
				snprintf(tight, sizeof(tight), "%s", dir);
			}
		}
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
	}
	if (room >= need)
		return false;
	snprintf(why, len, "the memory cgroup %.200s has %.1f MiB free; "
		 "loading the program takes about %.1f MiB", tight,
		 (double)room / (1 << 20), (double)need / (1 << 20));
	return true;
}

void bpflib_loaded(void)
{
	malloc_trim(0);
}
