/* SPDX-License-Identifier: GPL-2.0-or-later */
/* listen.c - --listen: a Prometheus endpoint.  GET /metrics serves the
 * exposition of -b -F openmetrics (or -F prometheus, by the request's
 * Accept), computed at the scrape by the pipeline batch mode uses.
 *
 * libmicrohttpd serves the connections from one thread of its own, which
 * polls them all and calls handle() for one request at a time: a scrape
 * never runs beside another, and a slow client (half a request) holds a
 * connection, not that thread.  LISTEN_REQUEST_BYTES bound a request's
 * line and headers (larger: 414 or 431, connection closed); its query is
 * dropped unread (uri_seen).
 *
 * The connections are accepted here (the main thread) and handed to
 * libmicrohttpd once their first line has come whole and names a method
 * and a target (first_line, by MSG_PEEK: the bytes stay for it to read).
 * libmicrohttpd 0.9.75 closes a connection whose request line has no
 * space, or starts with one, without a status (parse_initial_message_line
 * returns MHD_NO before any response is queued, and no option of its
 * changes that): such a line is answered 400 here, and closed.  So that
 * every request line is seen here first, a connection serves one request:
 * every answer says "Connection: close" and libmicrohttpd closes the
 * connection after it (no keep-alive: a scraper opens a connection a
 * scrape, as Prometheus does when an answer says so).
 *
 * Which connections stay open is decided here, not by libmicrohttpd's
 * own limits (its per-address limit refuses the newest connection, which
 * on a shared address - the loopback, a NAT - is the scraper's as often
 * as not, and at its total limit it stops accepting, leaving the rest in
 * the listen queue): every connection is accepted at once, and one past
 * LISTEN_PER_CLIENT from its address, or past LISTEN_CONNECTIONS in all,
 * closes another of that address (of all) that waits for a request -
 * the oldest that has sent nothing, else the oldest with half a request -
 * or, none waiting, itself (pick_victim).  A scraper's connection, whose
 * request comes at once, is served long before it is the oldest; a request
 * being read is not cut short for an idle connection.  A connection that has
 * not sent a whole request head LISTEN_HEAD_TIMEOUT seconds after it was
 * opened is closed (the main thread's clock, sweep()), however it trickles;
 * one silent for LISTEN_TIMEOUT seconds is closed by libmicrohttpd (a reader
 * that stops reading an answer too).  The main thread also takes SIGINT,
 * SIGTERM or SIGHUP (a signalfd; blocked in every thread), then stops the
 * daemon (a scrape under way ends first) and returns 0.
 */
#include <dlfcn.h>
#include <errno.h>
#include <linux/tcp.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "app/batch.h"
#include "app/listen.h"
#include "app/opts.h"
#include "cgfs.h"
#include "clock.h"
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
	__typeof__(&MHD_get_connection_info) conn_info;
	__typeof__(&MHD_is_feature_supported) has_feature;
	__typeof__(&MHD_add_connection) add_connection;
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
	SYM(conn_info, "MHD_get_connection_info");
	SYM(has_feature, "MHD_is_feature_supported");
	SYM(add_connection, "MHD_add_connection");
#undef SYM
	return 0;
}

#define LISTEN_CONNECTIONS	1024	/* open at once */
#define LISTEN_PER_CLIENT	64	/* open at once from one address */
#define LISTEN_HEAD_TIMEOUT	5	/* s: from the connect to a request head */
#define LISTEN_TIMEOUT		10	/* s: silence */
#define LISTEN_REQUEST_BYTES	(16 * 1024)
/* Accepted past LISTEN_CONNECTIONS while those closed for them go (at
 * most 10 an iteration of libmicrohttpd's loop, each closed in the next). */
#define LISTEN_SLACK		64
/* The listening socket, the acceptor's epoll and signalfd,
 * libmicrohttpd's epoll and wake-up descriptors. */
#define LISTEN_OWN_FDS		16
/* What a refresh opens beside the connections: the walk's reserve. */
#define LISTEN_REFRESH_FDS	128
#define LISTEN_BACKLOG		1024

