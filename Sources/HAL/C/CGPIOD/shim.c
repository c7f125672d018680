// The API of CGPIOD.h, implemented once for libgpiod v1 (1.x) and once for v2 (2.x).
//
// Telling them apart at compile time: v1's gpiod.h defines the macros GPIOD_BIT and GPIOD_LINE_BULK_MAX_LINES
// (the line-bulk API that v2 removed); v2's gpiod.h defines no macros besides its include guard and has only
// enums. Neither header carries a version macro.
#include "CGPIOD.h"

#include <errno.h>
#include <gpiod.h>
#include <stdlib.h>
#include <string.h>

#if defined(GPIOD_LINE_BULK_MAX_LINES) || defined(GPIOD_BIT)
#define APPLIANCE_GPIOD_V1 1
#else
#define APPLIANCE_GPIOD_V2 1
#endif

/// Copies a C string (NULL allowed) into a fixed buffer, truncating and always terminating.
static void copy_text(char *target, size_t size, const char *source) {
    if (size == 0) return;
    if (source == NULL) source = "";
    size_t length = strlen(source);
    if (length >= size) length = size - 1;
    memcpy(target, source, length);
    target[length] = '\0';
}

// The number of edge events one read takes from the kernel queue (the kernel keeps 16 per line by default).
#define EVENT_BATCH 16

#ifdef APPLIANCE_GPIOD_V1
// ---- libgpiod v1: lines belong to the chip object; one request per line -------------------------------------------

struct appliance_gpio_chip { struct gpiod_chip *chip; };
struct appliance_gpio_request { struct gpiod_line *line; unsigned int offset; bool edges; };

int appliance_gpio_api(void) { return 1; }
const char *appliance_gpio_library_version(void) { return gpiod_version_string(); }

appliance_gpio_chip *appliance_gpio_open_chip(const char *path) {
    struct gpiod_chip *chip = gpiod_chip_open(path);
    if (chip == NULL) return NULL;
    appliance_gpio_chip *owner = malloc(sizeof *owner);
    if (owner == NULL) { gpiod_chip_close(chip); errno = ENOMEM; return NULL; }
    owner->chip = chip;
    return owner;
}

void appliance_gpio_close_chip(appliance_gpio_chip *chip) {
    if (chip == NULL) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

int appliance_gpio_chip_identity(appliance_gpio_chip *chip, char *name, size_t name_size,
                                 char *label, size_t label_size, unsigned int *line_count) {
    copy_text(name, name_size, gpiod_chip_name(chip->chip));
    copy_text(label, label_size, gpiod_chip_label(chip->chip));
    *line_count = gpiod_chip_num_lines(chip->chip);
    return 0;
}

int appliance_gpio_line_info_get(appliance_gpio_chip *chip, unsigned int offset, appliance_gpio_line_info *info) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (line == NULL) return -1;
    if (gpiod_line_update(line) < 0) return -1;   // fresh from the kernel, not the chip object's cache
    copy_text(info->name, sizeof info->name, gpiod_line_name(line));
    copy_text(info->consumer, sizeof info->consumer, gpiod_line_consumer(line));
    info->used = gpiod_line_is_used(line);
    return 0;
}

int appliance_gpio_find_line(appliance_gpio_chip *chip, const char *name) {
    struct gpiod_line *line = gpiod_chip_find_line(chip->chip, name);
    if (line == NULL) return -1;
    return (int)gpiod_line_offset(line);
}

static int v1_bias_flags(int bias) {
    switch (bias) {
    case APPLIANCE_GPIO_BIAS_DISABLED: return GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
    case APPLIANCE_GPIO_BIAS_PULL_UP: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
    case APPLIANCE_GPIO_BIAS_PULL_DOWN: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
    default: return 0;
    }
}

static appliance_gpio_request *v1_request(appliance_gpio_chip *chip, unsigned int offset, const char *consumer,
                                          int type, int flags, int value, bool edges) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (line == NULL) return NULL;
    appliance_gpio_request *request = malloc(sizeof *request);
    if (request == NULL) { errno = ENOMEM; return NULL; }
    struct gpiod_line_request_config config = { .consumer = consumer, .request_type = type, .flags = flags };
    if (gpiod_line_request(line, &config, value) < 0) {
        int error = errno;
        free(request);
        errno = error;
        return NULL;
    }
    request->line = line;
    request->offset = offset;
    request->edges = edges;
    return request;
}

