/**
 * Text from bots, made safe to show. Bots are other people's code: a name, a description, an
 * error message or a log line may carry terminal control sequences (clear the screen, retitle the
 * window, write the clipboard with OSC 52). Every string a bot supplies goes through `visible`
 * where the arena takes it from the bot, and again where it is printed (results written before,
 * or by another machine, are shown too).
 */

/** The C0 controls, DEL and the C1 controls: what a terminal may act on instead of showing. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** A control character's visible stand-in: its Unicode control picture (`␛`, `␇`, `␊`, `␡`), or `\x9b` for a C1 control. */
function picture(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `\\x${code.toString(16)}`;
}

/**
 * `text` with every control character made visible (`ESC[2J` reads `␛[2J`, a BEL `␇`, a newline
 * `␊`, the 8-bit CSI `\x9b`): nothing in it can move the cursor, change the terminal or end the
 * line. The same string when there is nothing to replace.
 */
export function visible(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, picture) : text;
}