unsigned listen_fds(void)
{
	return LISTEN_CONNECTIONS + LISTEN_SLACK + LISTEN_OWN_FDS;
}

#define CT_OPENMETRICS \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"
#define CT_PROMETHEUS	"text/plain; version=0.0.4; charset=utf-8"
#define CT_ERROR	"text/plain; charset=utf-8"

/*
 * The connections, as the guard sees them (struct conn, each
 * libmicrohttpd connection's socket context): waiting for its request
 * head (fresh, in the order of their deadlines), being answered (busy),
 * or closing (answered, or shut down here: in no list, until
 * libmicrohttpd closes it).  A fresh
 * one is pending while its first line is awaited here (the acceptor owns
 * its descriptor and closes it), and in no list while handed over, until
 * libmicrohttpd starts it (on_conn finds it in slot[] by descriptor).
 * The lock is taken by libmicrohttpd's thread (on_conn, handle, on_done)
 * and by the main thread (accepting, handing over, sweep); a descriptor
 * is shut down or closed only by the main thread and under it, while its
 * connection is in a list, so never after libmicrohttpd closed it
 * (on_conn's CLOSED comes before the close).
 */
enum { L_FRESH, L_BUSY, L_NONE };

struct conn {
	struct conn *prev, *next;
	int list;		/* L_* */
	int fd;
	int family;		/* AF_INET, AF_INET6, 0: not known */
	unsigned char addr[16];
	double deadline;	/* CLOCK_MONOTONIC s: a whole head by then */
	int sent;		/* has sent a byte (fresh: sent_any's) */
	int pending;		/* the acceptor's, its first line awaited */
	int handing;		/* handed to libmicrohttpd, not yet started */
	struct sockaddr_storage sa;
	socklen_t salen;
};

struct conn_list {
	struct conn *head, *tail;
};

struct guard {
	pthread_mutex_t lock;
	struct conn_list l[L_NONE];
	unsigned open;		/* in a list */
	unsigned limit, per_client;
	struct conn **slot;	/* by descriptor: pending or handed over */
	unsigned nslot;
};

static void list_del(struct guard *g, struct conn *c)
{
	struct conn_list *l;

	if (c->list == L_NONE)
		return;
	l = &g->l[c->list];
	if (c->prev)
		c->prev->next = c->next;
	else
		l->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		l->tail = c->prev;
	c->prev = c->next = NULL;
	c->list = L_NONE;
	g->open--;
}

/* In list, after the last one whose deadline is not later (appended,
 * but for a connection libmicrohttpd starts after others came). */
static void list_add(struct guard *g, struct conn *c, int list)
{
	struct conn_list *l = &g->l[list];
	struct conn *after;

	list_del(g, c);
	for (after = l->tail; after && after->deadline > c->deadline;
	     after = after->prev)
		;
	c->list = list;
	c->prev = after;
	c->next = after ? after->next : l->head;
	if (c->next)
		c->next->prev = c;
	else
		l->tail = c;
	if (after)
		after->next = c;
	else
		l->head = c;
	g->open++;
}

/* Closed: a pending one here; another shut down, by its peer's view,
 * libmicrohttpd then sees it end and closes it. */
static void conn_drop(struct guard *g, struct conn *c)
{
	list_del(g, c);
	if (!c->pending) {
		shutdown(c->fd, SHUT_RDWR);
		return;
	}
	g->slot[c->fd] = NULL;
	close(c->fd);		/* and out of the acceptor's epoll */
	free(c);
}

static int same_addr(const struct conn *a, const struct conn *b)
{
	return a->family && a->family == b->family &&
	       !memcmp(a->addr, b->addr, sizeof(a->addr));
}

/* Whether a connection has sent a byte: the kernel's count (TCP_INFO,
 * Linux 4.1+; else taken as yes), asked until it is yes. */
