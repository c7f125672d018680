#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <editline/readline.h>
#include "CEdit.h"

static char *finished_line = NULL;
static int line_ended = 0;
static FILE *in_stream = NULL;
static FILE *out_stream = NULL;
static char *saved_prompt = NULL;

// libedit calls this with the line (malloc'd) or NULL at the end of input.
static void line_handler(char *line) {
    if (line == NULL) {
        line_ended = 1;
        return;
    }
    free(finished_line);
    finished_line = line;
}

int cedit_start(int input_fd, int output_fd, const char *prompt, int history_size) {
    in_stream = fdopen(input_fd, "r");
    out_stream = fdopen(output_fd, "w");
    if (in_stream == NULL || out_stream == NULL) return -1;
    setvbuf(out_stream, NULL, _IONBF, 0);
    rl_instream = in_stream;
    rl_outstream = out_stream;
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_readline_name = "appliance";
    // A fresh editor on these streams (libedit makes one per rl_initialize, and resets the history).
    rl_initialize();
    // A serial line has no window size (0 x 0); libedit then cannot place its cursor and redraws only the
    // prompt. Assume the VT100's 24 x 80 there.
    struct winsize size;
    if (ioctl(output_fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0 || size.ws_row == 0) rl_set_screen_size(24, 80);
    if (history_size > 0) stifle_history(history_size);
    free(saved_prompt);
    saved_prompt = strdup(prompt);
    rl_callback_handler_install(prompt, line_handler);
    return 0;
}

cedit_status cedit_read_character(void) {
    // Only when a byte is there: libedit's read blocks otherwise. Readable with nothing to read is the end:
    // a hang-up, or ^D taken by the kernel while the terminal was in canonical mode.
    int available = 0;
    if (in_stream == NULL || ioctl(fileno(in_stream), FIONREAD, &available) != 0 || available <= 0) return CEDIT_END;
    rl_callback_read_char();
    if (line_ended) {
        line_ended = 0;
        return CEDIT_END;
    }
    if (finished_line == NULL) return CEDIT_PENDING;
    // libedit 3.1 leaves its unbuffered (character-at-a-time) mode after delivering a line, and the terminal
    // in canonical mode: the kernel would then echo cursor keys as ^[[D and hold the next line until Enter.
    // Installing the handler again puts both back (and draws the prompt).
    rl_callback_handler_install(saved_prompt, line_handler);
    return CEDIT_LINE;
}

char *cedit_take_line(void) {
    char *line = finished_line;
    finished_line = NULL;
    return line;
}

void cedit_add_history(const char *line) { add_history(line); }

void cedit_print_above(const char *text) {
    if (out_stream == NULL) return;
    // Carriage return and erase to the end of the line (ECMA-48 EL), then the text, then libedit draws the
    // prompt and the line again.
    fputs("\r\033[K", out_stream);
    fputs(text, out_stream);
    fflush(out_stream);
    rl_forced_update_display();
}

void cedit_stop(void) {
    rl_callback_handler_remove();
    free(finished_line);
    finished_line = NULL;
    line_ended = 0;
    free(saved_prompt);
    saved_prompt = NULL;
    // The streams are over duplicates of the caller's descriptors: closing them leaves the caller's open.
    if (in_stream != NULL) fclose(in_stream);
    if (out_stream != NULL) fclose(out_stream);
    in_stream = NULL;
    out_stream = NULL;
}
