/* SPDX-License-Identifier: GPL-2.0-or-later */
/* listen.c - --listen: a Prometheus endpoint.  GET /metrics serves the
 * exposition of -b -F openmetrics (or -F prometheus, by the request's
 * Accept), computed at the scrape by the pipeline batch mode uses.
 *
 * libmicrohttpd serves the connections from one thread of its own, which
 * polls them all and calls handle() for one request at a time: a scrape
 * never runs beside another, and a slow client (half a request) holds a
 * connection, not that thread.  Its limits: LISTEN_CONNECTIONS connections
 * (more are closed when accepted), LISTEN_REQUEST_BYTES for a request's
 * line and headers (larger: 431, connection closed), LISTEN_TIMEOUT
 * seconds of silence before a connection is closed (a scraper's kept-alive
 * one too, between scrapes further apart than that).  The main thread
 * waits for SIGINT, SIGTERM or SIGHUP, blocked in every thread, then stops
 * the daemon (a scrape under way ends first) and returns 0.
 */
#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "app/batch.h"
#include "app/listen.h"
#include "app/opts.h"
#include "cgfs.h"
#include "out.h"
#include "pipeline.h"
#include "reclaim.h"
#include "msg.h"

/*
 * libmicrohttpd is opened at run time, by --listen alone: linked, it
 * would bring GnuTLS and p11-kit into every run (their constructors
 * cost 2.6 ms at each start, measured with --version).  Its functions,
 * typed as its header declares them.
 */
#define LISTEN_LIB "libmicrohttpd.so.12"
static struct {
	__typeof__(&MHD_start_daemon) start_daemon;
	__typeof__(&MHD_stop_daemon) stop_daemon;
	__typeof__(&MHD_create_response_from_buffer) create_response;
	__typeof__(&MHD_add_response_header) add_header;
	__typeof__(&MHD_destroy_response) destroy_response;
	__typeof__(&MHD_queue_response) queue_response;
	__typeof__(&MHD_lookup_connection_value) lookup_value;
} mhd;

/* Opens the library: 0, or -1 with the reason in err. */
static int mhd_open(char *err, size_t errlen)
{
	void *h = dlopen(LISTEN_LIB, RTLD_NOW | RTLD_LOCAL);
	const char *e;

	if (!h) {
		e = dlerror();
		snprintf(err, errlen, "--listen: cannot load %s (Debian: "
			 "libmicrohttpd12): %s", LISTEN_LIB, e ? e : "?");
		return -1;
	}
#define SYM(field, name)						\
	do {								\
		*(void **)&mhd.field = dlsym(h, name);			\
		if (!mhd.field) {					\
			snprintf(err, errlen, "--listen: %s has no %s",	\
				 LISTEN_LIB, name);			\
			return -1;					\
		}							\
	} while (0)
	SYM(start_daemon, "MHD_start_daemon");
	SYM(stop_daemon, "MHD_stop_daemon");
	SYM(create_response, "MHD_create_response_from_buffer");
	SYM(add_header, "MHD_add_response_header");
	SYM(destroy_response, "MHD_destroy_response");
	SYM(queue_response, "MHD_queue_response");
	SYM(lookup_value, "MHD_lookup_connection_value");
#undef SYM
	return 0;
}

#define LISTEN_CONNECTIONS	16
#define LISTEN_REQUEST_BYTES	(16 * 1024)
#define LISTEN_TIMEOUT		10	/* seconds */

#define CT_OPENMETRICS \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"
#define CT_PROMETHEUS	"text/plain; version=0.0.4; charset=utf-8"
#define CT_ERROR	"text/plain; charset=utf-8"

struct server {
	struct opts *o;
	struct cgfs *cg;
	struct pipeline pl;
	struct pipeline_want want;
	struct batch_rows br;
	struct out_ctx out;
};

/* A response from a buffer of malloc's, which it frees; ctype and, if not
 * NULL, Allow. */