appliance_gpio_request *appliance_gpio_request_input(appliance_gpio_chip *chip, unsigned int offset,
                                                     const char *consumer, int bias, int edges, bool active_low) {
    int type;
    switch (edges) {
    case APPLIANCE_GPIO_EDGES_RISING: type = GPIOD_LINE_REQUEST_EVENT_RISING_EDGE; break;
    case APPLIANCE_GPIO_EDGES_FALLING: type = GPIOD_LINE_REQUEST_EVENT_FALLING_EDGE; break;
    case APPLIANCE_GPIO_EDGES_BOTH: type = GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES; break;
    default: type = GPIOD_LINE_REQUEST_DIRECTION_INPUT; break;
    }
    int flags = v1_bias_flags(bias) | (active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0);
    return v1_request(chip, offset, consumer, type, flags, 0, edges != APPLIANCE_GPIO_EDGES_NONE);
}

appliance_gpio_request *appliance_gpio_request_output(appliance_gpio_chip *chip, unsigned int offset,
                                                      const char *consumer, bool active_low, int initial_value) {
    int flags = active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
    return v1_request(chip, offset, consumer, GPIOD_LINE_REQUEST_DIRECTION_OUTPUT, flags, initial_value != 0, false);
}

int appliance_gpio_get_fd(appliance_gpio_request *request) {
    if (!request->edges) { errno = EPERM; return -1; }
    return gpiod_line_event_get_fd(request->line);
}

int appliance_gpio_read_events(appliance_gpio_request *request, appliance_gpio_edge_event *events,
                               unsigned int capacity) {
    struct gpiod_line_event batch[EVENT_BATCH];
    if (capacity > EVENT_BATCH) capacity = EVENT_BATCH;
    int count = gpiod_line_event_read_multiple(request->line, batch, capacity);
    for (int i = 0; i < count; i++) {
        events[i].timestamp_ns = (uint64_t)batch[i].ts.tv_sec * 1000000000u + (uint64_t)batch[i].ts.tv_nsec;
        events[i].line_seqno = 0;   // the v1 uAPI (struct gpioevent_data) carries no sequence number
        events[i].offset = request->offset;
        events[i].rising = batch[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
    }
    return count;
}

int appliance_gpio_get_value(appliance_gpio_request *request) { return gpiod_line_get_value(request->line); }

int appliance_gpio_set_value(appliance_gpio_request *request, int value) {
    return gpiod_line_set_value(request->line, value != 0);
}

void appliance_gpio_release(appliance_gpio_request *request) {
    if (request == NULL) return;
    gpiod_line_release(request->line);
    free(request);
}

#else
// ---- libgpiod v2: settings -> line config + request config -> a request independent of the chip object ---------

struct appliance_gpio_chip { struct gpiod_chip *chip; };
struct appliance_gpio_request {
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *buffer;   // NULL without edge detection
    unsigned int offset;
};

int appliance_gpio_api(void) { return 2; }
const char *appliance_gpio_library_version(void) { return gpiod_api_version(); }

appliance_gpio_chip *appliance_gpio_open_chip(const char *path) {
    struct gpiod_chip *chip = gpiod_chip_open(path);
    if (chip == NULL) return NULL;
    appliance_gpio_chip *owner = malloc(sizeof *owner);
    if (owner == NULL) { gpiod_chip_close(chip); errno = ENOMEM; return NULL; }
    owner->chip = chip;
    return owner;
}

void appliance_gpio_close_chip(appliance_gpio_chip *chip) {
    if (chip == NULL) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

int appliance_gpio_chip_identity(appliance_gpio_chip *chip, char *name, size_t name_size,
                                 char *label, size_t label_size, unsigned int *line_count) {
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip->chip);
    if (info == NULL) return -1;
    copy_text(name, name_size, gpiod_chip_info_get_name(info));
    copy_text(label, label_size, gpiod_chip_info_get_label(info));
    *line_count = (unsigned int)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    return 0;
}

int appliance_gpio_line_info_get(appliance_gpio_chip *chip, unsigned int offset, appliance_gpio_line_info *info) {
    struct gpiod_line_info *line = gpiod_chip_get_line_info(chip->chip, offset);
    if (line == NULL) return -1;
    copy_text(info->name, sizeof info->name, gpiod_line_info_get_name(line));
    copy_text(info->consumer, sizeof info->consumer, gpiod_line_info_get_consumer(line));
    info->used = gpiod_line_info_is_used(line);
    gpiod_line_info_free(line);
    return 0;
}

int appliance_gpio_find_line(appliance_gpio_chip *chip, const char *name) {
    return gpiod_chip_get_line_offset_from_name(chip->chip, name);
}

/// Builds the one-line configuration, requests it, and frees the builders whatever happens (keeping errno).
static appliance_gpio_request *v2_request(appliance_gpio_chip *chip, unsigned int offset, const char *consumer,
                                          struct gpiod_line_settings *settings, bool edges) {
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    appliance_gpio_request *request = calloc(1, sizeof *request);
    int error = ENOMEM;
    if (line_config == NULL || request_config == NULL || request == NULL) goto failed;
    if (gpiod_line_config_add_line_settings(line_config, &offset, 1, settings) < 0) { error = errno; goto failed; }
    gpiod_request_config_set_consumer(request_config, consumer);
    if (edges) {
        request->buffer = gpiod_edge_event_buffer_new(EVENT_BATCH);
        if (request->buffer == NULL) goto failed;
    }
    request->request = gpiod_chip_request_lines(chip->chip, request_config, line_config);
    if (request->request == NULL) { error = errno; goto failed; }
    request->offset = offset;
    gpiod_request_config_free(request_config);
    gpiod_line_config_free(line_config);
    gpiod_line_settings_free(settings);
    return request;
failed:
    if (request != NULL && request->buffer != NULL) gpiod_edge_event_buffer_free(request->buffer);
    free(request);
    gpiod_request_config_free(request_config);
    gpiod_line_config_free(line_config);
    gpiod_line_settings_free(settings);
    errno = error;
    return NULL;
}

appliance_gpio_request *appliance_gpio_request_input(appliance_gpio_chip *chip, unsigned int offset,
                                                     const char *consumer, int bias, int edges, bool active_low) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (settings == NULL) { errno = ENOMEM; return NULL; }
    enum gpiod_line_bias line_bias = GPIOD_LINE_BIAS_AS_IS;
    switch (bias) {
    case APPLIANCE_GPIO_BIAS_DISABLED: line_bias = GPIOD_LINE_BIAS_DISABLED; break;
    case APPLIANCE_GPIO_BIAS_PULL_UP: line_bias = GPIOD_LINE_BIAS_PULL_UP; break;
    case APPLIANCE_GPIO_BIAS_PULL_DOWN: line_bias = GPIOD_LINE_BIAS_PULL_DOWN; break;
    default: break;
    }
    enum gpiod_line_edge edge = GPIOD_LINE_EDGE_NONE;
    switch (edges) {
    case APPLIANCE_GPIO_EDGES_RISING: edge = GPIOD_LINE_EDGE_RISING; break;
    case APPLIANCE_GPIO_EDGES_FALLING: edge = GPIOD_LINE_EDGE_FALLING; break;
    case APPLIANCE_GPIO_EDGES_BOTH: edge = GPIOD_LINE_EDGE_BOTH; break;
    default: break;
    }
    if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) < 0
        || gpiod_line_settings_set_bias(settings, line_bias) < 0
        || gpiod_line_settings_set_edge_detection(settings, edge) < 0
        || gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC) < 0) {
        int error = errno;
        gpiod_line_settings_free(settings);
        errno = error;
        return NULL;
    }
    gpiod_line_settings_set_active_low(settings, active_low);
    return v2_request(chip, offset, consumer, settings, edge != GPIOD_LINE_EDGE_NONE);
}

