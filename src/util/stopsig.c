/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stopsig.c - the signals that stop memcgtop (see stopsig.h). */
#include <signal.h>
#include <string.h>

#include "stopsig.h"

void stopsig_catch(void (*handler)(int), int quit, sigset_t *ret_set)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	size_t n = sizeof(sigs) / sizeof(sigs[0]) - !quit;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	if (ret_set)
		sigemptyset(ret_set);
	for (size_t i = 0; i < n; i++) {
		sigaction(sigs[i], &sa, NULL);
		if (ret_set)
			sigaddset(ret_set, sigs[i]);
	}
}

void stopsig_die(int sig)
{
	if (!sig)
		return;
	signal(sig, SIG_DFL);
	raise(sig);
}
