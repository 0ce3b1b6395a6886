#include "shim.h"

#include <stdlib.h>

typedef struct StreakArenaChunk {
    struct StreakArenaChunk *next;
    size_t size;
} StreakArenaChunk;

#define STREAK_ARENA_HEADER (((sizeof(StreakArena) + 15) / 16) * 16)
#define STREAK_CHUNK_HEADER (((sizeof(StreakArenaChunk) + 15) / 16) * 16)

static void *streak_arena_pb_alloc(void *data, size_t size) {
    return streak_arena_alloc((StreakArena *)data, size);
}

static void streak_arena_pb_free(void *data, void *pointer) {
    (void)data;
    (void)pointer;
}

StreakArena *streak_arena_create(size_t limit, size_t first_chunk) {
#ifdef STREAK_ARENA_SANITIZED
    first_chunk = 0;  // every allocation gets its own chunk (see streak_arena_alloc)
#endif
    if (first_chunk > SIZE_MAX - STREAK_ARENA_HEADER) return NULL;
    uint8_t *block = malloc(STREAK_ARENA_HEADER + first_chunk);
    if (block == NULL) return NULL;
    StreakArena *arena = (StreakArena *)block;
    arena->allocator.alloc = streak_arena_pb_alloc;
    arena->allocator.free = streak_arena_pb_free;
    arena->allocator.allocator_data = arena;
    arena->cursor = block + STREAK_ARENA_HEADER;
    arena->end = arena->cursor + first_chunk;
    arena->chunks = NULL;
    arena->used = 0;
    arena->reserved = first_chunk;
    arena->limit = limit;
    arena->next_chunk_size = first_chunk < 1024 ? 2048 : first_chunk * 2;
    arena->exceeded = 0;
    return arena;
}

void streak_arena_destroy(StreakArena *arena) {
    if (arena == NULL) return;
    StreakArenaChunk *chunk = arena->chunks;
    while (chunk != NULL) {
        StreakArenaChunk *next = chunk->next;
        free(chunk);
        chunk = next;
    }
    free(arena);
}

void *streak_arena_alloc_slow(StreakArena *arena, size_t size) {
    // Chunks double, but never past what is left of the limit: the limit bounds the memory really
    // taken (the bytes lost at the end of a full chunk count against it), not only the bytes handed
    // out, which would let doubling chunks reach twice the limit.
    size_t room = arena->reserved < arena->limit ? arena->limit - arena->reserved : 0;
    size_t chunk_size = arena->next_chunk_size < room ? arena->next_chunk_size : room;
    if (chunk_size < size) chunk_size = size;
#ifdef STREAK_ARENA_SANITIZED
    chunk_size = size;
#endif
    if (chunk_size > room || chunk_size > SIZE_MAX - STREAK_CHUNK_HEADER) {
        arena->exceeded = 1;
        return NULL;
    }
    StreakArenaChunk *chunk = malloc(STREAK_CHUNK_HEADER + chunk_size);
    if (chunk == NULL) {
        arena->exceeded = 1;
        return NULL;
    }
    chunk->next = arena->chunks;
    chunk->size = chunk_size;
    arena->chunks = chunk;
    arena->reserved += chunk_size;
    if (arena->next_chunk_size < ((size_t)1 << 30)) arena->next_chunk_size *= 2;
    uint8_t *start = (uint8_t *)chunk + STREAK_CHUNK_HEADER;
    arena->cursor = start + size;
    arena->end = start + chunk_size;
    return start;
}
