/* The habit name rule, checked before a name is sent (docs/PROTOCOL.md section 2.2). */
#include <stdio.h>
#include <string.h>

#include "streakclient.h"

/* Decodes the UTF-8 scalar at s (NUL-terminated); returns its byte length, or 0 when the bytes
 * there are not valid UTF-8 (overlong, a surrogate, above U+10FFFF, cut short). */
static size_t decode_scalar(const unsigned char *s, uint32_t *scalar) {
    unsigned char b = s[0];
    size_t length;
    uint32_t value, smallest;
    if (b < 0x80) { *scalar = b; return 1; }
    if (b >= 0xC2 && b <= 0xDF) { length = 2; value = b & 0x1F; smallest = 0x80; }
    else if (b >= 0xE0 && b <= 0xEF) { length = 3; value = b & 0x0F; smallest = 0x800; }
    else if (b >= 0xF0 && b <= 0xF4) { length = 4; value = b & 0x07; smallest = 0x10000; }
    else return 0;
    for (size_t i = 1; i < length; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0; /* a NUL ends here too */
        value = value << 6 | (s[i] & 0x3F);
    }
    if (value < smallest || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0;
    *scalar = value;
    return length;
}

/* Unicode's White_Space property. */
static int is_white_space(uint32_t c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

/* General category Cc: C0, DEL and C1. */
static int is_control(uint32_t c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

int streak_check_habit_name(const char *name, char *error, size_t error_size) {
    char unused[1];
    if (error == NULL || error_size == 0) error = unused, error_size = sizeof unused;
    if (name == NULL) {
        snprintf(error, error_size, "a habit name is 1 to %d characters (Unicode scalars; got none)",
                 STREAK_MAX_HABIT_NAME_LENGTH);
        return -1;
    }
    /* One pass; the reasons are then given in the server's order: length, blank, control. */
    const unsigned char *start = (const unsigned char *)name, *p = start;
    size_t scalars = 0, control_offset = 0;
    uint32_t control = 0;
    int blank = 1, has_control = 0;
    while (*p != 0) {
        uint32_t scalar = 0;
        size_t length = decode_scalar(p, &scalar);
        if (length == 0) {
            snprintf(error, error_size, "a habit name must be valid UTF-8 (bad byte 0x%02X at offset %zu)", *p,
                     (size_t)(p - start));
            return -1;
        }
        if (is_control(scalar) && !has_control) has_control = 1, control = scalar, control_offset = (size_t)(p - start);
        if (!is_white_space(scalar)) blank = 0;
        scalars++;
        p += length;
    }
    if (scalars == 0 || scalars > STREAK_MAX_HABIT_NAME_LENGTH) {
        snprintf(error, error_size, "a habit name is 1 to %d characters (Unicode scalars; got %zu)",
                 STREAK_MAX_HABIT_NAME_LENGTH, scalars);
        return -1;
    }
    if (blank) {
        snprintf(error, error_size, "a habit name needs a character that is not white space");
        return -1;
    }
    if (has_control) {
        snprintf(error, error_size, "a habit name may not contain control characters (U+%04X at byte offset %zu)",
                 (unsigned)control, control_offset);
        return -1;
    }
    return 0;
}

int streak_check_request_names(const ProtobufCMessage *request, char *error, size_t error_size) {
    if (request == NULL) return 0;
    if (request->descriptor == &streak__v1__create_habit_request__descriptor) {
        return streak_check_habit_name(((const Streak__V1__CreateHabitRequest *)request)->name, error, error_size);
    }
    if (request->descriptor == &streak__v1__rename_habit_request__descriptor) {
        return streak_check_habit_name(((const Streak__V1__RenameHabitRequest *)request)->name, error, error_size);
    }
    return 0;
}
