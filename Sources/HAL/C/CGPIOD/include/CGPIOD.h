// The one place libgpiod enters the firmware. HAL/GPIO wraps it; nothing else includes gpiod.h.
//
// libgpiod changed its whole API between v1 (1.6, Debian bookworm) and v2 (2.x, Debian trixie). Swift sees
// only this small, stable API of our own; shim.c implements it twice, once per library version, chosen at
// compile time. gpiod.h itself is included by shim.c only, so no Swift code can depend on either version.
//
// Conventions: functions returning a pointer return NULL on failure, functions returning int return -1;
// both leave the reason in errno. Levels are logical (active-low already applied): 1 active, 0 inactive.
#ifndef APPLIANCE_CGPIOD_H
#define APPLIANCE_CGPIOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// An open GPIO chip (/dev/gpiochipN).
typedef struct appliance_gpio_chip appliance_gpio_chip;
/// One requested line: an input (optionally with edge events) or an output.
typedef struct appliance_gpio_request appliance_gpio_request;

enum appliance_gpio_bias {
    APPLIANCE_GPIO_BIAS_AS_IS = 0,
    APPLIANCE_GPIO_BIAS_DISABLED = 1,
    APPLIANCE_GPIO_BIAS_PULL_UP = 2,
    APPLIANCE_GPIO_BIAS_PULL_DOWN = 3,
};

enum appliance_gpio_edges {
    APPLIANCE_GPIO_EDGES_NONE = 0,
    APPLIANCE_GPIO_EDGES_RISING = 1,
    APPLIANCE_GPIO_EDGES_FALLING = 2,
    APPLIANCE_GPIO_EDGES_BOTH = 3,
};

/// One edge event: kernel timestamp in ns on CLOCK_MONOTONIC (v2 asks for it; v1 reports it since Linux 5.7).
typedef struct appliance_gpio_edge_event {
    uint64_t timestamp_ns;
    /// The line's event sequence number (v2: gpiod_edge_event_get_line_seqno, the kernel's
    /// gpio_v2_line_event.line_seqno, 1 for the first edge). 0 with v1, whose uAPI has none.
    uint64_t line_seqno;
    unsigned int offset;
    bool rising;                  // a logical rising edge: the line became active
} appliance_gpio_edge_event;

/// What the kernel says about one line (whether it is in use, and by whom).
typedef struct appliance_gpio_line_info {
    char name[64];                // empty when the line has no name
    char consumer[64];            // empty when unused or the holder gave no name
    bool used;
} appliance_gpio_line_info;

/// 1 or 2: the libgpiod API this build was compiled against.
int appliance_gpio_api(void);
/// The library's own version string ("1.6.3", "2.2.1").
const char *appliance_gpio_library_version(void);

appliance_gpio_chip *appliance_gpio_open_chip(const char *path);
void appliance_gpio_close_chip(appliance_gpio_chip *chip);
/// Copies the chip's kernel name ("gpiochip0") and label ("pinctrl-bcm2711"); truncates to the buffers.
int appliance_gpio_chip_identity(appliance_gpio_chip *chip, char *name, size_t name_size,
                                 char *label, size_t label_size, unsigned int *line_count);
int appliance_gpio_line_info_get(appliance_gpio_chip *chip, unsigned int offset, appliance_gpio_line_info *info);
/// The offset of the first line named `name` on this chip, or -1 with errno ENOENT.
int appliance_gpio_find_line(appliance_gpio_chip *chip, const char *name);

/// Requests one input line. The chip must stay open until the request is released (v1 ties them together).
appliance_gpio_request *appliance_gpio_request_input(appliance_gpio_chip *chip, unsigned int offset,
                                                     const char *consumer, int bias, int edges, bool active_low);
appliance_gpio_request *appliance_gpio_request_output(appliance_gpio_chip *chip, unsigned int offset,
                                                      const char *consumer, bool active_low, int initial_value);
/// The descriptor that becomes readable when edge events are queued; -1 for a request without edges.
int appliance_gpio_get_fd(appliance_gpio_request *request);
/// Reads up to `capacity` queued events (blocks if none: poll the fd first). Returns the count or -1.
int appliance_gpio_read_events(appliance_gpio_request *request, appliance_gpio_edge_event *events,
                               unsigned int capacity);
/// The line's logical value: 0 or 1, or -1.
int appliance_gpio_get_value(appliance_gpio_request *request);
int appliance_gpio_set_value(appliance_gpio_request *request, int value);
void appliance_gpio_release(appliance_gpio_request *request);

#endif
