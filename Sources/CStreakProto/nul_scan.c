// Finds a string field whose bytes hold U+0000: protobuf-c unpacks strings into NUL-terminated C
// strings, so "a\0b" would silently become "a". The scan walks the wire bytes of a message that
// protobuf-c has already unpacked successfully (so the encoding is well formed), guided by the
// message's descriptor, into nested messages too.
#include "shim.h"
#include <string.h>

static int read_varint(const uint8_t **cursor, const uint8_t *end, uint64_t *value) {
    uint64_t result = 0;
    for (unsigned shift = 0; shift < 64 && *cursor < end; shift += 7) {
        uint8_t byte = *(*cursor)++;
        result |= (uint64_t)(byte & 0x7F) << shift;
        if ((byte & 0x80) == 0) {
            *value = result;
            return 1;
        }
    }
    return 0;
}

const char *streak_find_nul_string(const ProtobufCMessageDescriptor *descriptor, const uint8_t *data,
                                   size_t length, unsigned depth) {
    if (descriptor == NULL || depth > 64) return NULL;
    const uint8_t *cursor = data;
    const uint8_t *end = data + length;
    while (cursor < end) {
        uint64_t tag;
        if (!read_varint(&cursor, end, &tag)) return NULL;
        uint32_t number = (uint32_t)(tag >> 3);
        uint64_t size;
        switch (tag & 7) {
        case 0:
            if (!read_varint(&cursor, end, &size)) return NULL;
            break;
        case 1:
            if ((size_t)(end - cursor) < 8) return NULL;
            cursor += 8;
            break;
        case 5:
            if ((size_t)(end - cursor) < 4) return NULL;
            cursor += 4;
            break;
        case 2: {
            if (!read_varint(&cursor, end, &size) || size > (uint64_t)(end - cursor)) return NULL;
            const ProtobufCFieldDescriptor *field = protobuf_c_message_descriptor_get_field(descriptor, number);
            if (field != NULL && field->type == PROTOBUF_C_TYPE_STRING && memchr(cursor, 0, (size_t)size) != NULL) {
                return field->name;
            }
            if (field != NULL && field->type == PROTOBUF_C_TYPE_MESSAGE) {
                const char *found = streak_find_nul_string(field->descriptor, cursor, (size_t)size, depth + 1);
                if (found != NULL) return found;
            }
            cursor += size;
            break;
        }
        default:
            return NULL;
        }
    }
    return NULL;
}