static enum MHD_Result reply(struct MHD_Connection *conn, unsigned status,
			     char *body, size_t len, const char *ctype,
			     const char *allow)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;

	resp = mhd.create_response(len, body, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		free(body);
		return MHD_NO;
	}
	if (mhd.add_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
				    ctype) != MHD_YES ||
	    (allow && mhd.add_header(resp, MHD_HTTP_HEADER_ALLOW,
					      allow) != MHD_YES)) {
		mhd.destroy_response(resp);
		return MHD_NO;
	}
	ret = mhd.queue_response(conn, status, resp);
	mhd.destroy_response(resp);
	return ret;
}

/* A one-line reason, "memcgtop: REASON\n". */
static enum MHD_Result reply_error(struct MHD_Connection *conn,
				   unsigned status, const char *allow,
				   const char *reason)
{
	char *body;
	int n = asprintf(&body, "memcgtop: %s\n", reason);

	if (n < 0)
		return MHD_NO;
	return reply(conn, status, body, (size_t)n, CT_ERROR, allow);
}

/* Prometheus asks for OpenMetrics by naming it in Accept (with the text
 * format as a fallback of a lower q); anything else gets the text format. */
static int wants_openmetrics(struct MHD_Connection *conn)
{
	const char *accept = mhd.lookup_value(conn, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);

	return accept && strcasestr(accept, "application/openmetrics-text");
}

/* One scrape: a refresh, the exposition written into memory, sent whole;
 * a failed refresh is a 500 with its reason, never half a body. */
static enum MHD_Result scrape(struct server *s, struct MHD_Connection *conn)
{
	int om = wants_openmetrics(conn);
	char err[512], *body = NULL;
	size_t len = 0;
	const char *note;
	FILE *f;
	int r;