appliance_gpio_request *appliance_gpio_request_output(appliance_gpio_chip *chip, unsigned int offset,
                                                      const char *consumer, bool active_low, int initial_value) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (settings == NULL) { errno = ENOMEM; return NULL; }
    enum gpiod_line_value value = initial_value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE;
    if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT) < 0
        || gpiod_line_settings_set_output_value(settings, value) < 0) {
        int error = errno;
        gpiod_line_settings_free(settings);
        errno = error;
        return NULL;
    }
    gpiod_line_settings_set_active_low(settings, active_low);
    return v2_request(chip, offset, consumer, settings, false);
}

int appliance_gpio_get_fd(appliance_gpio_request *request) {
    if (request->buffer == NULL) { errno = EPERM; return -1; }
    return gpiod_line_request_get_fd(request->request);
}

int appliance_gpio_read_events(appliance_gpio_request *request, appliance_gpio_edge_event *events,
                               unsigned int capacity) {
    if (request->buffer == NULL) { errno = EPERM; return -1; }
    if (capacity > EVENT_BATCH) capacity = EVENT_BATCH;
    int count = gpiod_line_request_read_edge_events(request->request, request->buffer, capacity);
    for (int i = 0; i < count; i++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(request->buffer, (unsigned long)i);
        events[i].timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
        events[i].line_seqno = (uint64_t)gpiod_edge_event_get_line_seqno(event);
        events[i].offset = gpiod_edge_event_get_line_offset(event);
        events[i].rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
    }
    return count;
}

int appliance_gpio_get_value(appliance_gpio_request *request) {
    enum gpiod_line_value value = gpiod_line_request_get_value(request->request, request->offset);
    if (value == GPIOD_LINE_VALUE_ERROR) return -1;
    return value == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0;
}

int appliance_gpio_set_value(appliance_gpio_request *request, int value) {
    return gpiod_line_request_set_value(request->request, request->offset,
                                        value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
}

void appliance_gpio_release(appliance_gpio_request *request) {
    if (request == NULL) return;
    gpiod_line_request_release(request->request);
    if (request->buffer != NULL) gpiod_edge_event_buffer_free(request->buffer);
    free(request);
}

#endif
