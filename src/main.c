/* SPDX-License-Identifier: GPL-2.0-or-later */
/* main.c - picks the program: --set, --listen, batch or the screen. */
#include <stdio.h>

#include "app/batch.h"
#include "app/listen.h"
#include "app/opts.h"
#include "app/screen.h"
#include "cgfs.h"
#include "edit/probe.h"
#include "collect/provider.h"
#include "edit/setcmd.h"
#include "stopsig.h"
#include "msg.h"

/*
 * Five programs on one hierarchy, opened and closed here: --probe (a
 * group's cold memory, then exit), --set (changes, then exit), --listen (a Prometheus endpoint), batch (-b, a pipe,
 * --output) and the screen.
 */
int main(int argc, char **argv)
{
	struct opts o;
	struct cgfs *cg = NULL;
	char err[512];
	int status, probe_sig = 0;

	opts_parse(argc, argv, &o);
	if (o.version) {
		/* -VV: the CGROUP and --root given are asked about. */
		o.cg.collector = CGFS_COLLECT_AUTO;
		status = opts_version_verbose(&o);
		goto out;
	}
	if (!o.batch && !o.nsets && !o.listen && !o.probe)
		opts_config_collector(&o);
	/* --listen's connections have descriptors of their own. */
	if (o.listen)
		o.cg.fd_keep = listen_fds();
	if (o.prometheus) {
		struct provider *tree;
		int version = 0;

		tree = prov_prom_new(o.prometheus, o.match, o.host_label,
				     &version, err, sizeof(err));
		if (!tree) {
			msg_err("%s", err);
			status = 1;
			goto out;
		}
		status = batch_run(&o, NULL, tree, version);
		goto out;
	}
	/* --set and --probe read only their group's files. */
	if (o.nsets || o.probe)
		o.cg.collector = CGFS_COLLECT_FILES;

	if (cgfs_open(&o.cg, &cg, err, sizeof(err)) < 0) {
		msg_err("%s", err);
		status = 1;
		goto out;
	}
	if (o.readonly)
		cgfs_set_readonly(cg);
	if (o.probe) {
		status = probe_run(cg, o.probe, o.audit_log, &o.probe_o,
				   &probe_sig);
	} else if (o.nsets) {
		struct setcmd_opts so = {
			o.dry_run, o.fmt_given && o.fmt == FMT_JSON, o.follow
		};

		status = setcmd_run(cg, o.sets, o.nsets, o.audit_log, &so);
	} else if (o.record && cgfs_record(cg, o.record, o.record_max, err,
					 sizeof(err)) < 0) {
		msg_err("%s", err);
		status = 1;
	} else if (o.listen) {
		status = listen_run(&o, cg);
	} else if (o.batch) {
		status = batch_run(&o, cg, NULL, 0);
	} else {
		status = screen_run(&o, cg);
	}
out:
	opts_free(&o);
	cgfs_close(cg);
	/* A batch run stopped by a signal dies of it, its files whole. */
	stopsig_die(batch_stop_signal());
	/* A probe stopped by a signal reported, then dies of it. */
	stopsig_die(probe_sig);
	return status;
}
