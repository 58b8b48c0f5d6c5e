#ifndef STICKER_TERMINAL_H
#define STICKER_TERMINAL_H

#include <termios.h>

/// Until sticker_terminal_guard_end: should SIGINT, SIGTERM, SIGHUP or SIGQUIT end the process
/// (those still at their default action), the handler first writes `saved` back to `fd`, then
/// ends the process with the signal's default action. The state lives in C statics, so the
/// handler makes only async-signal-safe calls (tcsetattr, signal, raise).
void sticker_terminal_guard_begin(int fd, const struct termios *saved);

/// Puts back the signals' earlier actions.
void sticker_terminal_guard_end(void);

#endif
