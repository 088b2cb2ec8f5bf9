/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bpflib.c - see bpflib.h. */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
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
