// Text from the service reaches the user's terminal: control characters (C0, DEL, C1) would let a
// hostile name retitle the window, clear the screen or fake output. They are shown as \xHH.
// Newlines and tabs are the caller's to handle (tables flatten them, messages keep them).
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

export function visible(text: string): string {
  return text.replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
