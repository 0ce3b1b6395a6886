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

/// Collects up to `capacity` ready registrations without waiting: their tokens and what is
/// ready (STREAK_POLL_* bits). Returns how many, 0 when none, or -1 with errno set.
int streak_poll_ready(int poll, uint64_t *tokens, uint32_t *ready, int capacity);
