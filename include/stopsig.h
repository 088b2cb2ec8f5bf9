/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stopsig.h - the signals that stop memcgtop: SIGINT, SIGTERM, SIGHUP, and
 * SIGQUIT on the screen.  They are caught so that the program ends between
 * two steps (nothing half written, the terminal put back), then it dies of
 * the signal, as the shell expects. */
#ifndef MEMCGTOP_STOPSIG_H
#define MEMCGTOP_STOPSIG_H

#include <signal.h>

/*
 * handler for the stop signals (quit: SIGQUIT too), without SA_RESTART: a
 * signal interrupts the wait it comes in.  ret_set, if not NULL, gets the
 * set of those signals.
 */
void stopsig_catch(void (*handler)(int), int quit, sigset_t *ret_set);

/* Dies of sig (the default action restored), if it is not 0. */
void stopsig_die(int sig);

#endif