static int sent_any(struct conn *c)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (c->sent)
		return 1;
	memset(&ti, 0, sizeof(ti));
	if (getsockopt(c->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0 ||
	    len < offsetof(struct tcp_info, tcpi_bytes_received) +
		  sizeof(ti.tcpi_bytes_received) ||
	    ti.tcpi_bytes_received)
		c->sent = 1;
	return c->sent;
}

/*
 * The connection to close for a new one (self), from self's address if
 * by_addr: the oldest waiting one that has sent nothing, else the oldest
 * with half a request; NULL if none but self waits.
 */
static struct conn *pick_victim(struct guard *g, struct conn *self,
				int by_addr)
{
	struct conn *c, *part = NULL;

	for (c = g->l[L_FRESH].head; c; c = c->next) {
		if (c == self || (by_addr && !same_addr(c, self)))
			continue;
		if (!sent_any(c))
			return c;
		if (!part)
			part = c;
	}
	return part;
}

static unsigned count_addr(struct guard *g, const struct conn *self)
{
	unsigned n = 0;

	for (int l = L_FRESH; l < L_NONE; l++)
		for (struct conn *c = g->l[l].head; c; c = c->next)
			n += same_addr(c, self);
	return n;
}

/* A new connection, pending: in, and one out if a limit is passed (under
 * lock); whether it is still open. */
static int admit(struct guard *g, struct conn *c)
{
	struct conn *victim = NULL;

	c->deadline = clock_mono() + LISTEN_HEAD_TIMEOUT;
	list_add(g, c, L_FRESH);
	if (c->family && count_addr(g, c) > g->per_client) {
		victim = pick_victim(g, c, 1);
	} else if (g->open > g->limit) {
		victim = pick_victim(g, c, 0);
	} else {
		return 1;
	}
	conn_drop(g, victim ? victim : c);
	return victim != NULL;
}

/* Closes the connections past their deadline; the time of the next one
 * (or now + LISTEN_HEAD_TIMEOUT: none sooner can come). */
static double sweep(struct guard *g)
{
	double now = clock_mono(), next = now + LISTEN_HEAD_TIMEOUT;
	struct conn *c;

	pthread_mutex_lock(&g->lock);
	while ((c = g->l[L_FRESH].head) && c->deadline <= now)
		conn_drop(g, c);
	if (c && c->deadline < next)
		next = c->deadline;
	pthread_mutex_unlock(&g->lock);
	return next;
}

/* libmicrohttpd starts a connection handed to it (its record taken from
 * slot[], fresh again) or ends one. */
static void on_conn(void *cls, struct MHD_Connection *conn, void **ctx,
		    enum MHD_ConnectionNotificationCode toe)
{
	struct guard *g = cls;
	struct conn *c = *ctx;
	const union MHD_ConnectionInfo *fd;

	if (toe != MHD_CONNECTION_NOTIFY_STARTED) {
		if (c) {
			pthread_mutex_lock(&g->lock);
			list_del(g, c);
			pthread_mutex_unlock(&g->lock);
			free(c);
			*ctx = NULL;
		}
		return;
	}
	fd = mhd.conn_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!fd || fd->connect_fd < 0)
		return;
	pthread_mutex_lock(&g->lock);
	c = (unsigned)fd->connect_fd < g->nslot ? g->slot[fd->connect_fd]
						 : NULL;
	if (c && c->handing) {
		g->slot[c->fd] = NULL;
		c->handing = 0;
		list_add(g, c, L_FRESH);
		*ctx = c;
	}
	pthread_mutex_unlock(&g->lock);
}

/* The guard's record of a connection, NULL if it has none. */
static struct conn *conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *i =
		mhd.conn_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return i ? i->socket_context : NULL;
}

/* A request has its head: busy until answered (unless closing). */
static void conn_busy(struct guard *g, struct MHD_Connection *conn)
{
	struct conn *c = conn_of(conn);

	pthread_mutex_lock(&g->lock);
	if (c && c->list != L_NONE && c->list != L_BUSY)
		list_add(g, c, L_BUSY);
	pthread_mutex_unlock(&g->lock);
}

