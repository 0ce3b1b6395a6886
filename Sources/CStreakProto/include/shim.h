// The C side of StreakWire: the protoc-c output for proto/streak/v1 and a bump arena that
// serves both as the encoder's scratch memory and as the decoder's bounded allocator.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <protobuf-c/protobuf-c.h>

#include "streak/v1/types.pb-c.h"
#include "streak/v1/service.pb-c.h"

/// A bump allocator. Memory is handed out in 8-byte aligned pieces from chunks that are freed
/// together by streak_arena_destroy; individual frees are no-ops. `used` counts the bytes handed
/// out and `reserved` the bytes of all chunks; a request that would take either over `limit`
/// (a new chunk is cut to what is left of it) fails (returns NULL) and sets `exceeded`. The
/// first chunk is taken whole at creation: keep it within the limit.
typedef struct StreakArena {
    ProtobufCAllocator allocator;  // allocator_data points at this arena
    uint8_t *cursor;
    uint8_t *end;
    void *chunks;                  // singly linked list of extra chunks (the first is inline)
    size_t used;
    size_t reserved;               // bytes of all chunks, the first included (headers aside)
    size_t limit;
    size_t next_chunk_size;
    int exceeded;
} StreakArena;

/// Creates an arena with a first chunk of `first_chunk` bytes (one malloc for both).
/// Returns NULL only when malloc fails.
StreakArena *streak_arena_create(size_t limit, size_t first_chunk);

/// Frees every chunk and the arena itself.
void streak_arena_destroy(StreakArena *arena);

/// The slow path of streak_arena_alloc: a new chunk.
void *streak_arena_alloc_slow(StreakArena *arena, size_t size);

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STREAK_ARENA_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define STREAK_ARENA_SANITIZED 1
#endif
// Swift's importer compiles the inline functions below without the sanitizer (and so without
// STREAK_ARENA_SANITIZED); their allocations still get a chunk each, because in shim.c, which is
// instrumented, a sanitized arena has no first chunk and its slow path makes exact-size chunks.

/// Allocates `size` bytes (8-byte aligned) or returns NULL when the budget is exhausted.
static inline void *streak_arena_alloc(StreakArena *arena, size_t size) {
    if (size > SIZE_MAX - 8) {
        arena->exceeded = 1;
        return NULL;
    }
    size = (size + 7) & ~(size_t)7;
    if (size > arena->limit - arena->used) {
        arena->exceeded = 1;
        return NULL;
    }
    arena->used += size;
#ifdef STREAK_ARENA_SANITIZED
    // Under AddressSanitizer every allocation is its own chunk, so overflows are caught.
    return streak_arena_alloc_slow(arena, size);
#endif
    if ((size_t)(arena->end - arena->cursor) >= size) {
        void *p = arena->cursor;
        arena->cursor += size;
        return p;
    }
    return streak_arena_alloc_slow(arena, size);
}

/// The arena's allocator, for the generated *__unpack functions.
static inline ProtobufCAllocator *streak_arena_allocator(StreakArena *arena) {
    return &arena->allocator;
}

/// The bytes taken from malloc for chunks so far, the first chunk included and the chunk
/// headers not: what the arena really holds, as opposed to `used`, what it handed out.
static inline size_t streak_arena_reserved(const StreakArena *arena) {
    return arena->reserved;
}

/// Whether an allocation was refused because of the budget.
static inline int streak_arena_exceeded(const StreakArena *arena) {
    return arena->exceeded;
}

/// The empty string protobuf-c uses as a string field's default.
static inline char *streak_empty_string(void) {
    return (char *)protobuf_c_empty_string;
}

/// strlen, for Swift code that imports no libc module.
static inline size_t streak_strlen(const char *string) {
    return strlen(string);
}

/// The name of the first string field (in `data`, a valid encoding of a message of `descriptor`,
/// nested messages included) whose bytes hold a U+0000, or NULL when there is none.
const char *streak_find_nul_string(const ProtobufCMessageDescriptor *descriptor, const uint8_t *data,
                                   size_t length, unsigned depth);
