/*
 * The exporter's connection to burstd: a non-blocking UNIX stream socket with
 * a bounded outgoing buffer and reconnect backoff.  Nothing here ever waits:
 * the caller polls burst_link_fd() and calls in when it is ready.
 */
#ifndef BURST_LINK_H
#define BURST_LINK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/un.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Small messages (hello, job_end) may queue up to this many bytes. */
#define BURST_LINK_SMALL_QUEUE_BYTES (1024 * 1024)
/* Longest advice line accepted from burstd. */
#define BURST_LINK_MAX_IN_LINE (1024 * 1024)
/* Bytes read per burst_link_read call. */
#define BURST_LINK_READ_BUDGET (4 * 1024 * 1024)
#define BURST_LINK_BACKOFF_MIN 1
#define BURST_LINK_BACKOFF_MAX 60

struct burst_link {
	char path[sizeof(((struct sockaddr_un *) 0)->sun_path)];
	int fd;                 /* -1 when disconnected */
	time_t next_attempt;
	unsigned backoff;
	char *out;              /* queued bytes out[out_off..out_len) */
	size_t out_len, out_off, out_cap;
	uint64_t out_msgs;      /* messages in out, counted as sent or dropped */
	char *in;               /* partial received line */
	size_t in_len, in_cap;
	int in_discarding;      /* skipping the rest of an oversized line */
	uint64_t seq;           /* last seq used on this connection */
	uint64_t dropped, sent, connects;
	int last_errno;
};

/* Receives one complete line (without '\n'); too_long lines arrive as
 * (NULL, 0, 1) once, so the caller can log them. */
typedef void (*burst_line_fn)(void *ctx, const char *line, size_t len, int too_long);

void burst_link_init(struct burst_link *l, const char *path);
void burst_link_close(struct burst_link *l); /* also frees buffers */

enum burst_link_event { BURST_LINK_IDLE, BURST_LINK_CONNECTED, BURST_LINK_CONNECT_FAILED };

/* Attempts a connection when disconnected and the backoff has expired. */
enum burst_link_event burst_link_tick(struct burst_link *l, time_t now);

int burst_link_connected(const struct burst_link *l);
int burst_link_wants_write(const struct burst_link *l);

/*
 * Queues one message.  A snapshot (droppable) is only queued when nothing
 * else is waiting, so a slow burstd costs one snapshot's memory at most;
 * small messages are queued while the queue stays under
 * BURST_LINK_SMALL_QUEUE_BYTES.  Returns 0 if queued, -1 if dropped (and
 * counted).
 */
int burst_link_queue(struct burst_link *l, const char *msg, size_t len, int droppable);

/*
 * Queues the message in *buf (len bytes of a *cap-byte malloc'd buffer)
 * like burst_link_queue, but when nothing else is waiting the link takes
 * the buffer itself instead of copying it, and hands back its own (empty)
 * one in *buf and *cap for the caller's next message: a snapshot of many
 * megabytes is neither copied nor written into fresh pages.
 */
int burst_link_queue_buffer(struct burst_link *l, char **buf, size_t len, size_t *cap,
			    int droppable);

/* Writes what the socket takes now; on a broken connection disconnects
 * (dropping the queue) and returns -1. */
int burst_link_flush(struct burst_link *l, time_t now);

/* Reads what is available and hands complete lines to fn; on EOF or error
 * disconnects and returns -1. */
int burst_link_read(struct burst_link *l, time_t now, burst_line_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