/* A request is over: its connection is closing ("Connection: close"). */
static void on_done(void *cls, struct MHD_Connection *conn, void **con_cls,
		    enum MHD_RequestTerminationCode toe)
{
	struct guard *g = cls;
	struct conn *c = conn_of(conn);

	(void)con_cls;
	(void)toe;
	pthread_mutex_lock(&g->lock);
	if (c)
		list_del(g, c);
	pthread_mutex_unlock(&g->lock);
}

/*
 * Before libmicrohttpd parses a request's query: it is cut off.  No
 * query is read, and libmicrohttpd 0.9.75 stores each parameter from its
 * connection's memory and, when that runs out (about 250 short ones in
 * LISTEN_REQUEST_BYTES), closes the connection without an answer.  The
 * URI is libmicrohttpd's own buffer, NUL-terminated, not yet parsed
 * (microhttpd.h: "for processing the URI ... before it is parsed").
 */
static void *uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
{
	char *q = uri ? strchr(uri, '?') : NULL;

	(void)cls;
	(void)conn;
	if (q)
		q[1] = '\0';
	return NULL;
}

struct server {
	struct guard g;
	struct opts *o;
	struct cgfs *cg;
	struct pipeline pl;
	struct pipeline_want want;
	struct batch_rows br;
	struct out_ctx out;
};

