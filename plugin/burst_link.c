#include "burst_link.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void burst_link_init(struct burst_link *l, const char *path)
{
	memset(l, 0, sizeof(*l));
	strncpy(l->path, path, sizeof(l->path) - 1);
	l->fd = -1;
	l->backoff = BURST_LINK_BACKOFF_MIN;
}

static void disconnect(struct burst_link *l, time_t now, int err)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	l->dropped += l->out_msgs;
	l->out_msgs = 0;
	l->out_len = l->out_off = 0;
	l->in_len = 0;
	l->in_discarding = 0;
	l->last_errno = err;
	l->next_attempt = now + l->backoff;
	l->backoff = l->backoff * 2 > BURST_LINK_BACKOFF_MAX ? BURST_LINK_BACKOFF_MAX
							      : l->backoff * 2;
}

void burst_link_close(struct burst_link *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	free(l->out);
	free(l->in);
	l->out = l->in = NULL;
	l->out_len = l->out_off = l->out_cap = l->in_len = l->in_cap = 0;
}

enum burst_link_event burst_link_tick(struct burst_link *l, time_t now)
{
	struct sockaddr_un addr;
	int fd;

	if (l->fd >= 0 || now < l->next_attempt)
		return BURST_LINK_IDLE;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		disconnect(l, now, errno);
		return BURST_LINK_CONNECT_FAILED;
	}
	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	memcpy(addr.sun_path, l->path, sizeof(addr.sun_path) - 1);
	/*
	 * A UNIX-domain connect either completes or fails at once; EAGAIN
	 * (listener backlog full) counts as a failure, retried after backoff.
	 */
	if (connect(fd, (struct sockaddr *) &addr, sizeof(addr)) < 0) {
		int err = errno;
		close(fd);
		disconnect(l, now, err);
		return BURST_LINK_CONNECT_FAILED;
	}
	l->fd = fd;
	l->seq = 0;
	l->connects++;
	l->backoff = BURST_LINK_BACKOFF_MIN;
	l->last_errno = 0;
	return BURST_LINK_CONNECTED;
}

int burst_link_connected(const struct burst_link *l)
{
	return l->fd >= 0;
}

int burst_link_wants_write(const struct burst_link *l)
{
	return l->fd >= 0 && l->out_len > l->out_off;
}

int burst_link_queue(struct burst_link *l, const char *msg, size_t len, int droppable)
{
	size_t pending = l->out_len - l->out_off;

	if (l->fd < 0 || (droppable && pending) ||
	    (!droppable && pending + len > BURST_LINK_SMALL_QUEUE_BYTES)) {
		l->dropped++;
		return -1;
	}
	if (l->out_off) {
		memmove(l->out, l->out + l->out_off, pending);
		l->out_len = pending;
		l->out_off = 0;
	}
	if (l->out_len + len > l->out_cap) {
		size_t cap = l->out_len + len;
		char *n = realloc(l->out, cap);
		if (!n) {
			l->dropped++;
			return -1;
		}
		l->out = n;
		l->out_cap = cap;
	}
	memcpy(l->out + l->out_len, msg, len);
	l->out_len += len;
	l->out_msgs++;
	return 0;
}

int burst_link_queue_buffer(struct burst_link *l, char **buf, size_t len, size_t *cap,
			    int droppable)
{
	char *own = l->out;
	size_t own_cap = l->out_cap;

	if (l->fd < 0 || l->out_len > l->out_off)
		return burst_link_queue(l, *buf, len, droppable);
	l->out = *buf;
	l->out_cap = *cap;
	l->out_len = len;
	l->out_off = 0;
	l->out_msgs = 1;
	*buf = own;
	*cap = own_cap;
	return 0;
}

int burst_link_flush(struct burst_link *l, time_t now)
{
	while (l->fd >= 0 && l->out_off < l->out_len) {
		ssize_t n = send(l->fd, l->out + l->out_off, l->out_len - l->out_off,
				 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			disconnect(l, now, errno);
			return -1;
		}
		l->out_off += (size_t) n;
	}
	if (l->fd >= 0 && l->out_len && l->out_off == l->out_len) {
		l->sent += l->out_msgs;
		l->out_msgs = 0;
		l->out_len = l->out_off = 0;
	}
	return 0;
}

static void take_lines(struct burst_link *l, burst_line_fn fn, void *ctx)
{
	size_t start = 0, i;

	for (i = 0; i < l->in_len; i++) {
		if (l->in[i] != '\n')
			continue;
		if (l->in_discarding)
			l->in_discarding = 0;
		else
			fn(ctx, l->in + start, i - start, 0);
		start = i + 1;
	}
	memmove(l->in, l->in + start, l->in_len - start);
	l->in_len -= start;
	if (l->in_len > BURST_LINK_MAX_IN_LINE) {
		if (!l->in_discarding)
			fn(ctx, NULL, 0, 1);
		l->in_discarding = 1;
		l->in_len = 0;
	}
}

int burst_link_read(struct burst_link *l, time_t now, burst_line_fn fn, void *ctx)
{
	size_t budget = BURST_LINK_READ_BUDGET;

	/* The budget keeps a flooding peer from monopolising the thread. */
	while (budget) {
		ssize_t n;

		if (l->fd < 0)
			return -1;
		if (l->in_cap - l->in_len < 65536) {
			size_t cap = l->in_cap ? l->in_cap * 2 : 65536;
			char *buf;
			if (cap > BURST_LINK_MAX_IN_LINE + 65536)
				cap = BURST_LINK_MAX_IN_LINE + 65536;
			buf = realloc(l->in, cap);
			if (!buf) {
				disconnect(l, now, ENOMEM);
				return -1;
			}
			l->in = buf;
			l->in_cap = cap;
		}
		n = recv(l->fd, l->in + l->in_len, l->in_cap - l->in_len, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			disconnect(l, now, errno);
			return -1;
		}
		if (n == 0) {
			disconnect(l, now, ECONNRESET);
			return -1;
		}
		l->in_len += (size_t) n;
		budget = (size_t) n >= budget ? 0 : budget - (size_t) n;
		take_lines(l, fn, ctx);
	}
	return 0;
}