	r = pipeline_refresh(&s->pl, &s->want, err, sizeof(err));
	note = cgfs_take_note(s->cg);
	if (note) {
		msg_err("%s", note);
		s->out.collector = cgfs_collector(s->cg);
	}
	if (r == -ENODATA)
		return reply_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				   "the recorded series has ended");
	if (r < 0)
		return reply_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				   err);
	f = open_memstream(&body, &len);
	if (!f)
		return reply_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				   strerror(errno));
	s->out.f = f;
	s->out.fmt = om ? FMT_OPENMETRICS : FMT_PROMETHEUS;
	s->out.nrows = batch_rows(&s->br, s->o, &s->pl.m);
	s->out.rows = s->br.rows;
	s->out.start_depth = s->pl.m.n ? s->pl.m.groups[0]->depth : 0;
	out_openmetrics(&s->out);
	s->out.f = NULL;
	if (ferror(f) | fclose(f)) {
		free(body);
		return reply_error(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, NULL,
				   "writing the exposition: out of memory");
	}
	return reply(conn, MHD_HTTP_OK, body, len,
		     om ? CT_OPENMETRICS : CT_PROMETHEUS, NULL);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
			      const char *url, const char *method,
			      const char *version, const char *upload_data,
			      size_t *upload_size, void **con_cls)
{
	static int seen;

	(void)version;
	(void)upload_data;
	/* Another method is answered at once, on the first call (the
	 * request's headers), its body not waited for; the connection is
	 * then closed. */
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_error(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
				   "GET, HEAD", "only GET and HEAD");
	/* GET and HEAD on the call after the whole request is read (a body
	 * is dropped): answered before, the connection could not be kept
	 * for the next scrape. */
	if (!*con_cls) {
		*con_cls = &seen;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (strcmp(url, "/metrics"))
		return reply_error(conn, MHD_HTTP_NOT_FOUND, NULL,
				   "not found: the metrics are at /metrics");
	return scrape(cls, conn);
}

/*
 * The listening socket for "[ADDR:]PORT" (ADDR: a name or a number, an
 * IPv6 one in brackets; none: 127.0.0.1), bound and listening; -1 with the
 * reason in err.
 */
static int open_socket(const char *spec, int *ret_family, char *err,
		       size_t errlen)
{
	struct addrinfo hints, *ai = NULL;
	const char *colon = strrchr(spec, ':');
	char host[256] = "127.0.0.1";
	const char *port = colon ? colon + 1 : spec;
	int fd, r, one = 1;

	if (colon && colon > spec) {
		size_t n = (size_t)(colon - spec);

		if (spec[0] == '[' && spec[n - 1] == ']') {
			spec++;
			n -= 2;
		}
		if (n == 0 || n >= sizeof(host)) {
			snprintf(err, errlen, "--listen %s: bad address", spec);
			return -1;
		}
		memcpy(host, spec, n);
		host[n] = 0;
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	r = getaddrinfo(host, port, &hints, &ai);
	if (r) {
		snprintf(err, errlen, "--listen: address %s: %s", host,
			 gai_strerror(r));
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 64) < 0) {
		snprintf(err, errlen, "--listen: %s port %s: %s", host, port,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	*ret_family = ai->ai_family;
	freeaddrinfo(ai);
	return fd;
}

int listen_run(struct opts *o, struct cgfs *cg)
{
	struct server s;
	struct MHD_Daemon *d;
	sigset_t stop, old;
	char err[512];
	int fd, family, sig, r;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;

	if (mhd_open(err, sizeof(err)) < 0) {
		msg_err("%s", err);
		return 1;
	}
	fd = open_socket(o->listen, &family, err, sizeof(err));
	if (fd < 0) {
		msg_err("%s", err);
		return 1;
	}
	memset(&s, 0, sizeof(s));
	s.o = o;
	s.cg = cg;
	pipeline_init(&s.pl, cg, o->maxdepth, 0);
	batch_default_columns(o, cgfs_version(cg),
			      reclaim_state(s.pl.rc, NULL, NULL) != RECLAIM_NONE ||
			      cgfs_series_events(cg),
			      cgfs_free_fields(cg));
	s.want.cols = o->cols;
	s.want.ncols = o->ncols;
	s.want.sort = o->sort;
	s.want.only_shown = 1;
	s.out.cols = o->cols;
	s.out.ncols = o->ncols;
	s.out.human = 0;
	s.out.mode = cgfs_mode(cg);
	s.out.root = cgfs_root(cg);
	s.out.version = cgfs_version(cg);
	s.out.m = &s.pl.m;
	s.out.flat = o->flat;
	s.out.cadvisor = o->cadvisor;
	s.out.iteration = 1;

	/* The baseline: the first scrape's rates span the time since. */
	r = pipeline_refresh(&s.pl, &s.want, err, sizeof(err));
	s.out.collector = cgfs_collector(cg);
	if (r < 0) {
		msg_err("%s", r == -ENODATA ? "the recorded series is empty"
			: err);
		close(fd);
		pipeline_free(&s.pl);
		return 1;
	}

	/* Blocked here, the stop signals are blocked in the daemon's thread
	 * too, which inherits the mask: only sigwait below takes them. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	signal(SIGPIPE, SIG_IGN);
	if (family == AF_INET6)
		flags |= MHD_USE_IPv6;
	d = mhd.start_daemon(flags, 0, NULL, NULL, handle, &s,
			     MHD_OPTION_LISTEN_SOCKET, fd,
			     MHD_OPTION_CONNECTION_LIMIT,
			     (unsigned)LISTEN_CONNECTIONS,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT,
			     (size_t)LISTEN_REQUEST_BYTES,
			     MHD_OPTION_CONNECTION_TIMEOUT,
			     (unsigned)LISTEN_TIMEOUT,
			     MHD_OPTION_END);
	if (!d) {
		msg_err("--listen %s: libmicrohttpd could not start", o->listen);
		close(fd);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		pipeline_free(&s.pl);
		batch_rows_free(&s.br);
		return 1;
	}
	while (sigwait(&stop, &sig) != 0)
		;
	/* A second signal stays blocked: the stop under way ends. */
	mhd.stop_daemon(d);	/* closes fd */
	batch_rows_free(&s.br);
	pipeline_free(&s.pl);
	return 0;
}