/* A response from a buffer of malloc's, which it frees; ctype, if not
 * NULL Allow, and "Connection: close" (the connection's last). */
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
	if (mhd.add_header(resp, MHD_HTTP_HEADER_CONNECTION,
			   "close") != MHD_YES ||
	    mhd.add_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
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
	FILE *f;
	int r;

	r = pipeline_refresh(&s->pl, &s->want, err, sizeof(err));
	if (s->pl.m.src.note_new) {
		s->pl.m.src.note_new = 0;
		msg_err("%s", s->pl.m.src.note);
		s->out.collector = s->pl.m.src.collector;
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
	struct server *s = cls;

	(void)version;
	(void)upload_data;
	conn_busy(&s->g, conn);
	/* Another method is answered at once, on the first call (the
	 * request's headers), its body not waited for; the connection is
	 * then closed. */
	if (strcmp(method, MHD_HTTP_METHOD_GET) &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_error(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
				   "GET, HEAD", "only GET and HEAD");
	/* GET and HEAD on the call after the whole request is read (a body
	 * is read and dropped): closed with bytes unread, the connection
	 * would be reset, the answer perhaps lost. */
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
	return scrape(s, conn);
}

/*
 * What a request head's first line says, as far as it has come (n bytes
 * at p, full: as many as are peeked): 0 more is needed, 1 libmicrohttpd
 * parses it (a method, a space, more; too long a line is its 414), -1 it
 * does not.  Lines as libmicrohttpd 0.9.75 cuts them (get_next_header_line:
 * at CRLF or a bare LF), the empty ones before it skipped as it does (one
 * whose first byte is NUL is empty to it too).
 */
static int first_line(const char *p, size_t n, int full)
{
	size_t i = 0;

	for (;;) {
		const char *lf = memchr(p + i, '\n', n - i);
		size_t len;

		if (!lf)
			return full ? 1 : 0;
		len = (size_t)(lf - p) - i;
		if (len && p[i + len - 1] == '\r')
			len--;
		if (len && p[i])
			return p[i] != ' ' && memchr(p + i, ' ', len) ? 1 : -1;
		i = (size_t)(lf - p) + 1;
	}
}

#define BAD_LINE_BODY	"memcgtop: bad request line: want METHOD TARGET " \
			"HTTP/1.x\n"
#define BAD_LINE	"HTTP/1.1 400 Bad Request\r\n"			\
			"Connection: close\r\n"				\
			"Content-Type: " CT_ERROR "\r\n"		\
			"Content-Length: 56\r\n\r\n" BAD_LINE_BODY

_Static_assert(sizeof(BAD_LINE_BODY) - 1 == 56, "Content-Length");

/* The main thread's side: the listening socket, pending connections (edge
 * triggered: a peek leaves the bytes, a new segment wakes it again), the
 * stop signals; the daemon the good ones go to. */
struct acceptor {
	struct guard *g;
	struct MHD_Daemon *d;
	int lfd, ep, sfd;
	double paused;		/* accept() out of descriptors: until then */
	char buf[LISTEN_REQUEST_BYTES];
};

/* A pending connection, readable: handed over, answered 400, closed, or
 * left to wait for more of its first line. */
static void peek_conn(struct acceptor *a, int fd)
{
	struct guard *g = a->g;
	struct conn *c;
	ssize_t n;
	int r = -1;

	pthread_mutex_lock(&g->lock);
	c = g->slot[fd];
	pthread_mutex_unlock(&g->lock);
	if (!c || !c->pending)
		return;
	n = recv(fd, a->buf, sizeof(a->buf), MSG_PEEK | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0)
		r = first_line(a->buf, (size_t)n, (size_t)n == sizeof(a->buf));
	if (!r)
		return;
	if (r > 0) {
		epoll_ctl(a->ep, EPOLL_CTL_DEL, fd, NULL);
		pthread_mutex_lock(&g->lock);
		list_del(g, c);
		c->pending = 0;
		c->handing = 1;
		pthread_mutex_unlock(&g->lock);
		/* The descriptor is libmicrohttpd's now, closed by it even
		 * when it fails (then its record is taken back). */
		if (mhd.add_connection(a->d, fd, (struct sockaddr *)&c->sa,
				       c->salen) != MHD_YES) {
			pthread_mutex_lock(&g->lock);
			g->slot[fd] = NULL;
			pthread_mutex_unlock(&g->lock);
			free(c);
		}
		return;
	}
	if (n > 0) {
		/* Read what was peeked: closed with bytes unread, the
		 * socket would be reset, the answer perhaps lost. */
		if (recv(fd, a->buf, (size_t)n, MSG_DONTWAIT) > 0)
			send(fd, BAD_LINE, sizeof(BAD_LINE) - 1,
			     MSG_DONTWAIT | MSG_NOSIGNAL);
		shutdown(fd, SHUT_WR);
	}
	pthread_mutex_lock(&g->lock);
	conn_drop(g, c);
	pthread_mutex_unlock(&g->lock);
}

/* One new connection: a pending record, admitted, watched. */
static void take_conn(struct acceptor *a, int fd,
		      const struct sockaddr_storage *sa, socklen_t salen)
{
	struct guard *g = a->g;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP | EPOLLET };
	struct conn *c = NULL;

	if ((unsigned)fd >= g->nslot || !(c = calloc(1, sizeof(*c)))) {
		close(fd);
		return;
	}
	c->list = L_NONE;
	c->fd = fd;
	c->pending = 1;
	c->sa = *sa;
	c->salen = salen;
	if (sa->ss_family == AF_INET) {
		c->family = AF_INET;
		memcpy(c->addr, &((const struct sockaddr_in *)
				  (const void *)sa)->sin_addr, 4);
	} else if (sa->ss_family == AF_INET6) {
		c->family = AF_INET6;
		memcpy(c->addr, &((const struct sockaddr_in6 *)
				  (const void *)sa)->sin6_addr, 16);
	}
	ev.data.fd = fd;
	pthread_mutex_lock(&g->lock);
	/* One handed over before, that libmicrohttpd closed without
	 * starting it (out of memory): its record goes now. */
	free(g->slot[fd]);
	g->slot[fd] = c;
	if (admit(g, c) && epoll_ctl(a->ep, EPOLL_CTL_ADD, fd, &ev) < 0)
		conn_drop(g, c);
	pthread_mutex_unlock(&g->lock);
}

/* The connections waiting in the listen queue, 64 at most a call; out of
 * descriptors, accepting pauses for 0.1 s (the queue keeps them). */
static void accept_some(struct acceptor *a)
{
	for (int i = 0; i < 64; i++) {
		struct sockaddr_storage sa;
		socklen_t salen = sizeof(sa);
		int fd = accept4(a->lfd, (struct sockaddr *)&sa, &salen,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd >= 0) {
			take_conn(a, fd, &sa, salen);
			continue;
		}
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM) {
			epoll_ctl(a->ep, EPOLL_CTL_DEL, a->lfd, NULL);
			a->paused = clock_mono() + 0.1;
		}
		return;
	}
}

