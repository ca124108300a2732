#include <hiredis/hiredis.h>
#include <sys/socket.h>

// hiredis replies are a tree of C structs; Swift reads their fields directly. These helpers give
// Swift what it cannot take from the header as it is: a reply's child by index.
static inline redisReply *tabstage_reply_element(const redisReply *reply, size_t index) {
    return reply->element[index];
}

// Wakes a thread blocked reading `context` (a subscriber) from another thread: its read then
// finds the end of the stream and it looks at why. Only reading is shut: that thread may be about
// to write (a command of its setup, a heartbeat), and a write to a socket shut for writing raises
// SIGPIPE, which ends the process. The context itself is still freed by its owner.
static inline void tabstage_redis_shutdown(redisContext *context) {
    if (context->fd >= 0) shutdown(context->fd, SHUT_RD);
}
