// The output chokepoint's escaping. Text from the service, from files and from the command line
// reaches the user's terminal: control characters (C0, DEL, C1) would let a hostile name retitle
// the window, clear the screen, move the cursor or fake output. They are shown as \xHH.
// src/cli/io.ts applies terminalText to everything written to stdout and stderr (jsonText to
// JSON); visible() is for text that is later joined with our own styling (table cells).

const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

const hex = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** Control characters as \xHH; newlines and tabs are the caller's to handle (tables flatten them, messages keep them). */
export function visible(text: string): string {
  return text.replace(CONTROLS, hex);
}

/**
 * What may reach a terminal: newlines, tabs, CR LF line ends (rendered HTML, files written on
 * Windows) and, when colour is on, only the SGR sequences our own Paint emits (bold, dim, red,
 * green, yellow and their resets: a colour change at most, never a cursor move, a title, a
 * hidden text or a link). Every other control character is shown as \xHH.
 */
const TERMINAL = /\x1b\[(?:1|2|22|31|32|33|39)m|\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

export function terminalText(text: string, colour: boolean): string {
  return text.replace(TERMINAL, (m) => (m === '\r\n' || (colour && m.length > 1) ? m : visible(m)));
}

/**
 * JSON text as safe as it is valid: JSON.stringify escapes C0 already but leaves DEL and C1 (CSI
 * is \x9b) raw; inside a JSON string they become \u00XX, which parses back to the same value.
 */
export function jsonText(text: string): string {
  return text.replace(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
