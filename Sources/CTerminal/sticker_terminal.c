#include "sticker_terminal.h"

#include <signal.h>
#include <string.h>

static const int guarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
enum { guarded_count = sizeof guarded_signals / sizeof guarded_signals[0] };

static volatile sig_atomic_t guarded_fd = -1;
static struct termios guarded_settings;
static struct sigaction previous[guarded_count];
static int installed[guarded_count];

static void restore_and_end(int number) {
    if (guarded_fd >= 0) tcsetattr(guarded_fd, TCSANOW, &guarded_settings);
    signal(number, SIG_DFL);
    raise(number);  // blocked while this handler runs: delivered when it returns
}

void sticker_terminal_guard_begin(int fd, const struct termios *saved) {
    memcpy(&guarded_settings, saved, sizeof guarded_settings);
    guarded_fd = fd;
    for (int i = 0; i < guarded_count; i++) {
        installed[i] = 0;
        struct sigaction old;
        if (sigaction(guarded_signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = restore_and_end;
        sigemptyset(&action.sa_mask);
        if (sigaction(guarded_signals[i], &action, NULL) == 0) {
            previous[i] = old;
            installed[i] = 1;
        }
    }
}

void sticker_terminal_guard_end(void) {
    for (int i = 0; i < guarded_count; i++) {
        if (installed[i]) sigaction(guarded_signals[i], &previous[i], NULL);
        installed[i] = 0;
    }
    guarded_fd = -1;
}
