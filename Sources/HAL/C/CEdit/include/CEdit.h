// The one place libedit enters the firmware (BSD licence; GNU readline would make the firmware GPL), through
// its readline-compatible callback interface, so the control loop never blocks in it. HAL/Terminal/LineEditor
// wraps it; nothing else includes it. libedit keeps one editor per process: so does this shim.
#ifndef APPLIANCE_CEDIT_H
#define APPLIANCE_CEDIT_H

/// What one cedit_read_character call ended with.
typedef enum {
    CEDIT_PENDING = 0,  // a key was taken; no line yet
    CEDIT_LINE = 1,     // a whole line is ready: take it with cedit_take_line
    CEDIT_END = 2,      // end of input (^D on an empty line)
} cedit_status;

/// Starts editing on the terminal `input_fd` (echo and redisplay on `output_fd`) with `prompt`; libedit's
/// signal handlers stay off (the daemon has its own). Returns 0, or -1 when the streams cannot be opened.
int cedit_start(int input_fd, int output_fd, const char *prompt, int history_size);

/// Reads and handles one key (libedit reads a whole escape sequence for one); call when the input is readable.
/// Readable with no byte to read is CEDIT_END (a hang-up, or the kernel's end-of-file).
cedit_status cedit_read_character(void);

/// The finished line (malloc'd: the caller frees it), or NULL.
char *cedit_take_line(void);

/// Adds a line to the history (up-arrow brings it back).
void cedit_add_history(const char *line);

/// Prints `text` (lines ending in "\n") above the line being edited: the prompt and the half-typed line are
/// erased, the text printed, and both drawn again below it, as they were.
void cedit_print_above(const char *text);

/// Stops editing: the terminal gets its settings back.
void cedit_stop(void);
#endif
