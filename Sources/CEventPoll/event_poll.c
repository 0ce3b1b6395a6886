#include "event_poll.h"

#include <errno.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

int streak_poll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static uint32_t events_for(uint32_t interest) {
    uint32_t events = 0;
    if (interest & STREAK_POLL_READ) events |= EPOLLIN;
    if (interest & STREAK_POLL_WRITE) events |= EPOLLOUT;
    return events;
}

static int control(int poll, int op, int fd, uint32_t interest, uint64_t token) {
    struct epoll_event event = {.events = events_for(interest), .data = {.u64 = token}};
    return epoll_ctl(poll, op, fd, &event);
}

int streak_poll_add(int poll, int fd, uint32_t interest, uint64_t token) {
    return control(poll, EPOLL_CTL_ADD, fd, interest, token);
}

int streak_poll_modify(int poll, int fd, uint32_t interest, uint64_t token) {
    return control(poll, EPOLL_CTL_MOD, fd, interest, token);
}

int streak_poll_remove(int poll, int fd) {
    struct epoll_event unused = {0};
    return epoll_ctl(poll, EPOLL_CTL_DEL, fd, &unused);
}

int streak_poll_wait(int poll, uint64_t *tokens, uint32_t *ready, int capacity, int timeout_ms) {
    enum { batch = 64 };
    struct epoll_event events[batch];
    if (capacity > batch) capacity = batch;
    int count = epoll_wait(poll, events, capacity, timeout_ms);
    if (count < 0 && errno == EINTR) return 0;
    for (int i = 0; i < count; i++) {
        uint32_t bits = 0;
        if (events[i].events & EPOLLIN) bits |= STREAK_POLL_READ;
        if (events[i].events & EPOLLOUT) bits |= STREAK_POLL_WRITE;
        if (events[i].events & (EPOLLHUP | EPOLLERR)) bits |= STREAK_POLL_HANGUP;
        tokens[i] = events[i].data.u64;
        ready[i] = bits;
    }
    return count;
}

int streak_wake_create(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

void streak_wake_signal(int wake) {
    uint64_t one = 1;
    ssize_t written;
    do {
        written = write(wake, &one, sizeof one);
    } while (written < 0 && errno == EINTR);
}

void streak_wake_drain(int wake) {
    uint64_t count;
    ssize_t got;
    do {
        got = read(wake, &count, sizeof count);
    } while (got < 0 && errno == EINTR);
}
