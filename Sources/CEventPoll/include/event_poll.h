#pragma once
#include <stdint.h>

/// A thin, Swift-friendly face on Linux epoll(7), which the Glibc module does not import.
/// Level-triggered; a registration is named by a 64-bit token chosen by the caller.

/// What a registration waits for, and what a wait reports.
enum {
    STREAK_POLL_READ = 1,    ///< readable (EPOLLIN)
    STREAK_POLL_WRITE = 2,   ///< writable (EPOLLOUT)
    STREAK_POLL_HANGUP = 4,  ///< reported only: hang-up or error (EPOLLHUP, EPOLLERR)
};

/// A new close-on-exec epoll instance, or -1 with errno set.
int streak_poll_create(void);

/// Registers `fd` under `token`, waiting for `interest` (STREAK_POLL_READ | STREAK_POLL_WRITE).
/// Returns 0, or -1 with errno set.
int streak_poll_add(int poll, int fd, uint32_t interest, uint64_t token);

/// Changes what a registered `fd` waits for. Returns 0, or -1 with errno set.
int streak_poll_modify(int poll, int fd, uint32_t interest, uint64_t token);

/// Removes `fd`. Returns 0, or -1 with errno set.
int streak_poll_remove(int poll, int fd);

/// Waits up to `timeout_ms` (-1: without limit, 0: not at all) for ready registrations and
/// collects up to `capacity` of them: their tokens and what is ready (STREAK_POLL_* bits).
/// Returns how many, 0 when none (or the wait was interrupted), or -1 with errno set.
int streak_poll_wait(int poll, uint64_t *tokens, uint32_t *ready, int capacity, int timeout_ms);

/// A new close-on-exec, non-blocking eventfd(2) that another thread signals to end a wait,
/// or -1 with errno set.
int streak_wake_create(void);

/// Makes the eventfd readable (wakes a thread waiting for it).
void streak_wake_signal(int wake);

/// Makes the eventfd unreadable again.
void streak_wake_drain(int wake);