/* Until a stop signal: accepting, peeking, the guard's clock (each
 * deadline kept within a millisecond). */
static void accept_loop(struct acceptor *a)
{
	struct epoll_event ev[64];

	for (;;) {
		double wait = sweep(a->g) - clock_mono();
		int n;

		if (a->paused && a->paused <= clock_mono()) {
			struct epoll_event l = { .events = EPOLLIN,
						 .data.fd = a->lfd };

			a->paused = 0;
			epoll_ctl(a->ep, EPOLL_CTL_ADD, a->lfd, &l);
		}
		if (a->paused && a->paused - clock_mono() < wait)
			wait = a->paused - clock_mono();
		n = epoll_wait(a->ep, ev, 64,
			       wait < 0.001 ? 1 : (int)(wait * 1000) + 1);
		for (int i = 0; i < n; i++) {
			if (ev[i].data.fd == a->sfd)
				return;
			if (ev[i].data.fd == a->lfd)
				accept_some(a);
			else
				peek_conn(a, ev[i].data.fd);
		}
	}
}

/* The acceptor's descriptors (lfd its), 0; -1 with the reason said. */
static int acceptor_open(struct acceptor *a, const sigset_t *stop)
{
	struct epoll_event l = { .events = EPOLLIN, .data.fd = a->lfd };
	struct epoll_event s = { .events = EPOLLIN };

	a->ep = epoll_create1(EPOLL_CLOEXEC);
	a->sfd = signalfd(-1, stop, SFD_CLOEXEC | SFD_NONBLOCK);
	s.data.fd = a->sfd;
	if (a->ep < 0 || a->sfd < 0 ||
	    epoll_ctl(a->ep, EPOLL_CTL_ADD, a->lfd, &l) < 0 ||
	    epoll_ctl(a->ep, EPOLL_CTL_ADD, a->sfd, &s) < 0) {
		msg_err("--listen: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* After the daemon stopped (its connections closed): the pending ones
 * closed, every record freed, the acceptor's descriptors closed. */
static void acceptor_close(struct acceptor *a)
{
	struct guard *g = a->g;

	for (unsigned i = 0; g->slot && i < g->nslot; i++) {
		if (g->slot[i] && g->slot[i]->pending)
			close((int)i);
		free(g->slot[i]);
	}
	free(g->slot);
	g->slot = NULL;
	if (a->sfd >= 0)
		close(a->sfd);
	if (a->ep >= 0)
		close(a->ep);
	close(a->lfd);
}

/*
 * The listening socket for "[ADDR:]PORT" (ADDR: a name or a number, an
 * IPv6 one in brackets; none: 127.0.0.1), bound and listening; -1 with the
 * reason in err.
 */
static int open_socket(const char *spec, char *err, size_t errlen)
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
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 ||
	    listen(fd, LISTEN_BACKLOG) < 0) {
		snprintf(err, errlen, "--listen: %s port %s: %s", host, port,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	return fd;
}

/*
 * The connections the descriptors allow: LISTEN_CONNECTIONS where
 * RLIMIT_NOFILE can be raised to hold them beside a refresh's (the walk
 * keeps listen_fds() fewer of its own), else what it holds, said once.
 */
static unsigned fit_connections(void)
{
	rlim_t need = listen_fds() + LISTEN_REFRESH_FDS;
	struct rlimit rl;
	long n;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return LISTEN_CONNECTIONS;
	if (rl.rlim_cur < need) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ||
			      rl.rlim_max > need ? need : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur >= need)
		return LISTEN_CONNECTIONS;
	n = (long)rl.rlim_cur - LISTEN_REFRESH_FDS - LISTEN_SLACK -
	    LISTEN_OWN_FDS;
	if (n < 4)
		n = 4;
	msg_err("--listen: RLIMIT_NOFILE is %llu (hard limit): at most %ld "
		"connections, not %d (that needs %llu)",
		(unsigned long long)rl.rlim_cur, n, LISTEN_CONNECTIONS,
		(unsigned long long)need);
	return (unsigned)n;
}

int listen_run(struct opts *o, struct cgfs *cg)
{
	struct server s;
	struct acceptor a;
	struct MHD_Daemon *d;
	sigset_t stop, old;
	char err[512];
	int fd, r;
	long nofile;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD |
			 MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC;

	if (mhd_open(err, sizeof(err)) < 0) {
		msg_err("%s", err);
		return 1;
	}
	fd = open_socket(o->listen, err, sizeof(err));
	if (fd < 0) {
		msg_err("%s", err);
		return 1;
	}
	memset(&s, 0, sizeof(s));
	pthread_mutex_init(&s.g.lock, NULL);
	s.g.limit = fit_connections();
	s.g.per_client = s.g.limit / 4 < LISTEN_PER_CLIENT ?
			 (s.g.limit / 4 ? s.g.limit / 4 : 1) : LISTEN_PER_CLIENT;
	/* A slot for every descriptor the process may have. */
	nofile = sysconf(_SC_OPEN_MAX);
	s.g.nslot = nofile > 0 && nofile < (1L << 20) ? (unsigned)nofile
						      : 1U << 20;
	s.g.slot = calloc(s.g.nslot, sizeof(*s.g.slot));
	if (!s.g.slot) {
		msg_err("--listen: out of memory");
		close(fd);
		pthread_mutex_destroy(&s.g.lock);
		return 1;
	}
	s.o = o;
	s.cg = cg;
	pipeline_init(&s.pl, cg, o->maxdepth, 0);
	s.pl.m.rs_margin = o->rec_margin;
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
		free(s.g.slot);
		pthread_mutex_destroy(&s.g.lock);
		pipeline_free(&s.pl);
		return 1;
	}

	/* Blocked here, the stop signals are blocked in the daemon's thread
	 * too, which inherits the mask: only the acceptor's signalfd takes
	 * them. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	signal(SIGPIPE, SIG_IGN);
	/* epoll where libmicrohttpd has it, else poll(): both past
	 * FD_SETSIZE.  Its limit is the guard's and the slack: it never
	 * refuses a connection on its own. */
	flags |= mhd.has_feature(MHD_FEATURE_EPOLL) == MHD_YES ?
		 MHD_USE_EPOLL : MHD_USE_POLL;
	d = mhd.start_daemon(flags, 0, NULL, NULL, handle, &s,
			     MHD_OPTION_CONNECTION_LIMIT,
			     s.g.limit + LISTEN_SLACK,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT,
			     (size_t)LISTEN_REQUEST_BYTES,
			     MHD_OPTION_CONNECTION_TIMEOUT,
			     (unsigned)LISTEN_TIMEOUT,
			     MHD_OPTION_NOTIFY_CONNECTION, on_conn, &s.g,
			     MHD_OPTION_NOTIFY_COMPLETED, on_done, &s.g,
			     MHD_OPTION_URI_LOG_CALLBACK, uri_seen, NULL,
			     MHD_OPTION_END);
	memset(&a, 0, sizeof(a));
	a.g = &s.g;
	a.d = d;
	a.lfd = fd;
	a.ep = a.sfd = -1;
	if (!d)
		msg_err("--listen %s: libmicrohttpd could not start", o->listen);
	if (d && acceptor_open(&a, &stop) == 0)
		accept_loop(&a);
	/* A second signal stays blocked: the stop under way ends. */
	if (d)
		mhd.stop_daemon(d);	/* closes its connections */
	acceptor_close(&a);
	if (!d || a.ep < 0 || a.sfd < 0)
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_mutex_destroy(&s.g.lock);
	batch_rows_free(&s.br);
	pipeline_free(&s.pl);
	return d && a.ep >= 0 && a.sfd >= 0 ? 0 : 1;
}
